// This file implements the programs of Lei and Carver 2006's examples and Table 4
// not found elsewhere: Fig. 1's four threads on two ports, the bounded
// buffer with a selective wait and with semaphores, readers and writers
// with a selective wait, semaphores and a monitor, and the dining
// philosophers with an SU monitor (bbmonitor is in bbmonitor.go, the
// deadlocking philosophers of Fig. 13 are dining).
//
// The authors' programs are in a book (Carver and Tai, Modern
// Multithreading, 2005) that Lei and Carver 2006 cites but does not reproduce: these
// are the textbook solutions the paper names, each thread doing its
// operation once (3 producers and 3 consumers for BB, 3 readers and 2
// writers for RW, one meal per philosopher), written with weft's channels,
// semaphores and monitors.

package programs

import (
	"github.com/weft-go/weft"
)

func init() {
	register(&Program{
		Name:   "reach-fig1",
		Doc:    "T1 sends to p1; T2 sends to p1 then p2; T3 receives from p1, forwards it to p2, receives from p1 again; T4 receives twice from p2 (ports are buffered channels): 4 SYN-sequences",
		Source: "Lei and Carver 2006, Fig. 1 (the program reconstructed in the notes, §3.10)",
		Body:   reachFig1,
	})
	register(&Program{
		Name:   "bbselect",
		Doc:    "a buffer thread serves deposits and withdrawals with a select whose guards are the buffer's room and contents (a nil channel for a closed guard); producers and consumers meet it on unbuffered channels",
		Source: "Lei and Carver 2006, §2.2 and Table 4 (BB with a selective wait: 3 producers, 3 consumers, 2 slots)",
		Params: bbParams,
		Body:   bbselect,
	})
	register(&Program{
		Name:   "bbsem",
		Doc:    "a bounded buffer guarded by counting semaphores fullSlots and emptySlots and binary semaphores for the deposit and withdraw ends, each held across a whole deposit or withdrawal (nested=0: only around the slot)",
		Source: "Lei and Carver 2006, §2.3 and Table 4 (BB with semaphores: 3 producers, 3 consumers, 2 slots)",
		Params: append(bbParams[:len(bbParams):len(bbParams)], Param{Name: "nested", Default: 1, Min: 0, Max: 1, Doc: "1: mutexD.P, emptySlots.P, deposit, fullSlots.V, mutexD.V (the paper's 324 sequences); 0: emptySlots.P, mutexD.P, deposit, mutexD.V, fullSlots.V (9,252)"}),
		Body:   bbsem,
	})
	register(&Program{
		Name:   "rwselect",
		Doc:    "readers and writers ask a server thread for access on channels; its select admits readers while no writer writes and a writer while no one reads or writes",
		Source: "Lei and Carver 2006, Table 4 (RW with a selective wait: 3 readers, 2 writers)",
		Params: rwParams,
		Body:   rwselect,
	})
	register(&Program{
		Name:   "rwsem",
		Doc:    "readers and writers (readers' preference): a binary semaphore guards the count of readers, the first reader in and the last out take and give back the writers' binary semaphore",
		Source: "Lei and Carver 2006, §2.3 and Table 4 (RW with semaphores: 3 readers, 2 writers)",
		Params: rwParams,
		Body:   rwsem,
	})
	register(&Program{
		Name:   "rwmonitor",
		Doc:    "readers and writers with a monitor (Hoare's: a reader waits if a writer writes or waits, a leaving writer lets the readers in first); su=1 signals and urgent-waits, su=0 signals and continues",
		Source: "Lei and Carver 2006, §2.4 and Table 4 (RW with SU and SC monitors: 3 readers, 2 writers)",
		Params: append(rwParams[:len(rwParams):len(rwParams)], Param{Name: "su", Default: 1, Min: 0, Max: 1, Doc: "1: signal-and-urgent-wait (SU), 0: signal-and-continue (SC)"}),
		Body:   rwmonitor,
	})
	register(&Program{
		Name:   "dpmonitor",
		Doc:    "n philosophers eat once each, taking both forks inside an SU monitor (a hungry philosopher eats when neither neighbour eats, else waits on its condition; one who puts the forks down lets the neighbours eat): no deadlock",
		Source: "Lei and Carver 2006, Table 4 (DP with an SU monitor: 3, 4, 5 philosophers)",
		Params: []Param{{Name: "n", Default: 3, Min: 2, Max: 16, Doc: "philosophers"}},
		Body:   dpmonitor,
	})
}

