// This file implements Lei and Carver 2006's DME program: Ricart and Agrawala's
// distributed mutual exclusion, with processes that talk by messages and
// threads inside a process that share its state under semaphores.

package programs

import (
	"fmt"

	"github.com/weft-go/weft"
)

func init() {
	register(&Program{
		Name:   "dme",
		Doc:    "Ricart and Agrawala's distributed mutual exclusion: n processes of two threads, one that requests the critical section once (a timestamped request to every other process, then a reply from each), one that answers the others' requests (at once, or after its own exit if its request goes first); buffered channels between processes, binary semaphores inside one; a process that finds another in the critical section fails",
		Source: "Lei and Carver 2006, Table 4 and §8 (DME: 3 processes, two threads each; the algorithm of Ricart and Agrawala, CACM 24(1), 1981)",
		Params: []Param{
			{Name: "n", Default: 3, Min: 2, Max: 6, Doc: "processes"},
			{Name: "broken", Default: 0, Min: 0, Max: 1, Doc: "1: a helper answers every request at once, never deferring (two processes can be in the critical section together)"},
		},
		Body: dme,
	})
}

// dmeRequest is a request message: the requester's timestamp and number.
type dmeRequest struct{ seq, from int }

// dme: each process i has a request channel (the others' requests) and a
// reply channel (the replies to its own), both with room for every
// message it can get (n-1), as Lei and Carver 2006's asynchronous ports never block a
// sender. Its two threads share the process's state (highest timestamp
// seen, whether it is requesting and with which timestamp, the replies it
// defers) under binary semaphore mutex, as in the textbook solution; the
// state is plain Go data, which only the semaphore orders. Each helper
// answers exactly n-1 requests and ends.
func dme(p Params) func(w *weft.T) {
	n, broken := p["n"], p["broken"] == 1
	return func(w *weft.T) {
		requests := make([]*weft.Chan[dmeRequest], n)
		replies := make([]*weft.Chan[int], n)
		for i := range n {
			requests[i] = weft.MakeChan[dmeRequest](n - 1)
			requests[i].SetName(fmt.Sprintf("request%d", i))
			replies[i] = weft.MakeChan[int](n - 1)
			replies[i].SetName(fmt.Sprintf("reply%d", i))
		}
		// cs holds the number of the process in the critical section: a
		// process that finds it full (another is inside) fails. The
		// protocol orders the entries by its messages, so cs adds no
		// race of its own.
		cs := weft.MakeChan[int](1)
		cs.SetName("cs")
		var threads []*weft.Thread
		for i := range n {
			type state struct {
				highest, seq int
				requesting   bool
				deferred     []int
			}
			st := &state{}
			mutex := weft.NewBinarySemaphore(1)
			mutex.SetName(fmt.Sprintf("mutex%d", i))
			threads = append(threads, w.Go(func() { // the requester
				mutex.P()
				st.requesting = true
				st.seq = st.highest + 1
				seq := st.seq
				mutex.V()
				for j := range n {
					if j != i {
						requests[j].Send(dmeRequest{seq: seq, from: i})
					}
				}
				for range n - 1 {
					replies[i].Recv()
				}
				weft.Select(
					weft.OnSend(cs, i, func() {}),
					weft.OnDefault(func() { w.Fail("process %d entered the critical section while another was in it", i) }),
				)
				cs.Recv()
				mutex.P()
				st.requesting = false
				deferred := st.deferred
				st.deferred = nil
				mutex.V()
				for _, j := range deferred {
					replies[j].Send(i)
				}
			}))
			threads = append(threads, w.Go(func() { // the helper
				for range n - 1 {
					r := requests[i].Recv()
					mutex.P()
					st.highest = max(st.highest, r.seq)
					later := !broken && st.requesting && (r.seq > st.seq || r.seq == st.seq && r.from > i)
					if later {
						st.deferred = append(st.deferred, r.from)
					}
					mutex.V()
					if !later {
						replies[r.from].Send(i)
					}
				}
			}))
		}
		for _, t := range threads {
			t.Join()
		}
	}
}
