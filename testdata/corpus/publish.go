package corpus

import (
	"runtime"
	"sync/atomic"
)

// BoardBug publishes a message: it raises the ready flag before it writes
// the message, so a reader that sees the flag may read no message.
type BoardBug struct {
	ready atomic.Bool
	msg   atomic.Pointer[string]
}

// Post publishes msg.
func (b *BoardBug) Post(msg string) {
	b.ready.Store(true)
	b.msg.Store(&msg)
}

// Read waits, yielding, for a message and returns it.
func (b *BoardBug) Read() *string {
	for !b.ready.Load() {
		runtime.Gosched()
	}
	return b.msg.Load()
}

// Board writes the message before it raises the flag.
type Board struct {
	ready atomic.Bool
	msg   atomic.Pointer[string]
}

// Post publishes msg.
func (b *Board) Post(msg string) {
	b.msg.Store(&msg)
	b.ready.Store(true)
}

// Read waits, yielding, for a message and returns it.
func (b *Board) Read() *string {
	for !b.ready.Load() {
		runtime.Gosched()
	}
	return b.msg.Load()
}
