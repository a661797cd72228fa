// This file implements Fixed: Pool without its deadlock.

package pool

import "sync"

// Fixed is Pool whose Submit releases the lock before it hands the job
// over.
type Fixed struct {
	mu      sync.Mutex
	jobs    chan func() int
	results chan int
	n, done int
}

// NewFixed starts a Fixed's worker.
func NewFixed() *Fixed {
	p := &Fixed{jobs: make(chan func() int), results: make(chan int)}
	go p.worker()
	return p
}

func (p *Fixed) worker() {
	for job := range p.jobs {
		r := job()
		p.mu.Lock()
		p.done++
		p.mu.Unlock()
		p.results <- r
	}
}

// Submit hands job to the worker.
func (p *Fixed) Submit(job func() int) {
	p.mu.Lock()
	p.n++
	p.mu.Unlock()
	p.jobs <- job
}

// Results returns the channel of the jobs' results.
func (p *Fixed) Results() <-chan int { return p.results }

// Close stops the worker once it has run the jobs submitted.
func (p *Fixed) Close() { close(p.jobs) }
