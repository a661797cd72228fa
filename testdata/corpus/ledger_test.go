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

// withdrawals runs each case of ledgerTests as a subtest: concurrent
// withdrawals from a balance of 10, made by newLedger.
func withdrawals(t *testing.T, newLedger func(start int) (withdraw func(int) error, balance func() int)) {
	for _, tc := range ledgerTests {
		t.Run(tc.name, func(t *testing.T) {
			withdraw, balance := newLedger(10)
			var wg sync.WaitGroup
			for _, n := range tc.amounts {
				wg.Go(func() { withdraw(n) })
			}
			wg.Wait()
			if b := balance(); b != tc.want {
				t.Errorf("balance %d, want %d", b, tc.want)
			}
		})
	}
}

func TestLedgerBug(t *testing.T) {
	withdrawals(t, func(balance int) (func(int) error, func() int) {
		l := &LedgerBug{balance: balance}
		return l.Withdraw, func() int { return l.balance }
	})
}

func TestLedgerFixed(t *testing.T) {
	withdrawals(t, func(balance int) (func(int) error, func() int) {
		l := &Ledger{balance: balance}
		return l.Withdraw, func() int { return l.balance }
	})
}