var bbParams = []Param{
	{Name: "producers", Default: 3, Min: 1, Max: 16, Doc: "producer threads, one item each"},
	{Name: "consumers", Default: 3, Min: 1, Max: 16, Doc: "consumer threads, one item each"},
	{Name: "slots", Default: 2, Min: 1, Max: 64, Doc: "buffer slots"},
}

var rwParams = []Param{
	{Name: "readers", Default: 3, Min: 1, Max: 16, Doc: "reader threads, one read each"},
	{Name: "writers", Default: 2, Min: 1, Max: 16, Doc: "writer threads, one write each"},
}

// reachFig1: the reconstruction of Fig. 1 in the notes (§3.10). The ports
// are buffered channels with room for every message, so sends never wait
// (asynchronous message passing); each port has one receiver.
func reachFig1(Params) func(w *weft.T) {
	return func(w *weft.T) {
		p1, p2 := weft.MakeChan[int](2), weft.MakeChan[int](2)
		p1.SetName("p1")
		p2.SetName("p2")
		ths := []*weft.Thread{
			w.Go(func() { p1.Send(1) }),                                // T1: s1
			w.Go(func() { p1.Send(2); p2.Send(3) }),                    // T2: s2, s4
			w.Go(func() { x := p1.Recv(); p2.Send(x); _ = p1.Recv() }), // T3: r1, s3, r2
			w.Go(func() { p2.Recv(); p2.Recv() }),                      // T4: r3, r4
		}
		for _, th := range ths {
			th.Join()
		}
	}
}

// bbselect: the buffer thread loops over the deposits and withdrawals it
// will serve; a guard that is false is a nil channel, never ready.
func bbselect(p Params) func(w *weft.T) {
	np, nc, slots := p["producers"], p["consumers"], p["slots"]
	nc = min(nc, np) // a consumer without an item would wait forever
	return func(w *weft.T) {
		deposit, withdraw := weft.MakeChan[int](0), weft.MakeChan[int](0)
		deposit.SetName("deposit")
		withdraw.SetName("withdraw")
		buffer := w.Go(func() {
			buf := make([]int, slots)
			in, out, count := 0, 0, 0
			for range np + nc {
				var dep, wd *weft.Chan[int]
				if count < slots {
					dep = deposit
				}
				if count > 0 {
					wd = withdraw
				}
				weft.Select(
					weft.OnRecv(dep, func(v int, _ bool) { buf[in] = v; in = (in + 1) % slots; count++ }),
					weft.OnSend(wd, buf[out], func() { out = (out + 1) % slots; count-- }),
				)
			}
		})
		handOff(w, np, nc, 1, deposit.Send, withdraw.Recv)
		buffer.Join()
	}
}

