// Package bench holds the programs of weft test's benchmark
// (BenchmarkTest in cmd/weft): a small test and a channel pipeline,
// written as ordinary Go, in a module that does not require weft.
package bench

import "sync"

// Count adds 1 to a counter from two goroutines, under a mutex.
func Count() int {
	var mu sync.Mutex
	var wg sync.WaitGroup
	n := 0
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			n++
			mu.Unlock()
		}()
	}
	wg.Wait()
	return n
}

// Pipeline passes 1..n through a pipeline of 4 goroutines joined by
// unbuffered channels (generate, square, add one, sum) and returns the sum.
func Pipeline(n int) int {
	nums := make(chan int)
	squares := make(chan int)
	plus := make(chan int)
	sum := make(chan int)
	go func() {
		for i := 1; i <= n; i++ {
			nums <- i
		}
		close(nums)
	}()
	go func() {
		for v := range nums {
			squares <- v * v
		}
		close(squares)
	}()
	go func() {
		for v := range squares {
			plus <- v + 1
		}
		close(plus)
	}()
	go func() {
		s := 0
		for v := range plus {
			s += v
		}
		sum <- s
	}()
	return <-sum
}
