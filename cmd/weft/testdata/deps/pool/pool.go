// Package pool runs jobs on one worker goroutine and hands back their
// results in order: a dependency of example.com/app, reached through a
// replace directive, whose Pool deadlocks under one interleaving.
package pool

import "sync"

// Pool runs jobs on one worker goroutine. Submit holds the lock while it
// hands the job over: if the worker, done with the previous job, needs the
// lock to count it while a second Submit waits for it with the lock held,
// neither moves.
type Pool struct {
	mu      sync.Mutex
	jobs    chan func() int
	results chan int
	n, done int
}

// New starts a Pool's worker.
func New() *Pool {
	p := &Pool{jobs: make(chan func() int), results: make(chan int)}
	go p.worker()
	return p
}

func (p *Pool) worker() {
	for job := range p.jobs {
		r := job()
		p.mu.Lock() // want TestPoolBug: deadlock
		p.done++
		p.mu.Unlock()
		p.results <- r
	}
}

// Submit hands job to the worker.
func (p *Pool) Submit(job func() int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	p.jobs <- job // want TestPoolBug: deadlock
}

// Results returns the channel of the jobs' results.
func (p *Pool) Results() <-chan int { return p.results }

// Close stops the worker once it has run the jobs submitted.
func (p *Pool) Close() { close(p.jobs) }
