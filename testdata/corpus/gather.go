package corpus

import "time"

// GatherBug collects a worker's reading, or none after timeout; on a
// timeout it closes the channel to tell the worker to stop, but the worker
// never looks: if the timeout fires before the worker sends, its send
// panics.
func GatherBug(timeout time.Duration) []int {
	readings := make(chan int, 1)
	go func() {
		readings <- compute() // want -time any TestGatherBug: send on closed channel
	}()
	select {
	case r := <-readings:
		return []int{r}
	case <-time.After(timeout):
		close(readings)
		return nil
	}
}

// Gather leaves the channel open: the worker's send goes to the buffer,
// and the channel is collected with it.
func Gather(timeout time.Duration) []int {
	readings := make(chan int, 1)
	go func() {
		readings <- compute()
	}()
	select {
	case r := <-readings:
		return []int{r}
	case <-time.After(timeout):
		return nil
	}
}