// bbsem: a bounded buffer with semaphores. Lei and Carver 2006 does not
// print the program, only its count: 324 SYN-sequences for 3 producers, 3
// consumers and 2 slots. Of the orders of each end's four operations (its
// binary semaphore's P and V around the slot, the counting semaphore's P
// before and V after), only one has 324: each end holds its binary
// semaphore across the whole operation, waiting for a slot or an item
// inside it (nested=1, the default). Andrews' order, which holds it only
// around the slot (nested=0), has 9,252: producers then race at both
// semaphores, two of them can be between emptySlots and mutexD at once.
func bbsem(p Params) func(w *weft.T) {
	np, nc, slots := p["producers"], p["consumers"], p["slots"]
	nested := p["nested"] == 1
	nc = min(nc, np)
	return func(w *weft.T) {
		full, empty := weft.NewSemaphore(0), weft.NewSemaphore(slots)
		mutexD, mutexW := weft.NewBinarySemaphore(1), weft.NewBinarySemaphore(1)
		full.SetName("fullSlots")
		empty.SetName("emptySlots")
		mutexD.SetName("mutexD")
		mutexW.SetName("mutexW")
		buf := make([]int, slots)
		in, out := 0, 0
		deposit := func(v int) {
			if nested {
				mutexD.P()
				empty.P()
			} else {
				empty.P()
				mutexD.P()
			}
			buf[in] = v
			in = (in + 1) % slots
			if nested {
				full.V()
				mutexD.V()
			} else {
				mutexD.V()
				full.V()
			}
		}
		withdraw := func() int {
			if nested {
				mutexW.P()
				full.P()
			} else {
				full.P()
				mutexW.P()
			}
			v := buf[out]
			out = (out + 1) % slots
			if nested {
				empty.V()
				mutexW.V()
			} else {
				mutexW.V()
				empty.V()
			}
			return v
		}
		handOff(w, np, nc, 1, deposit, withdraw)
	}
}

// rw runs nr readers and nw writers, each reading or writing once between
// the given entry and exit operations, and checks that no reader saw a
// writer inside and that writers were alone.
func rw(w *weft.T, nr, nw int, startRead, endRead, startWrite, endWrite func()) {
	readers, writers := 0, 0 // inside, as the threads see them
	var ths []*weft.Thread
	for range nr {
		ths = append(ths, w.Go(func() {
			startRead()
			readers++
			w.Assert(writers == 0, "a reader is in with a writer")
			readers--
			endRead()
		}))
	}
	for range nw {
		ths = append(ths, w.Go(func() {
			startWrite()
			writers++
			w.Assert(writers == 1 && readers == 0, "a writer is in with %d writers and %d readers", writers, readers)
			writers--
			endWrite()
		}))
	}
	for _, th := range ths {
		th.Join()
	}
}

// rwselect: the server counts the readers in and whether a writer is; its
// select takes a reader's request while no writer writes, a writer's
// while no one is in, and the ends always.
func rwselect(p Params) func(w *weft.T) {
	nr, nw := p["readers"], p["writers"]
	return func(w *weft.T) {
		startR, endR := weft.MakeChan[int](0), weft.MakeChan[int](0)
		startW, endW := weft.MakeChan[int](0), weft.MakeChan[int](0)
		for _, c := range []struct {
			c    *weft.Chan[int]
			name string
		}{{startR, "startRead"}, {endR, "endRead"}, {startW, "startWrite"}, {endW, "endWrite"}} {
			c.c.SetName(c.name)
		}
		server := w.Go(func() {
			readers, writing := 0, false
			for range 2 * (nr + nw) {
				var sr, sw *weft.Chan[int]
				if !writing {
					sr = startR
					if readers == 0 {
						sw = startW
					}
				}
				weft.Select(
					weft.OnRecv(sr, func(int, bool) { readers++ }),
					weft.OnRecv(endR, func(int, bool) { readers-- }),
					weft.OnRecv(sw, func(int, bool) { writing = true }),
					weft.OnRecv(endW, func(int, bool) { writing = false }),
				)
			}
		})
		rw(w, nr, nw, func() { startR.Send(0) }, func() { endR.Send(0) }, func() { startW.Send(0) }, func() { endW.Send(0) })
		server.Join()
	}
}

