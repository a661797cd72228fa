package src

import "time"

// poll waits for a result, giving up after d, and counts ticks meanwhile.
func poll(result <-chan int, d time.Duration) (int, bool) {
	tk := time.NewTicker(d / 10)
	defer tk.Stop()
	deadline := time.Now().Add(d)
	for {
		select {
		case v := <-result:
			return v, true
		case <-tk.C:
			if time.Until(deadline) <= 0 {
				return 0, false
			}
		case <-time.After(d):
			return 0, false
		}
	}
}
