package corpus

import "context"

// WatchBug returns a channel that is closed when the work is done or ctx
// is canceled, whichever comes first: closed twice when both happen.
func WatchBug(ctx context.Context, work func()) <-chan struct{} {
	done := make(chan struct{})
	context.AfterFunc(ctx, func() { close(done) }) // want TestWatchBug: close of closed channel
	go func() {
		work()
		close(done)
	}()
	return done
}

// Watch closes the channel after the work only if it kept the
// cancellation's function from running.
func Watch(ctx context.Context, work func()) <-chan struct{} {
	done := make(chan struct{})
	stop := context.AfterFunc(ctx, func() { close(done) })
	go func() {
		work()
		if stop() {
			close(done)
		}
	}()
	return done
}
