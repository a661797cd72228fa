package corpus

import "sync"

// SquareAllBug squares xs in goroutines that report on results; each
// marks itself done before it sends, so the closer, which closes results
// once all are done, may close it before a send.
func SquareAllBug(xs []int) []int {
	results := make(chan int, len(xs))
	var wg sync.WaitGroup
	for _, x := range xs {
		wg.Add(1)
		go func() {
			wg.Done()
			results <- x * x // want TestSquareAllBug: send on closed channel
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	var out []int
	for r := range results {
		out = append(out, r)
	}
	return out
}

// SquareAll marks each goroutine done after its send.
func SquareAll(xs []int) []int {
	results := make(chan int, len(xs))
	var wg sync.WaitGroup
	for _, x := range xs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results <- x * x
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	var out []int
	for r := range results {
		out = append(out, r)
	}
	return out
}
