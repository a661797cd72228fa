package corpus

import (
	"sync"
	"testing"
)

func TestOfferBug(t *testing.T) {
	slot := make(chan int, 1)
	var wg sync.WaitGroup
	wg.Go(func() { OfferBug(slot, 1) })
	wg.Go(func() { OfferBug(slot, 2) })
	wg.Wait()
}

func TestOfferFixed(t *testing.T) {
	slot := make(chan int, 1)
	var wg sync.WaitGroup
	wg.Go(func() { Offer(slot, 1) })
	wg.Go(func() { Offer(slot, 2) })
	wg.Wait()
	if len(slot) != 1 {
		t.Errorf("%d values in the slot, want 1", len(slot))
	}
}
