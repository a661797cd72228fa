package corpus

import "sync"

// CollectAllBug runs fetch for every key in goroutines and collects the
// results; each goroutine adds itself to the wait group once it runs, so
// Wait may return before any has.
func CollectAllBug(keys []string, fetch func(string) string) []string {
	var (
		mu      sync.Mutex
		wg      sync.WaitGroup
		results []string
	)
	for _, k := range keys {
		go func() {
			wg.Add(1)
			defer wg.Done()
			v := fetch(k)
			mu.Lock()
			results = append(results, v)
			mu.Unlock()
		}()
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	return results
}

// CollectAll counts each goroutine before it starts (WaitGroup.Go).
func CollectAll(keys []string, fetch func(string) string) []string {
	var (
		mu      sync.Mutex
		wg      sync.WaitGroup
		results []string
	)
	for _, k := range keys {
		wg.Go(func() {
			v := fetch(k)
			mu.Lock()
			results = append(results, v)
			mu.Unlock()
		})
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	return results
}
