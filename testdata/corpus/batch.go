package corpus

import (
	"errors"
	"sync"
)

// ProcessBug processes items in goroutines; an invalid item's goroutine
// calls Done twice, once in its error path and once deferred.
func ProcessBug(items []int) error {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var err error
	for _, it := range items {
		wg.Add(1)
		go func() {
			defer wg.Done() // want TestProcessBug: negative WaitGroup counter
			if it < 0 {
				mu.Lock()
				err = errors.New("negative item")
				mu.Unlock()
				wg.Done()
				return
			}
		}()
	}
	wg.Wait()
	return err
}

// Process calls Done once per goroutine.
func Process(items []int) error {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var err error
	for _, it := range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if it < 0 {
				mu.Lock()
				err = errors.New("negative item")
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return err
}
