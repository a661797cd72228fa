package corpus

import (
	"sync/atomic"
	"testing"
)

// crawls visits two pages, counting the visits. It checks nothing: the
// misuse of the WaitGroup is the failure.
func crawls(crawl func([]string, func(string))) {
	var visits atomic.Int32
	crawl([]string{"a", "b"}, func(string) { visits.Add(1) })
}

func TestCrawlBug(t *testing.T) { crawls(CrawlBug) }

func TestCrawlFixed(t *testing.T) { crawls(Crawl) }
