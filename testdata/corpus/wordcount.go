package corpus

import (
	"strings"
	"sync"
)

// WordCountBug counts the words of the lines, a goroutine per line, all
// adding to one map without a lock.
func WordCountBug(lines []string) map[string]int {
	counts := map[string]int{}
	var wg sync.WaitGroup
	for _, line := range lines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, w := range strings.Fields(line) {
				counts[w]++ // want -race TestWordCountBug: data race
			}
		}()
	}
	wg.Wait()
	return counts
}

// WordCount counts under a mutex.
func WordCount(lines []string) map[string]int {
	counts := map[string]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, line := range lines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, w := range strings.Fields(line) {
				mu.Lock()
				counts[w]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return counts
}
