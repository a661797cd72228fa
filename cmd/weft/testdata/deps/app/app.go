// Package app sums the squares of numbers on a pool such as those of
// example.com/pool, a dependency that weft test rewrites as it rewrites
// the app.
package app

// submitter is what SumSquares needs of a pool.
type submitter interface {
	Submit(job func() int)
	Results() <-chan int
	Close()
}

// SumSquares submits each number's square, each from a goroutine of its
// own, and sums the results.
func SumSquares(p submitter, xs ...int) int {
	for _, x := range xs {
		go p.Submit(func() int { return x * x })
	}
	sum := 0
	for range xs {
		sum += <-p.Results() // want TestPoolBug: deadlock
	}
	p.Close()
	return sum
}
