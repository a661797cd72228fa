package corpus

import (
	"sync"
	"testing"
)

// jobQueue is the queue both versions implement.
type jobQueue interface {
	Put(job string)
	Take() string
}

func twoWorkers(t *testing.T, q jobQueue) {
	var wg sync.WaitGroup
	taken := make(chan string, 2)
	for range 2 {
		wg.Go(func() { taken <- q.Take() })
	}
	q.Put("a")
	q.Put("b")
	wg.Wait()
	if a, b := <-taken, <-taken; a+b != "ab" && a+b != "ba" {
		t.Errorf("took %q and %q", a, b)
	}
}

func TestJobQueueBug(t *testing.T) { twoWorkers(t, NewJobQueueBug()) }

func TestJobQueueFixed(t *testing.T) { twoWorkers(t, NewJobQueue()) }
