package corpus

import (
	"errors"
	"sync"
)

var errOverdraft = errors.New("overdraft")

// LedgerBug records withdrawals; on an overdraft it returns without
// unlocking, and the next caller waits for the lock for ever.
type LedgerBug struct {
	mu      sync.Mutex
	balance int
}

// Withdraw takes n from the balance.
func (l *LedgerBug) Withdraw(n int) error {
	l.mu.Lock() // want TestLedgerBug/overdraft_first: deadlock
	if n > l.balance {
		return errOverdraft
	}
	l.balance -= n
	l.mu.Unlock()
	return nil
}

// Ledger unlocks on every return.
type Ledger struct {
	mu      sync.Mutex
	balance int
}

// Withdraw takes n from the balance.
func (l *Ledger) Withdraw(n int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n > l.balance {
		return errOverdraft
	}
	l.balance -= n
	return nil
}
