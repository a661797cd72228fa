//go:build go1.21

// This file is of Go version 1.21 (its build constraint says so): a for
// loop has one variable for all its iterations.

package corpus

import "sync"

// SumSquaresBug adds the squares of xs, each computed by a goroutine of
// its own that reads the loop variable x once it holds the lock: a
// goroutine that gets the lock after the loop moved on squares a later
// element.
func SumSquaresBug(xs []int) int {
	var (
		mu    sync.Mutex
		wg    sync.WaitGroup
		total int
	)
	for _, x := range xs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			total += x * x
			mu.Unlock()
		}()
	}
	wg.Wait()
	return total
}

// SumSquares passes each goroutine its element.
func SumSquares(xs []int) int {
	var (
		mu    sync.Mutex
		wg    sync.WaitGroup
		total int
	)
	for _, x := range xs {
		wg.Add(1)
		go func(x int) {
			defer wg.Done()
			mu.Lock()
			total += x * x
			mu.Unlock()
		}(x)
	}
	wg.Wait()
	return total
}
