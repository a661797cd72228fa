package corpus

// DispatchBug hands each job to the worker its number picks, unless stop
// is closed, and drops the job if that worker is busy: a worker that has
// not reached its receive yet loses its job.
func DispatchBug(workers []chan int, jobs []int, stop <-chan struct{}) (sent int) {
	for _, j := range jobs {
		select {
		case workers[
			j%len(workers)] <- j:
			sent++
		case <-stop:
			return sent
		default: // the worker is busy
		}
	}
	return sent
}

// Dispatch waits for the worker, or for stop.
func Dispatch(workers []chan int, jobs []int, stop <-chan struct{}) (sent int) {
	for _, j := range jobs {
		select {
		case workers[
			j%len(workers)] <- j:
			sent++
		case <-stop:
			return sent
		}
	}
	return sent
}
