//go:build go1.21

// This file is of Go version 1.21 (its build constraint says so): a range
// over a channel has one variable for all its iterations.

package corpus

import "sync"

// GreetBug greets each name received on names from a goroutine of its
// own, which reads the loop variable once it holds the lock: a goroutine
// that gets the lock after the loop received the next name greets that
// one.
func GreetBug(names <-chan string) []string {
	var (
		mu  sync.Mutex
		wg  sync.WaitGroup
		out []string
	)
	for name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			out = append(out, "hello "+name)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return out
}

// Greet passes each goroutine its name.
func Greet(names <-chan string) []string {
	var (
		mu  sync.Mutex
		wg  sync.WaitGroup
		out []string
	)
	for name := range names {
		wg.Add(1)
		go func(name string) {
			defer wg.Done()
			mu.Lock()
			out = append(out, "hello "+name)
			mu.Unlock()
		}(name)
	}
	wg.Wait()
	return out
}
