// This file implements syncqueue, a synchronous queue in the design of the
// Java Collections Framework's SynchronousQueue of Java 5 (Saarikivi et
// al. 2012, Fig. 8, Synchronous Queue).

package programs

import (
	"github.com/weft-go/weft"
)

func init() {
	register(&Program{
		Name:   "syncqueue",
		Doc:    "a synchronous queue as Java 5's SynchronousQueue: a queue lock guards a queue of waiting producers and one of waiting consumers; a put hands its item to a waiting consumer's node or waits in a node of its own (a lock, a status and a condition per node), and a take mirrors it",
		Source: "Saarikivi et al. 2012, Fig. 8 (Synchronous Queue, the container of the Java Collections Framework); sizes ours, the paper gives none",
		Params: []Param{
			{Name: "producers", Default: 2, Min: 1, Max: 16, Doc: "producer threads, one put each"},
			{Name: "consumers", Default: 2, Min: 1, Max: 16, Doc: "consumer threads; the producers' items are shared out among them"},
		},
		Body: syncqueue,
	})
}

// sqNode is a waiting put or take: its own lock and condition, its status
// (0 waiting, 1 acknowledged: the item was handed over) and item, shared
// variables all, as the fields of the Java program are.
type sqNode struct {
	mu     *weft.Mutex
	done   *weft.Cond
	status *weft.Var[int]
	item   *weft.Var[int]
	next   *weft.Var[*sqNode]
}

// newSQNode returns a waiting node holding item (0 for a take).
func newSQNode(item int) *sqNode {
	n := &sqNode{mu: weft.NewMutex("node"), status: weft.NewVar[int]("node.status"),
		item: weft.NewVar[int]("node.item"), next: weft.NewVar[*sqNode]("node.next")}
	n.done = weft.NewCond(n.mu)
	n.status.Store(0)
	n.item.Store(item)
	n.next.Store(nil)
	return n
}

// setItem hands x to the waiting take n.
func (n *sqNode) setItem(x int) {
	n.mu.Lock()
	n.status.Store(1)
	n.item.Store(x)
	n.done.Signal()
	n.mu.Unlock()
}

// getItem takes the item of the waiting put n.
func (n *sqNode) getItem() int {
	n.mu.Lock()
	n.status.Store(1)
	n.done.Signal()
	x := n.item.Load()
	n.mu.Unlock()
	return x
}

// await waits until n is acknowledged and returns its item.
func (n *sqNode) await() int {
	n.mu.Lock()
	for n.status.Load() == 0 {
		n.done.Wait()
	}
	x := n.item.Load()
	n.mu.Unlock()
	return x
}

// sqQueue is a FIFO queue of waiting nodes (the fair variant's wait
// queue), its head and tail shared variables.
type sqQueue struct{ head, tail *weft.Var[*sqNode] }

func newSQQueue(name string) sqQueue {
	q := sqQueue{weft.NewVar[*sqNode](name + ".head"), weft.NewVar[*sqNode](name + ".tail")}
	q.head.Store(nil)
	q.tail.Store(nil)
	return q
}

func (q sqQueue) enq(n *sqNode) {
	if t := q.tail.Load(); t == nil {
		q.head.Store(n)
	} else {
		t.next.Store(n)
	}
	q.tail.Store(n)
}

func (q sqQueue) deq() *sqNode {
	n := q.head.Load()
	if n == nil {
		return nil
	}
	next := n.next.Load()
	q.head.Store(next)
	if next == nil {
		q.tail.Store(nil)
	}
	return n
}

// syncqueue: producer k puts k+1; the consumers take the producers' items
// between them; the body joins everyone and asserts that the values taken
// add up to those put. Puts and takes are never cancelled (no timeouts),
// so Java's retry after a cancelled node does not arise.
func syncqueue(p Params) func(w *weft.T) {
	np, nc := p["producers"], p["consumers"]
	return func(w *weft.T) {
		qlock := weft.NewMutex("qlock")
		producers, consumers := newSQQueue("waitingProducers"), newSQQueue("waitingConsumers")
		put := func(x int) {
			qlock.Lock()
			n := consumers.deq()
			mustWait := n == nil
			if mustWait {
				n = newSQNode(x)
				producers.enq(n)
			}
			qlock.Unlock()
			if mustWait {
				n.await()
				return
			}
			n.setItem(x)
		}
		take := func() int {
			qlock.Lock()
			n := producers.deq()
			mustWait := n == nil
			if mustWait {
				n = newSQNode(0)
				consumers.enq(n)
			}
			qlock.Unlock()
			if mustWait {
				return n.await()
			}
			return n.getItem()
		}
		handOff(w, np, nc, 1, put, take)
	}
}
