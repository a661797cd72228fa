// This file states how each statement prints, as patterns the parser
// (parse.go) matches: one table, so that a new kind of statement is one
// entry here beside its case in Stmt.String.

package gen

// A form is how statements of one kind print. head is the statement's
// line; for a statement with a body (body), tail is what follows "} " on
// the line that closes it. Both are patterns: literal text and holes,
//
//	{obj} {val} {val2}  an integer: Stmt.Obj, Val, Val2
//	{thread}            an integer: Stmt.Obj + 1 (a thread's name)
//	{cases}             a select's cases ("case <-c0; case c1 <- 2; default")
//	{loopcases}         the channel cases of a loop's select
//
// A hole that occurs twice must match the same integer. set gives the
// fields the form fixes (Assert, Local, ...). Forms are tried in order:
// the first whose head (and tail) match the text wins.
type form struct {
	kind       Kind
	head, tail string
	body       bool
	set        func(*Stmt)
}

func assert(s *Stmt) { s.Assert = true }
func local(s *Stmt)  { s.Local = true }

// localAssert marks a statement on the innermost scope's objects that
// asserts.
func localAssert(s *Stmt) { s.Local, s.Assert = true, true }

// forms is the table of every statement's printed form.
var forms = []form{
	{kind: Load, head: "assert(v{obj}.Load() != {val})", set: assert},
	{kind: Load, head: "v{obj}.Load()"},
	{kind: Store, head: "v{obj}.Store({val})"},
	{kind: Add, head: "v{obj}.Add({val})"},
	{kind: AddOnly, head: "v{obj}.AddOnly({val})"},
	{kind: CAS, head: "v{obj}.CompareAndSwap({val}, {val2})"},
	{kind: Lock, head: "m{obj}.Lock() {", tail: "// m{obj}.Unlock()", body: true},
	{kind: RLock, head: "rw{obj}.RLock() {", tail: "// rw{obj}.RUnlock()", body: true},
	{kind: WLock, head: "rw{obj}.Lock() {", tail: "// rw{obj}.Unlock()", body: true},
	{kind: Send, head: "c{obj} <- {val}"},
	{kind: Recv, head: "assert(<-c{obj} != {val})", set: assert},
	{kind: Recv, head: "<-c{obj}"},
	{kind: Close, head: "close(c{obj})"},
	{kind: Timeout, head: "select { case <-c{obj}; case <-after({val}): v{val2}.Store(7) }"},
	{kind: Select, head: "select { {cases} }"},
	{kind: Done, head: "wg{obj}.Done()"},
	{kind: Wait, head: "wg{obj}.Wait()"},
	{kind: Join, head: "T{thread}.Join()"},
	{kind: TryLock, head: "if m{obj}.TryLock() {", tail: "// m{obj}.Unlock() else { v{val}.Store(9) }", body: true},
	{kind: TryRLock, head: "if rw{obj}.TryRLock() {", tail: "// rw{obj}.RUnlock() else { v{val}.Store(9) }", body: true},
	{kind: TryWLock, head: "if rw{obj}.TryLock() {", tail: "// rw{obj}.Unlock() else { v{val}.Store(9) }", body: true},
	{kind: Len, head: "v{val}.Store(len(c{obj}))"},
	{kind: Cap, head: "v{val}.Store(cap(c{obj}))"},
	{kind: OnceDo, head: "once{obj}.Do(func() {", tail: `panic("gen") })`, body: true, set: func(s *Stmt) { s.Panic = true }},
	{kind: OnceDo, head: "once{obj}.Do(func() {", tail: "})", body: true},
	{kind: Spawn, head: "t := go {", tail: "// joined after the enclosing statements", body: true, set: func(s *Stmt) { s.Joined = true }},
	{kind: Spawn, head: "t := go {", tail: "", body: true},
	// A scope's header; its thread and body are parsed apart (scope).
	{kind: Scope, head: "scope {obj} { lv := new var; lm := new mutex; lc := make(chan, {val})"},
	{kind: Inc, head: "v{obj}.Store(v{obj}.Load() + 1)"},
	{kind: Acquire, head: "m{obj}.Lock()"},
	{kind: Release, head: "m{obj}.Unlock()"},
	{kind: Sleep, head: "sleep({val})"},
	{kind: Now, head: "v{obj}.Store(now())"},
	// Options.Sync (sync.go).
	{kind: SemP, head: "s{obj}.P()"},
	{kind: SemV, head: "s{obj}.V()"},
	{kind: CondWait, head: "m{obj}.Lock(); if v{val}.Load() == 0 { cond{obj}.Wait() }; m{obj}.Unlock()"},
	{kind: CondSignal, head: "m{obj}.Lock(); v{val}.Store(1); cond{obj}.Signal(); m{obj}.Unlock()"},
	{kind: CondSignal, head: "m{obj}.Lock(); v{val}.Store(1); cond{obj}.Broadcast(); m{obj}.Unlock()", set: func(s *Stmt) { s.Val2 = 1 }},
	{kind: Monitor, head: "mon{obj}.Enter() {", tail: "// mon{obj}.Exit()", body: true},
	{kind: MonWait, head: "if v{val}.Load() == 0 { mon{obj}.Cond({val2}).Wait() }"},
	{kind: MonSignal, head: "v{val}.Store(1); mon{obj}.Cond({val2}).Signal()"},
	{kind: MonSignal, head: "v{val}.Store(1); mon{obj}.Cond({val2}).SignalAll()", set: assert},
	{kind: Await, head: "for v{obj}.Load() == 0 { yield() }", set: func(s *Stmt) { s.Val2 = 1 }},
	{kind: Await, head: "await(v{obj}.Load() != 0)"},

	// Statements on the objects of the innermost scope.
	{kind: Load, head: "assert(lv.Load() != {val})", set: localAssert},
	{kind: Load, head: "lv.Load()", set: local},
	{kind: Store, head: "lv.Store({val})", set: local},
	{kind: Add, head: "lv.Add({val})", set: local},
	{kind: AddOnly, head: "lv.AddOnly({val})", set: local},
	{kind: Lock, head: "lm.Lock() {", tail: "// lm.Unlock()", body: true, set: local},
	{kind: TryLock, head: "if lm.TryLock() {", tail: "// lm.Unlock() else { v{val}.Store(9) }", body: true, set: local},
	{kind: Send, head: "lc <- {val}", set: local},
	{kind: Recv, head: "assert(<-lc != {val})", set: localAssert},
	{kind: Recv, head: "<-lc", set: local},
	{kind: Close, head: "close(lc)", set: local},
	{kind: Len, head: "v{val}.Store(len(lc))", set: local},

	// Statements of event loops (Options.Loops).
	{kind: Repeat, head: "for range {val} {", tail: "// for", body: true},
	{kind: TickLoop, head: "tk := newTimer({val}); for range {val2} { select { case <-tk.C: {",
		tail: "tk.Reset({val}) };{loopcases} } }; tk.Stop()", body: true},
	{kind: TickLoop, head: "tk := newTimer({val}); for range {val2} { select { case <-tk.C: {",
		tail: "tk.ResetAt(tk.Deadline() + {val}) };{loopcases} } }; tk.Stop()", body: true, set: func(s *Stmt) { s.Obj = 1 }},
	{kind: AfterLoop, head: "for range {val2} { select { case <-after({val}): {", tail: "};{loopcases} } }", body: true},
	{kind: TinyTimer, head: "tm := newTimer({val}) {", tail: "<-tm.C", body: true},
	{kind: TinyTimer, head: "tm := newTimer({val}) {", tail: "select { case <-tm.C: v{obj}.Store(7); default: }", body: true,
		set: func(s *Stmt) { s.Val2 = 1 }},
	{kind: TinyTimer, head: "tm := newTimer({val}) {", tail: "tm.Reset({val}); <-tm.C", body: true, set: func(s *Stmt) { s.Val2 = 2 }},
}
