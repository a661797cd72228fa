// This file tests the names of objects in weft test's reports: the
// expression the rewritten code applied an operation to.

package main

import (
	"strings"
	"testing"
)

// namesFiles is the module of TestTestNames.
var namesFiles = map[string]string{
	"go.mod": "module example.com/names\n\ngo 1.26.0\n",
	"p.go": `package names

import "sync"

type Pool struct {
	mu   sync.Mutex
	jobs chan int
	n    int
}

func (p *Pool) Add() {
	p.mu.Lock()
	p.n++
	p.mu.Unlock()
}

type Cache struct{ m sync.Map }

func (c *Cache) Fill(k string) bool {
	if _, ok := c.m.Load(k); ok {
		return false
	}
	c.m.Store(k, 1)
	return true
}
`,
	"p_test.go": `package names

import (
	"sync"
	"testing"
)

func TestNames(t *testing.T) {
	p := &Pool{jobs: make(chan int)}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		p.Add()
		<-stop
	}()
	go func() {
		defer wg.Done()
		p.mu.Lock()
		p.jobs <- 1
		p.mu.Unlock()
	}()
	wg.Wait()
}

func TestMap(t *testing.T) {
	var c Cache
	filled := make(chan bool)
	go func() { filled <- c.Fill("k") }()
	if c.Fill("k") && <-filled {
		t.Error("filled twice")
	}
}
`,
}

// TestTestNames checks that a report names channels, mutexes, wait groups
// and sync.Maps by the expression of their first operation in the
// execution (stop, p.jobs, p.mu, wg, sync.Map c.m), in the package's code
// and its tests, rather than by class and number (chan#2, mutex#1).
func TestTestNames(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with weft test")
	}
	t.Parallel()
	out, _ := batchModule(t, "names")
	for _, want := range []string{
		`            no thread can move:
            	T0 blocked on wg.wait wg
            	T1 blocked on recv stop
            	T2 blocked on send p.jobs
        interleaving:
             1  T0   wg.add(2) wg                      p_test.go:12
             2  T1   lock p.mu                         p.go:12
             3  T1   unlock p.mu                       p.go:14
             4  T2   lock p.mu                         p_test.go:20
        blocked:
                T0   wg.wait wg                        p_test.go:24
                T1   recv stop                         p_test.go:16
                T2   send p.jobs                       p_test.go:21
`,
		`             1  T0   load sync.Map c.m = 0             p.go:20
             2  T1   load sync.Map c.m = 0             p.go:20
             3  T1   add sync.Map c.m = 1              p.go:23
             4  T0   add sync.Map c.m = 2              p.go:23
             5  T0   recv filled = true `,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"chan#", "mutex#", "waitgroup#", "sync.Map#"} {
		if strings.Contains(out, bad) {
			t.Errorf("output names an object %s...:\n%s", bad, out)
		}
	}
}

// wordsFiles is the module of TestTestNamesWords.
var wordsFiles = map[string]string{
	"go.mod": "module example.com/words\n\ngo 1.26.0\n",
	"w.go": `package words

import (
	"sync"
	"sync/atomic"
)

type Counter struct {
	hits atomic.Int64
	m    sync.Map
}

// Hit is a check-then-act on an atomic: two hits may count once.
func (c *Counter) Hit() {
	v := c.hits.Load()
	c.hits.Store(v + 1)
}

var total int64

// Bump is Hit on a word given by address.
func Bump() {
	v := atomic.LoadInt64(&total)
	atomic.StoreInt64(&total, v+1)
}
`,
	"w_test.go": `package words

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestHits(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); c.Hit() }()
	go func() { defer wg.Done(); c.Hit() }()
	wg.Wait()
	if n := c.hits.Load(); n != 2 {
		t.Errorf("hits %d", n)
	}
}

func TestTotal(t *testing.T) {
	total = 0 // a package's variable keeps its value from one execution to the next
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); Bump() }()
	go func() { defer wg.Done(); Bump() }()
	wg.Wait()
	if n := atomic.LoadInt64(&total); n != 2 {
		t.Errorf("total %d", n)
	}
}

func TestFlag(t *testing.T) {
	var ready atomic.Bool
	go ready.Store(true)
	if !ready.Load() {
		t.Error("not ready")
	}
}

func TestMapValue(t *testing.T) {
	var c Counter
	store := c.m.Store
	done := make(chan bool)
	go func() { store(1, 2); done <- true }()
	if v, ok := c.m.Load(1); ok {
		t.Errorf("found %v", v)
	}
	<-done
}
`,
}

// TestTestNamesWords checks that a report names the words accessed
// atomically by their expressions (a typed atomic field c.hits, a word
// given by address &total, a local atomic.Bool), and a sync.Map whose
// first operation is through a method value, rather than var#1 and
// sync.Map#1.
func TestTestNamesWords(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with weft test")
	}
	t.Parallel()
	out, _ := batchModule(t, "words")
	for _, want := range []string{
		"  T1   load c.hits = 0                   w.go:15\n",
		"  T1   store c.hits = 1                  w.go:16\n",
		"  T0   load c.hits = 1                   w_test.go:16\n",
		"  T1   load total = 0                    w.go:23\n",
		"  T2   store total = 1                   w.go:24\n",
		"  T0   load total = 1                    w_test.go:28\n",
		"  T0   load ready = 0                    w_test.go:36\n",
		"  T1   add sync.Map c.m = 1              w_test.go:45\n",
		"  T0   load sync.Map c.m = 1             w_test.go:46\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"var#", "sync.Map#"} {
		if strings.Contains(out, bad) {
			t.Errorf("output names an object %s...:\n%s", bad, out)
		}
	}
}
