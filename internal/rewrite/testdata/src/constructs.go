// Package src holds the constructs that the rewriting rewrites, for its
// golden tests.
package src

import (
	"fmt"
	"sync"
	"sync/atomic"
)

type server struct {
	mu    sync.Mutex
	hits  atomic.Int64
	calls int32
	reqs  chan string
	quit  chan struct{}
	out   chan<- int
	in    <-chan int
	names []string
}

func (s *server) handle(name string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.names = append(s.names, name)
	s.hits.Add(int64(n))         // the result discarded: AddOnly
	atomic.AddInt32(&s.calls, 1) // AddOnlyInt32
	if s.hits.Add(0) < 0 {       // the result used: Add
		atomic.AddInt32(&s.calls, -1)
	}
}

func worker(id int, jobs <-chan int, results chan<- int, wg *sync.WaitGroup) {
	defer wg.Done()
	for j := range jobs {
		results <- j * id
	}
}

func sum(xs ...int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

func run(s *server) int {
	jobs := make(chan int, 3)
	results := make(chan int, 3)
	var wg sync.WaitGroup
	for i := 1; i <= 2; i++ {
		wg.Add(1)
		go worker(i, jobs, results, &wg)
	}
	go s.handle("a", 1)
	go sum(1, 2, 3)
	go sum([]int{1,
		2}...)
	go func(n int) {
		s.handle(fmt.Sprint(n), n)
	}(len(jobs))
	go func() {
		jobs <- 1
		jobs <- <-s.in
		close(jobs)
	}()
	go close(s.quit)
	go fmt.Println("x", nil)
	wg.Wait()
	v, ok := <-results
	var w, ok2 = <-results
	_, _ = w, ok2
	if !ok {
		return len(results) + cap(results)
	}
	select {
	case r := <-results:
		v += r
	case s.out <- v:
	case <-s.quit:
		return 0
	}
loop:
	for {
		select {
		case x, ok := <-s.in:
			if !ok {
				break loop
			}
			v += x
		case s.reqs <- "ping":
			break
		default:
			break loop
		}
	}
	select {}
}
