package corpus

import (
	"context"
	"sync"
)

// spansKey is the key of a request's channel of spans in its context.
type spansKey struct{}

// WithSpans returns ctx carrying the channel on which a request's steps
// record their spans.
func WithSpans(ctx context.Context, spans chan<- string) context.Context {
	return context.WithValue(ctx, spansKey{}, spans)
}

// record records span on the channel that ctx carries, if any.
func record(ctx context.Context, span string) {
	if spans, ok := ctx.Value(spansKey{}).(chan<- string); ok {
		spans <- span // want TestTracedBug: deadlock
	}
}

// TracedBug runs each step in a goroutine that records its span, waits
// for the steps and then reads their spans: on an unbuffered channel,
// every step blocks on its record and the wait never ends.
func TracedBug(steps []string) []string {
	return traced(steps, make(chan string))
}

// Traced gives the channel room for every step's span.
func Traced(steps []string) []string {
	return traced(steps, make(chan string, len(steps)))
}

func traced(steps []string, spans chan string) []string {
	ctx := WithSpans(context.Background(), spans)
	var wg sync.WaitGroup
	for _, s := range steps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			record(ctx, s)
		}()
	}
	wg.Wait()
	close(spans)
	var out []string
	for s := range spans {
		out = append(out, s)
	}
	return out
}
