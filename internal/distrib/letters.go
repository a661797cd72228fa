// This file implements letters between processes: a splitter (the
// coordinator's root, or a worker's job) publishes the letters its
// strategy writes to the large units it split off (explore.Part.Letters)
// on each unit's subject of LettersStream, and the job that explores such
// a unit reads them, in order, once it waits for one, from the first on.

package distrib

import (
	"context"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/weft-go/weft/strategy"
)

// outbox numbers the units a splitter's Split and SplitLarge gave, in
// order, by the subject of their letters, and publishes its letters.
type outbox struct {
	units []string       // the letter subject of each unit, by number
	sent  map[string]int // the letters written to each subject
}

// add numbers the next unit, whose letters go on subject.
func (o *outbox) add(subject string) { o.units = append(o.units, subject) }

// post publishes letters, from run's splitter, on their units' subjects.
func (o *outbox) post(ctx context.Context, js jetstream.JetStream, run string, letters []strategy.Letter) error {
	for _, l := range letters {
		if l.Unit < 0 || l.Unit >= len(o.units) {
			return fmt.Errorf("a letter to unit number %d of %d split off: the splitter's count of its units is not the strategy's", l.Unit, len(o.units))
		}
		subject := o.units[l.Unit]
		if o.sent == nil {
			o.sent = map[string]int{}
		}
		b, err := encode(&letterMsg{Magic: magic, Run: run, Index: o.sent[subject], Data: l.Data})
		if err != nil {
			return err
		}
		if _, err := js.Publish(ctx, subject, b); err != nil {
			return fmt.Errorf("publishing a letter on %s: %w", subject, err)
		}
		o.sent[subject]++
	}
	return nil
}

// letterIn is a letter message that came for a job.
type letterIn struct {
	j *job
	m jetstream.Msg
}

// mailbox is what a job keeps of the letters to its unit: the consumer
// that reads them (from the first, once it first waits for one), those
// read and not yet given to its part, and the index of the next.
type mailbox struct {
	consume jetstream.ConsumeContext
	done    chan struct{}
	inbox   [][]byte
	next    int
	// awaiting says the part's last batch ended waiting for a letter
	// (explore.Part.AwaitsMail).
	awaiting bool
}

// subscribe starts reading the letters to j's unit, from the first, onto
// w.letters.
func (w *worker) subscribe(j *job) error {
	if j.mail.consume != nil {
		return nil
	}
	subject := j.unit.letters()
	cons, err := w.js.OrderedConsumer(w.ctx, LettersStream, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{subject},
		DeliverPolicy:  jetstream.DeliverAllPolicy,
	})
	if err != nil {
		return fmt.Errorf("%w: reading the letters on %s: %v", errWorker, subject, err)
	}
	done := make(chan struct{})
	cc, err := cons.Consume(func(m jetstream.Msg) {
		select {
		case w.letters <- letterIn{j, m}:
		case <-done:
		}
	})
	if err != nil {
		return fmt.Errorf("%w: reading the letters on %s: %v", errWorker, subject, err)
	}
	j.mail.consume, j.mail.done = cc, done
	return nil
}

// unsubscribe stops reading the letters to j's unit.
func (j *job) unsubscribe() {
	if j.mail.consume != nil {
		close(j.mail.done)
		j.mail.consume.Stop()
		j.mail.consume = nil
	}
}

// takeLetter files letter message in for its job, if the job is still the
// worker's: a letter read before (written again by a coordinator that
// resumed the run) is dropped.
func (w *worker) takeLetter(in letterIn) error {
	j, m := in.j, in.m
	if j.mail.consume == nil {
		return nil // the job ended
	}
	l, err := decodeLetter(j.unit.Run, m.Subject(), m.Data())
	if err != nil {
		w.stats.Rejected++
		w.logf("weft worker %s: rejected a message: %v", w.o.Name, err)
		return nil
	}
	switch {
	case l.Index < j.mail.next:
		w.stats.LettersAgain++
	case l.Index > j.mail.next:
		return fmt.Errorf("unit %d of run %s: letter %d came after letter %d: letters were lost", j.unit.ID, j.unit.Run, l.Index, j.mail.next-1)
	default:
		j.mail.inbox = append(j.mail.inbox, l.Data)
		j.mail.next++
		w.stats.Letters++
		j.mail.awaiting = false
	}
	return nil
}

// takeLetters files the letters that came, without waiting.
func (w *worker) takeLetters() error {
	for {
		select {
		case in := <-w.letters:
			if err := w.takeLetter(in); err != nil {
				return err
			}
		default:
			return nil
		}
	}
}

// receive gives j's part the letters it read.
func (w *worker) receive(j *job) error {
	for len(j.mail.inbox) > 0 {
		l := j.mail.inbox[0]
		j.mail.inbox = j.mail.inbox[1:]
		if err := j.part.Receive(l); err != nil {
			return err
		}
	}
	return nil
}
