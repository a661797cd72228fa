package corpus

import "time"

// HeartbeatBug calls beat every period until the returned function is
// called, which stops the ticker but not the goroutine: it waits for a
// tick for ever.
func HeartbeatBug(period time.Duration, beat func()) (stop func()) {
	ticker := time.NewTicker(period)
	go func() {
		for range ticker.C { // want TestHeartbeatBug: leak
			beat()
		}
	}()
	return ticker.Stop
}

// Heartbeat's stop also ends the goroutine, and waits for it.
func Heartbeat(period time.Duration, beat func()) (stop func()) {
	ticker := time.NewTicker(period)
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		for {
			select {
			case <-ticker.C:
				beat()
			case <-done:
				return
			}
		}
	}()
	return func() {
		ticker.Stop()
		close(done)
		<-finished
	}
}
