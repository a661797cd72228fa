package src

import (
	"context"
	"time"
)

// produce sends numbers on out until ctx is canceled or times out.
func produce(ctx context.Context, out chan<- int) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	for i := 0; ; i++ {
		select {
		case out <- i:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
