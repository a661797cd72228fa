package corpus

import "errors"

var errBadJob = errors.New("bad job")

// RunLimitedBug runs the jobs at most two at a time, with a channel as
// semaphore; a bad job returns before it releases its slot, and once both
// slots are lost the next job waits for ever.
func RunLimitedBug(jobs []string, run func(string) error) {
	sem := make(chan struct{}, 2)
	done := make(chan struct{})
	for _, j := range jobs {
		go func() {
			defer func() { done <- struct{}{} }()
			sem <- struct{}{} // want TestRunLimitedBug: deadlock
			if j == "" {
				return
			}
			run(j)
			<-sem
		}()
	}
	for range jobs {
		<-done
	}
}

// RunLimited releases the slot on every return.
func RunLimited(jobs []string, run func(string) error) {
	sem := make(chan struct{}, 2)
	done := make(chan struct{})
	for _, j := range jobs {
		go func() {
			defer func() { done <- struct{}{} }()
			sem <- struct{}{}
			defer func() { <-sem }()
			if j == "" {
				return
			}
			run(j)
		}()
	}
	for range jobs {
		<-done
	}
}
