package corpus

import (
	"math/rand"
	"sync"
)

// LockPairBug locks a and b in a random order, to spread the contention
// between them: two callers that draw opposite orders deadlock.
func LockPairBug(a, b *sync.Mutex, f func()) {
	first, second := a, b
	if rand.Int()%2 == 0 {
		first, second = b, a
	}
	first.Lock()
	defer first.Unlock()
	second.Lock() // want TestLockPairBug: deadlock
	defer second.Unlock()
	f()
}

// LockPair always locks a first.
func LockPair(a, b *sync.Mutex, f func()) {
	a.Lock()
	defer a.Unlock()
	b.Lock()
	defer b.Unlock()
	f()
}
