package corpus

import "sync"

// Account is a bank account.
type Account struct {
	ID      int
	mu      sync.Mutex
	Balance int
}

// TransferBug moves amount from one account to the other, locking them in
// argument order: two opposite transfers deadlock.
func TransferBug(from, to *Account, amount int) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock() // want TestTransferBug: deadlock
	defer to.mu.Unlock()
	from.Balance -= amount
	to.Balance += amount
}

// Transfer locks the account with the smaller ID first.
func Transfer(from, to *Account, amount int) {
	first, second := from, to
	if second.ID < first.ID {
		first, second = second, first
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	from.Balance -= amount
	to.Balance += amount
}
