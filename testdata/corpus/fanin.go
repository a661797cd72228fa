package corpus

import "sync"

// CollectBug starts a worker per input, waits for them all, and only then
// reads their results: the workers block on the unbuffered channel.
func CollectBug(in []int) int {
	results := make(chan int)
	var wg sync.WaitGroup
	for _, x := range in {
		wg.Go(func() { results <- x + 1 })
	}
	wg.Wait() // want TestCollectBug: deadlock
	close(results)
	total := 0
	for r := range results {
		total += r
	}
	return total
}

// Collect waits for the workers in a goroutine that closes the channel.
func Collect(in []int) int {
	results := make(chan int)
	var wg sync.WaitGroup
	for _, x := range in {
		wg.Go(func() { results <- x + 1 })
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	total := 0
	for r := range results {
		total += r
	}
	return total
}
