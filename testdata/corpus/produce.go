package corpus

import "context"

// ProduceBug sends numbers on out until ctx is canceled, but looks at ctx
// only between sends: once the consumer has canceled and stopped reading,
// it blocks on its send for ever.
func ProduceBug(ctx context.Context, out chan<- int) {
	for i := 0; ; i++ {
		if ctx.Err() != nil {
			return
		}
		out <- i // want TestProduceBug: leak
	}
}

// Produce waits for the send or the cancellation, whichever comes first.
func Produce(ctx context.Context, out chan<- int) {
	for i := 0; ; i++ {
		select {
		case out <- i:
		case <-ctx.Done():
			return
		}
	}
}
