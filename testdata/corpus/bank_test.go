package corpus

import (
	"sync"
	"testing"
)

func transfers(t *testing.T, transfer func(from, to *Account, amount int)) {
	a, b := &Account{ID: 1, Balance: 100}, &Account{ID: 2, Balance: 100}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		transfer(a, b, 10)
	}()
	go func() {
		defer wg.Done()
		transfer(b, a, 20)
	}()
	wg.Wait()
	if a.Balance+b.Balance != 200 {
		t.Errorf("total %d, want 200", a.Balance+b.Balance)
	}
}

func TestTransferBug(t *testing.T) { transfers(t, TransferBug) }

func TestTransferFixed(t *testing.T) { transfers(t, Transfer) }
