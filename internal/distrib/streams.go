// This file implements the setup of a distributed exploration's streams
// and the embedded NATS server.

package distrib

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// DefaultAckWait is the ack deadline of a unit: a unit whose worker has
// neither acknowledged it nor reported progress (every third of it) for
// this long is delivered again.
const DefaultAckWait = 30 * time.Second

// Connect connects to the NATS server at url, as name.
func Connect(url, name string) (*nats.Conn, jetstream.JetStream, error) {
	nc, err := nats.Connect(url, nats.Name(name))
	if err != nil {
		return nil, nil, fmt.Errorf("connecting to NATS at %s: %w (is a server with JetStream running there? 'weft run -nats embedded' starts one)", url, err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, nil, fmt.Errorf("JetStream at %s: %w", url, err)
	}
	return nc, js, nil
}

// Setup creates (or updates) the streams of units, results, runs and
// letters and the workers' consumer, whose ack deadline is ackWait. The
// streams are stored in files, so that a run outlives its coordinator and
// the server: units are removed once a worker acknowledges them; results,
// the runs' journals (RunsStream) and letters stay until the run ends.
func Setup(ctx context.Context, js jetstream.JetStream, ackWait time.Duration) (jetstream.Consumer, error) {
	for _, s := range []jetstream.StreamConfig{
		{Name: UnitsStream, Subjects: []string{unitsPrefix + ">"}, Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage},
		{Name: ResultsStream, Subjects: []string{resultsPrefix + ">"}, Retention: jetstream.LimitsPolicy, Storage: jetstream.FileStorage},
		{Name: RunsStream, Subjects: []string{runsPrefix + ">"}, Retention: jetstream.LimitsPolicy, Storage: jetstream.FileStorage},
		{Name: LettersStream, Subjects: []string{lettersPrefix + ">"}, Retention: jetstream.LimitsPolicy, Storage: jetstream.FileStorage},
	} {
		if _, err := js.CreateOrUpdateStream(ctx, s); err != nil {
			return nil, fmt.Errorf("creating stream %s: %w (does the server have JetStream enabled? nats-server -js; a stream of that name made by an older weft, in memory or as a work queue, must be removed first: nats stream rm %s)", s.Name, err, s.Name)
		}
	}
	c, err := js.CreateOrUpdateConsumer(ctx, UnitsStream, jetstream.ConsumerConfig{
		Durable:       WorkersConsumer,
		FilterSubject: unitsPrefix + ">",
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       ackWait,
		MaxDeliver:    -1,
		MaxAckPending: 10_000,
	})
	if err != nil {
		return nil, fmt.Errorf("creating consumer %s: %w", WorkersConsumer, err)
	}
	return c, nil
}

// workersConsumer returns the workers' consumer, set up with the default
// ack deadline if no coordinator did it yet.
func workersConsumer(ctx context.Context, js jetstream.JetStream) (jetstream.Consumer, error) {
	c, err := js.Consumer(ctx, UnitsStream, WorkersConsumer)
	if errors.Is(err, jetstream.ErrStreamNotFound) || errors.Is(err, jetstream.ErrConsumerNotFound) {
		return Setup(ctx, js, DefaultAckWait)
	}
	if err != nil {
		return nil, fmt.Errorf("consumer %s: %w", WorkersConsumer, err)
	}
	return c, nil
}

// An Embedded is a NATS server with JetStream run inside the process, on
// loopback only, its streams in files under a directory.
type Embedded struct {
	s   *server.Server
	dir string
	tmp bool // dir is a temporary directory, removed by Close
}

// StartEmbedded starts an embedded server on a free loopback port, its
// streams stored under dir, made if need be and kept by Close, or, if
// dir is "", under a new temporary directory that Close removes. A
// server started again on the directory of one that stopped (or whose
// process died) finds its streams, and the runs on them, as they were.
func StartEmbedded(dir string) (*Embedded, error) {
	e := &Embedded{dir: dir}
	if dir == "" {
		d, err := os.MkdirTemp("", "weft-nats-")
		if err != nil {
			return nil, fmt.Errorf("embedded NATS server: %w", err)
		}
		e.dir, e.tmp = d, true
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("embedded NATS server: %w", err)
	}
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, JetStream: true, StoreDir: e.dir, NoSigs: true, NoLog: true})
	if err != nil {
		e.removeTemp()
		return nil, fmt.Errorf("embedded NATS server in %s: %w", e.dir, err)
	}
	s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		e.removeTemp()
		return nil, fmt.Errorf("embedded NATS server in %s: not ready for connections after 10s", e.dir)
	}
	e.s = s
	return e, nil
}

// URL returns the URL clients connect to.
func (e *Embedded) URL() string { return e.s.ClientURL() }

// Dir returns the directory of the server's storage.
func (e *Embedded) Dir() string { return e.dir }

// Close shuts the server down and removes its storage if it is
// temporary.
func (e *Embedded) Close() {
	e.s.Shutdown()
	e.s.WaitForShutdown()
	e.removeTemp()
}

func (e *Embedded) removeTemp() {
	if e.tmp {
		os.RemoveAll(e.dir)
	}
}