// rwsem: Courtois, Heymans and Parnas's first solution.
func rwsem(p Params) func(w *weft.T) {
	nr, nw := p["readers"], p["writers"]
	return func(w *weft.T) {
		mutex, wrt := weft.NewBinarySemaphore(1), weft.NewBinarySemaphore(1)
		mutex.SetName("mutex")
		wrt.SetName("writers")
		count := 0
		rw(w, nr, nw,
			func() {
				mutex.P()
				count++
				if count == 1 {
					wrt.P()
				}
				mutex.V()
			},
			func() {
				mutex.P()
				count--
				if count == 0 {
					wrt.V()
				}
				mutex.V()
			},
			wrt.P, wrt.V)
	}
}

// rwmonitor: Hoare's readers and writers monitor under SU: a reader
// waits if a writer writes or waits, and lets the next waiting reader in;
// a leaving writer lets a waiting reader in first. Under SC a woken thread
// competes to re-enter and checks its condition again; Hoare's
// preference for waiting writers would then leave a woken reader waiting
// for a writer that nobody signals, so the SC version is the usual one:
// readers wait while a writer writes, a leaving writer wakes every reader
// and a writer.
func rwmonitor(p Params) func(w *weft.T) {
	nr, nw, su := p["readers"], p["writers"], p["su"] == 1
	signalling := weft.SC
	if su {
		signalling = weft.SU
	}
	return func(w *weft.T) {
		m := weft.NewMonitor(signalling)
		m.SetName("rw")
		okToRead, okToWrite := m.Cond(0), m.Cond(1)
		readers, writing := 0, false
		startRead := func() {
			m.Enter()
			if su {
				if writing || !okToWrite.Empty() {
					okToRead.Wait()
				}
				readers++
				okToRead.Signal() // let the next waiting reader in too
			} else {
				for writing {
					okToRead.Wait()
				}
				readers++
			}
			m.Exit()
		}
		endRead := func() {
			m.Enter()
			readers--
			if readers == 0 {
				okToWrite.Signal()
			}
			m.Exit()
		}
		startWrite := func() {
			m.Enter()
			if su {
				if readers != 0 || writing {
					okToWrite.Wait()
				}
			} else {
				for readers != 0 || writing {
					okToWrite.Wait()
				}
			}
			writing = true
			m.Exit()
		}
		endWrite := func() {
			m.Enter()
			writing = false
			switch {
			case !su:
				okToRead.SignalAll()
				okToWrite.Signal()
			case !okToRead.Empty():
				okToRead.Signal()
			default:
				okToWrite.Signal()
			}
			m.Exit()
		}
		rw(w, nr, nw, startRead, endRead, startWrite, endWrite)
	}
}

// dpmonitor: the dining philosophers monitor of Hoare and Andrews: a
// philosopher eats when neither neighbour eats; putting the forks down
// tests both neighbours. Each philosopher checks that its neighbours do
// not eat while it does.
func dpmonitor(p Params) func(w *weft.T) {
	n := p["n"]
	const thinking, hungry, eating = 0, 1, 2
	return func(w *weft.T) {
		m := weft.NewMonitor(weft.SU)
		m.SetName("forks")
		state := make([]int, n)
		left := func(i int) int { return (i + n - 1) % n }
		right := func(i int) int { return (i + 1) % n }
		test := func(k int) {
			if state[left(k)] != eating && state[k] == hungry && state[right(k)] != eating {
				state[k] = eating
				m.Cond(k).Signal()
			}
		}
		ths := make([]*weft.Thread, n)
		for i := range ths {
			ths[i] = w.Go(func() {
				m.Enter()
				state[i] = hungry
				test(i)
				if state[i] != eating {
					m.Cond(i).Wait()
				}
				m.Exit()
				w.Assert(state[left(i)] != eating && state[right(i)] != eating, "philosopher %d eats next to an eating neighbour", i)
				m.Enter()
				state[i] = thinking
				test(left(i))
				test(right(i))
				m.Exit()
			})
		}
		for _, th := range ths {
			th.Join()
		}
	}
}
