package corpus

import (
	"sync"
	"testing"
)

var ledgerTests = []struct {
	name    string
	amounts []int
	want    int // the balance left of 10
}{
	{"fits", []int{3, 4}, 3},
	{"overdraft first", []int{20, 4}, 6},
}

func TestLedgerBug(t *testing.T) {
	for _, tc := range ledgerTests {
		t.Run(tc.name, func(t *testing.T) {
			l := &LedgerBug{balance: 10}
			var wg sync.WaitGroup
			for _, n := range tc.amounts {
				wg.Go(func() { l.Withdraw(n) })
			}
			wg.Wait()
			if l.balance != tc.want {
				t.Errorf("balance %d, want %d", l.balance, tc.want)
			}
		})
	}
}

func TestLedgerFixed(t *testing.T) {
	for _, tc := range ledgerTests {
		t.Run(tc.name, func(t *testing.T) {
			l := &Ledger{balance: 10}
			var wg sync.WaitGroup
			for _, n := range tc.amounts {
				wg.Go(func() { l.Withdraw(n) })
			}
			wg.Wait()
			if l.balance != tc.want {
				t.Errorf("balance %d, want %d", l.balance, tc.want)
			}
		})
	}
}
