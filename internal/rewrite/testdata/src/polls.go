package src

import (
	"context"
	"sync/atomic"
)

// poller has a channel closed when its work is done and a word its
// goroutine stores last.
type poller struct {
	done    chan struct{}
	stopped int32
	plain   int
}

func (p *poller) isStopped() bool { return atomic.LoadInt32(&p.stopped) == 1 }

func (p *poller) bump() bool { p.plain++; return true }

// The first three polling loops have their turns marked, the others not.

func pollSelect(ctx context.Context, p *poller, in chan int) (int, error) {
	for {
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-p.done:
			<-p.done
			if p.isStopped() && len(in) == 0 {
				return 0, nil
			}
		}
	}
}

func pollRecv(in chan int) int {
	for {
		if v, ok := <-in; ok && v > 0 {
			return v
		}
	}
}

func pollDefault(in chan int) int {
	for {
		select {
		case v := <-in:
			n := v * 2
			if n > 4 {
				break
			}
			return n
		default:
		}
	}
}

func pollSum(p *poller, in chan int) int {
	total := 0
	for { // assigns a variable of the function's
		select {
		case v := <-in:
			total += v
		case <-p.done:
			return total
		}
	}
}

func pollBump(p *poller) {
	for { // calls a function that writes
		select {
		case <-p.done:
			if p.bump() {
				continue
			}
		}
	}
}

func pollWord(p *poller) {
	for { // no channel
		if p.isStopped() {
			return
		}
	}
}
