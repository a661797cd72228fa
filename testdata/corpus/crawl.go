package corpus

import "sync"

// CrawlBug visits pages, each in a goroutine that counts itself in the
// WaitGroup as it starts: Wait may run before any Add (and return with
// pages still to visit), or an Add from zero may race with it.
func CrawlBug(pages []string, visit func(string)) {
	var wg sync.WaitGroup
	for _, p := range pages {
		go func() {
			wg.Add(1)
			defer wg.Done()
			visit(p)
		}()
	}
	wg.Wait() // want TestCrawlBug: WaitGroup misuse
}

// Crawl visits pages, each in a goroutine counted in the WaitGroup before
// it starts.
func Crawl(pages []string, visit func(string)) {
	var wg sync.WaitGroup
	for _, p := range pages {
		wg.Add(1)
		go func() {
			defer wg.Done()
			visit(p)
		}()
	}
	wg.Wait()
}
