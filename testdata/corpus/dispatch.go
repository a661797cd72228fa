package corpus

// A Job is the work of a worker.
type Job struct {
	ID    int
	Shard int
}

// shard picks the worker of job id among n.
func shard(id, n int) int { return id % n }

// DispatchBug hands each job to the worker its number picks, unless stop
// is closed, and drops the job if that worker is busy: a worker that has
// not reached its receive yet loses its job.
func DispatchBug(workers []chan Job, ids []int, stop <-chan struct{}) (sent int) {
	for _, id := range ids {
		select {
		case workers[shard(
			id, len(workers))] <- Job{
			ID:    id,
			Shard: shard(id, len(workers)),
		}:
			sent++
		case <-stop:
			return sent
		default: // the worker is busy
		}
	}
	return sent
}

// Dispatch waits for the worker, or for stop.
func Dispatch(workers []chan Job, ids []int, stop <-chan struct{}) (sent int) {
	for _, id := range ids {
		select {
		case workers[shard(
			id, len(workers))] <- Job{
			ID:    id,
			Shard: shard(id, len(workers)),
		}:
			sent++
		case <-stop:
			return sent
		}
	}
	return sent
}
