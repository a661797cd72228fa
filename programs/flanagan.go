// This file implements indexer and filesystem, the benchmarks of Flanagan
// and Godefroid (POPL 2005) used in Saarikivi et al. 2012 (Fig. 8) and Kähkönen et al. 2014 (Table 2).

package programs

import (
	"fmt"

	"github.com/weft-go/weft"
)

func init() {
	register(&Program{
		Name:   "indexer",
		Doc:    "n threads insert 4 values each into a hash table of 128 slots with a mutex per slot; collisions from n=12",
		Source: "Flanagan and Godefroid, POPL 2005; Saarikivi et al. 2012, Fig. 8 (Indexer)",
		Params: []Param{{Name: "n", Default: 12, Min: 1, Max: 32, Doc: "threads (N)"}},
		Body:   indexer,
	})
	register(&Program{
		Name:   "filesystem",
		Doc:    "n threads each allocate a block to an inode under per-inode and per-block mutexes; they meet from n=14",
		Source: "Flanagan and Godefroid, POPL 2005; Saarikivi et al. 2012, Fig. 8 (File System)",
		Params: []Param{{Name: "n", Default: 14, Min: 1, Max: 64, Doc: "threads (N)"}},
		Body:   filesystem,
	})
}

// indexerSlots is the size of the indexer's hash table.
const indexerSlots = 128

// indexer: thread tid inserts w = 11m + tid for m = 1..4 at h = 7w mod 128,
// probing h+1, h+2, ... while the slot is taken. The insertion is a
// compare-and-swap made of lock(mutex[h]); load table[h]; if it is 0, store w;
// unlock(mutex[h]). The body starts every thread and joins them.
// indexer and filesystem make their variables and mutexes once, outside the
// test body: made in every execution, their 256 and 116 objects cost a
// quarter of the exploration's time (weft bench -table speed). So they run
// on one worker, which Result.NotParallel says with more workers.
func indexer(p Params) func(w *weft.T) {
	n := p["n"]
	table := make([]*weft.Var[int], indexerSlots)
	locks := make([]weft.Mutex, indexerSlots)
	for h := range table {
		table[h] = weft.NewVar[int](fmt.Sprintf("table[%d]", h))
		locks[h].SetName(fmt.Sprintf("mutex[%d]", h))
	}
	cas := func(h, w int) bool {
		locks[h].Lock()
		ok := table[h].Load() == 0
		if ok {
			table[h].Store(w)
		}
		locks[h].Unlock()
		return ok
	}
	return func(w *weft.T) {
		threads := make([]*weft.Thread, n)
		for tid := range n {
			threads[tid] = w.Go(func() {
				for m := 1; m <= 4; m++ {
					v := 11*m + tid
					h := (7 * v) % indexerSlots
					for !cas(h, v) {
						h = (h + 1) % indexerSlots
					}
				}
			})
		}
		for _, th := range threads {
			th.Join()
		}
	}
}

// The sizes of the file system.
const (
	fsInodes = 32
	fsBlocks = 26
)

// filesystem: thread tid takes inode i = tid mod 32 under locki[i]; if the
// inode has no block, it tries up to 10 blocks from b = 2i mod 26, each under
// lockb[b], and takes the first free one. The body starts every thread and
// joins them, unless Params holds NoJoin = 1.
func filesystem(p Params) func(w *weft.T) {
	n := p["n"]
	inode := make([]*weft.Var[int], fsInodes)
	locki := make([]weft.Mutex, fsInodes)
	for i := range inode {
		inode[i] = weft.NewVar[int](fmt.Sprintf("inode[%d]", i))
		locki[i].SetName(fmt.Sprintf("locki[%d]", i))
	}
	busy := make([]*weft.Var[int], fsBlocks)
	lockb := make([]weft.Mutex, fsBlocks)
	for b := range busy {
		busy[b] = weft.NewVar[int](fmt.Sprintf("busy[%d]", b))
		lockb[b].SetName(fmt.Sprintf("lockb[%d]", b))
	}
	thread := func(tid int) {
		i := tid % fsInodes
		locki[i].Lock()
		if inode[i].Load() == 0 {
			b := (2 * i) % fsBlocks
			for range 10 {
				lockb[b].Lock()
				if busy[b].Load() == 0 {
					busy[b].Store(1)
					inode[i].Store(b + 1)
					lockb[b].Unlock()
					break
				}
				lockb[b].Unlock()
				b = (b + 1) % fsBlocks
			}
		}
		locki[i].Unlock()
	}
	return func(w *weft.T) {
		threads := make([]*weft.Thread, n)
		for tid := range n {
			threads[tid] = w.Go(func() { thread(tid) })
		}
		for _, th := range joined(threads, p) {
			th.Join()
		}
	}
}
