// This file implements the guard against two coordinators of one run: a
// coordinator answers on its run's alive subject (core NATS, no stream),
// and a resume asks there first.

package distrib

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/nats-io/nats.go"
)

// ErrRunAlive is wrapped by the error of a resume of a run whose
// coordinator is alive: two coordinators of one run would each publish its
// units and take its results.
var ErrRunAlive = errors.New("the run's coordinator is alive")

// aliveSubject is where run's coordinator answers.
func aliveSubject(run string) string { return "weft.alive." + run }

// askAlive is how long a resume waits for a live coordinator's answer.
const askAlive = time.Second

// refuseAlive returns an error wrapping ErrRunAlive if run's coordinator
// answers on its alive subject.
func (c *coordinator) refuseAlive(run string) error {
	m, err := c.js.Conn().Request(aliveSubject(run), nil, askAlive)
	if errors.Is(err, nats.ErrNoResponders) || errors.Is(err, nats.ErrTimeout) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("asking whether run %s's coordinator is alive: %w", run, err)
	}
	return fmt.Errorf("%w: run %s is coordinated by %s; resume a run only once its coordinator died (or stop it first: Ctrl-C ends a run, it cannot be resumed then)", ErrRunAlive, run, m.Data)
}

// answerAlive has the coordinator answer on its run's alive subject until
// the returned function is called.
func (c *coordinator) answerAlive() (stop func(), err error) {
	host, _ := os.Hostname()
	me := []byte(fmt.Sprintf("process %d on %s", os.Getpid(), host))
	sub, err := c.js.Conn().Subscribe(aliveSubject(c.o.Run), func(m *nats.Msg) { m.Respond(me) })
	if err != nil {
		return nil, fmt.Errorf("answering on %s: %w", aliveSubject(c.o.Run), err)
	}
	return func() { sub.Unsubscribe() }, nil
}
