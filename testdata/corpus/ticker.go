package corpus

// EmitBug sends n events, and returns when it has sent them: a consumer
// that stops early leaves it blocked.
func EmitBug(events chan<- int, n int) {
	for i := range n {
		events <- i // want TestEmitBug: leak
	}
	close(events)
}

// Emit stops sending when stop is closed.
func Emit(events chan<- int, stop <-chan struct{}, n int) {
	defer close(events)
	for i := range n {
		select {
		case events <- i:
		case <-stop:
			return
		}
	}
}
