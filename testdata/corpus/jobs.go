package corpus

import "sync"

// JobQueueBug hands jobs to workers; a worker that finds the queue empty
// waits once, with if rather than for: a job taken by another worker
// between the signal and the wake-up leaves it with an empty queue.
type JobQueueBug struct {
	mu   sync.Mutex
	cond *sync.Cond
	jobs []string
}

// NewJobQueueBug returns an empty queue.
func NewJobQueueBug() *JobQueueBug {
	q := &JobQueueBug{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// Put adds a job and wakes a worker.
func (q *JobQueueBug) Put(job string) {
	q.mu.Lock()
	q.jobs = append(q.jobs, job)
	q.mu.Unlock()
	q.cond.Signal()
}

// Take waits for a job and takes it.
func (q *JobQueueBug) Take() string {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.jobs) == 0 {
		q.cond.Wait()
	}
	job := q.jobs[0] // want TestJobQueueBug: panic
	q.jobs = q.jobs[1:]
	return job
}

// JobQueue waits until the queue holds a job, however often it wakes.
type JobQueue struct {
	mu   sync.Mutex
	cond *sync.Cond
	jobs []string
}

// NewJobQueue returns an empty queue.
func NewJobQueue() *JobQueue {
	q := &JobQueue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// Put adds a job and wakes a worker.
func (q *JobQueue) Put(job string) {
	q.mu.Lock()
	q.jobs = append(q.jobs, job)
	q.mu.Unlock()
	q.cond.Signal()
}

// Take waits for a job and takes it.
func (q *JobQueue) Take() string {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.jobs) == 0 {
		q.cond.Wait()
	}
	job := q.jobs[0]
	q.jobs = q.jobs[1:]
	return job
}
