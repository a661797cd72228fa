package corpus

import "sync"

// SquaresBug runs a worker per input; each worker adds itself to the
// WaitGroup, too late: Wait may return before a worker has started.
func SquaresBug(in []int) []int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var out []int
	for _, x := range in {
		go func() {
			wg.Add(1)
			defer wg.Done()
			mu.Lock()
			out = append(out, x*x)
			mu.Unlock()
		}()
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	return out
}

// Squares adds each worker before starting it.
func Squares(in []int) []int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var out []int
	for _, x := range in {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			out = append(out, x*x)
			mu.Unlock()
		}()
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	return out
}
