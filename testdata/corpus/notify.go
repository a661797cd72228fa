package corpus

// NotifyBug tells the listener about an event unless it is busy: a
// listener not yet waiting misses the event.
func NotifyBug(events chan<- string, e string) {
	select {
	case events <- e:
	default:
	}
}

// Notify waits for the listener.
func Notify(events chan<- string, e string) {
	events <- e
}
