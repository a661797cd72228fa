// This file implements unfold-fig1, the example program of the unfolding
// paper's symbolic execution tree (Kähkönen et al. 2014, Fig. 1, §2.3 and §3).

package programs

import "github.com/weft-go/weft"

func init() {
	register(&Program{
		Name:   "unfold-fig1",
		Doc:    "x = 0; T1: a = input(); if a+1 == 5 { x = a }; read x. T2: b = input(); c = x; if b == c {}: two reads that commute, a write that races with T2's read, a branch per thread",
		Source: "Kähkönen et al. 2014, Fig. 1 (reconstructed from §3 and Example 3; the figure's code is not in the text)",
		Body:   unfoldFig1,
	})
}

// unfoldFig1 is Kähkönen et al. 2014's Fig. 1, whose code is a figure the paper's text
// does not hold; it is reconstructed from what the text says of it:
//
//	int x = 0;
//	Thread 1:                      Thread 2:
//	1: a = input();                6: b = input();
//	2: if (a + 1 == 5) {           7: c = x;
//	3:     x = a;                  8: if (b == c) {
//	4: }                           9:     ...
//	5: d = x;                         }
//
// What the text says, and how the reconstruction follows it:
//
//   - Locations 1 to 9, thread 1's and thread 2's inputs input_1 and
//     input_2 (§2.3); a first test execution runs the locations (1, 2, 6,
//     5, 7, 8, 9), line 1 being a local operation that does not depend on
//     the inputs, line 2 a branch whose false side has the constraint
//     i_1 + 1 != 5, line 6 a local operation, and then a read by thread 1
//     (§3). So thread 1 is lines 1 to 5 (reading the input, the branch, the
//     read at 5), thread 2 lines 6 to 9 (reading its input at 6), and the
//     first test ran thread 1 to its read, thread 2 to its read, then both.
//     weft's first execution, with the inputs 0, runs exactly these
//     locations in this order.
//   - Two reads can run in either order without changing anything (§2.3,
//     §3): thread 1's at 5 and thread 2's at 7, of x.
//   - A write races with a read (events 3 and 6 of Fig. 7); to reach
//     event 9, events 5 (a branch with a constraint), 6 (thread 1's write)
//     and 7 (thread 2's read) run in this order, and the path constraint
//     is that of events 5 and 9 (Example 3). So thread 1 writes x on the
//     true side of line 2 (line 3), thread 2 reads x at 7 and branches on
//     the value at 8 (event 9 is a side of that branch after the read of
//     the write). Thread 1 writes a, its input, so that thread 2's branch
//     then depends on both inputs.
//   - Line 4 and what line 9 does are not described: line 4 is the end of
//     the then block here and line 9 does nothing visible; line 9 is the
//     true side of line 8, which the first test (inputs 0: b == c == 0)
//     takes.
func unfoldFig1(Params) func(w *weft.T) {
	return func(w *weft.T) {
		x := weft.NewVar[weft.SInt]("x")
		w.Go(func() {
			a := w.Input("input_1")                                         // 1
			if w.If(a.Add(weft.Const[int64](1)).Eq(weft.Const[int64](5))) { // 2
				x.Store(a) // 3
			} // 4
			_ = x.Load() // 5
		})
		w.Go(func() {
			b := w.Input("input_2") // 6
			c := x.Load()           // 7
			if w.If(b.Eq(c)) {      // 8
				_ = b // 9
			}
		})
	}
}
