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

// Setup creates (or updates) the streams of units and results and the
// workers' consumer, whose ack deadline is ackWait.
func Setup(ctx context.Context, js jetstream.JetStream, ackWait time.Duration) (jetstream.Consumer, error) {
	for _, s := range []jetstream.StreamConfig{
		{Name: UnitsStream, Subjects: []string{unitsPrefix + ">"}, Retention: jetstream.WorkQueuePolicy, Storage: jetstream.MemoryStorage},
		{Name: ResultsStream, Subjects: []string{resultsPrefix + ">"}, Retention: jetstream.WorkQueuePolicy, Storage: jetstream.MemoryStorage},
	} {
		if _, err := js.CreateOrUpdateStream(ctx, s); err != nil {
			return nil, fmt.Errorf("creating stream %s: %w (does the server have JetStream enabled? nats-server -js)", s.Name, err)
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
// loopback only, its streams in memory.
type Embedded struct {
	s   *server.Server
	dir string
}

// StartEmbedded starts an embedded server on a free loopback port.
func StartEmbedded() (*Embedded, error) {
	dir, err := os.MkdirTemp("", "weft-nats-")
	if err != nil {
		return nil, fmt.Errorf("embedded NATS server: %w", err)
	}
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, JetStream: true, StoreDir: dir, NoSigs: true, NoLog: true})
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("embedded NATS server: %w", err)
	}
	s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		os.RemoveAll(dir)
		return nil, errors.New("embedded NATS server: not ready for connections after 10s")
	}
	return &Embedded{s: s, dir: dir}, nil
}

// URL returns the URL clients connect to.
func (e *Embedded) URL() string { return e.s.ClientURL() }

// Close shuts the server down and removes its storage.
func (e *Embedded) Close() {
	e.s.Shutdown()
	e.s.WaitForShutdown()
	os.RemoveAll(e.dir)
}
