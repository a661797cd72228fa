package corpus

import "context"

// StartSessionBug starts a session whose cleanup runs when its context is
// canceled, and drops the cancel function: nothing ever cancels the
// context, and the cleanup goroutine waits for ever.
func StartSessionBug(parent context.Context, cleanup func()) {
	ctx, _ := context.WithCancel(parent) // the cancel function is dropped
	go func() {
		<-ctx.Done() // want TestSessionBug: leak
		cleanup()
	}()
}

// StartSession returns the cancel function, which ends the session.
func StartSession(parent context.Context, cleanup func()) (end func()) {
	ctx, cancel := context.WithCancel(parent)
	go func() {
		<-ctx.Done()
		cleanup()
	}()
	return cancel
}
