package corpus

import (
	"errors"
	"time"
)

var errTimeout = errors.New("timed out")

// slowLookup answers after a second.
func slowLookup(key string) string {
	time.Sleep(time.Second)
	return "value of " + key
}

// LookupBug gives up after timeout: the lookup that answers later blocks
// for ever on its send.
func LookupBug(key string, timeout time.Duration) (string, error) {
	result := make(chan string)
	go func() {
		result <- slowLookup(key) // want TestLookupBug: leak
	}()
	select {
	case v := <-result:
		return v, nil
	case <-time.After(timeout):
		return "", errTimeout
	}
}

// Lookup gives the result channel room for the answer nobody waits for.
func Lookup(key string, timeout time.Duration) (string, error) {
	result := make(chan string, 1)
	go func() {
		result <- slowLookup(key)
	}()
	select {
	case v := <-result:
		return v, nil
	case <-time.After(timeout):
		return "", errTimeout
	}
}
