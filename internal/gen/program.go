// This file defines random programs as data, and prints them.

package gen

import (
	"fmt"
	"strings"
)

// Kind is the kind of a statement.
type Kind uint8

// The statements. A statement of a lock kind wraps its Body in a critical
// section; the other kinds are one weft operation each (Select is one
// select statement).
const (
	Load   Kind = iota // v := vars[Obj].Load(); assert v != Val if Assert
	Store              // vars[Obj].Store(Val)
	Add                // vars[Obj].Add(Val)
	CAS                // vars[Obj].CompareAndSwap(Val, Val2)
	Lock               // mutexes[Obj].Lock(); Body; mutexes[Obj].Unlock()
	RLock              // rws[Obj].RLock(); Body; rws[Obj].RUnlock()
	WLock              // rws[Obj].Lock(); Body; rws[Obj].Unlock()
	Send               // chans[Obj].Send(Val)
	Recv               // v, ok := chans[Obj].RecvOK(); assert v != Val if Assert
	Close              // close(chans[Obj])
	Select             // select over Cases, with a default if Default
	Done               // wgs[Obj].Done()
	Wait               // wgs[Obj].Wait()
	Join               // threads[Obj].Join() (the body only)

	// Version 2 statements.
	TryLock  // if mutexes[Obj].TryLock() { Body; mutexes[Obj].Unlock() } else { vars[Val].Store(9) }
	TryRLock // if rws[Obj].TryRLock() { Body; rws[Obj].RUnlock() } else { vars[Val].Store(9) }
	TryWLock // if rws[Obj].TryLock() { Body; rws[Obj].Unlock() } else { vars[Val].Store(9) }
	Len      // vars[Val].Store(chans[Obj].Len())
	Cap      // vars[Val].Store(chans[Obj].Cap()) (Cap is no step)
	OnceDo   // onces[Obj].Do(func() { Body; if Panic { panic } })
	Spawn    // t := go { Body }; the enclosing statements run; t.Join() after them if Joined
	Scope    // a fresh var, mutex and channel (capacity Val), named after Obj; go { Child }; Body; join: statements with Local use them

	// Statements no generator draws, for programs written as data.
	Inc     // vars[Obj].Store(vars[Obj].Load() + 1): two steps
	Acquire // mutexes[Obj].Lock(), unbalanced
	Release // mutexes[Obj].Unlock(), unbalanced

	// Version 3 statements.
	AddOnly // vars[Obj].AddOnly(Val): an add whose result is unused

	// Statements on virtual time (Options.Timed).
	Sleep   // w.Sleep(Val)
	Now     // vars[Obj].Store(w.Now())
	Timeout // select { case <-chans[Obj]: ; case <-w.After(Val): vars[Val2].Store(7) }

	// Statements on semaphores, condition variables, monitors and
	// awaits (Options.Sync; sync.go).
	SemP       // sems[Obj].P()
	SemV       // sems[Obj].V()
	CondWait   // mutexes[Obj].Lock(); if vars[Val].Load() == 0 { conds[Obj].Wait() }; mutexes[Obj].Unlock()
	CondSignal // mutexes[Obj].Lock(); vars[Val].Store(1); conds[Obj].Signal(), or Broadcast() if Val2 == 1; mutexes[Obj].Unlock()
	Monitor    // monitors[Obj].Enter(); Body; monitors[Obj].Exit()
	MonWait    // if vars[Val].Load() == 0 { monitors[Obj].Cond(Val2).Wait() } (in a Monitor's Body)
	MonSignal  // vars[Val].Store(1); monitors[Obj].Cond(Val2).Signal(), or SignalAll() if Assert (in a Monitor's Body)
	Await      // w.Await(func() bool { return vars[Obj].Load() != 0 }), or if Val2 == 1 for vars[Obj].Load() == 0 { w.Yield() }
)

var kindNames = [...]string{"load", "store", "add", "cas", "lock", "rlock", "wlock", "send", "recv", "close", "select", "done", "wait", "join",
	"trylock", "tryrlock", "trywlock", "len", "cap", "once", "spawn", "scope", "inc", "acquire", "release", "addonly",
	"sleep", "now", "timeout",
	"semp", "semv", "condwait", "condsignal", "monitor", "monwait", "monsignal", "await"}

func (k Kind) String() string {
	if k.isLoop() {
		return loopKindNames[k-firstLoopKind]
	}
	return kindNames[k]
}

// Case is a case of a select: a send of Val or a receive on channel Chan.
type Case struct {
	Send bool
	Chan int
	Val  int
	// Stop makes a receive end the loop of its select (TickLoop,
	// AfterLoop).
	Stop bool
}

// Stmt is a statement of a thread.
type Stmt struct {
	Kind    Kind
	Obj     int
	Val     int
	Val2    int
	Assert  bool   // Load, Recv: fail if the value read is Val
	Body    []Stmt // Lock, RLock, WLock, the try-locks, OnceDo, Spawn, Scope
	Cases   []Case // Select
	Default bool   // Select
	// Local makes a statement use the objects of the innermost Scope
	// (its var, mutex or channel; Obj is then 0).
	Local  bool
	Panic  bool   // OnceDo: the function panics after its Body
	Joined bool   // Spawn: the spawning thread joins the thread
	Child  []Stmt // Scope: the statements of the thread it starts
}

// Program is a random concurrent program: the body spawns Threads, then
// runs Main. Objects are numbered per kind.
type Program struct {
	Seed       uint64
	Vars       int
	Mutexes    int
	RWMutexes  int
	Chans      []int // capacities (-1: a nil channel, Options.Selects)
	WaitGroups int
	Onces      int
	// WGAdd is the count the body adds to each WaitGroup before it spawns
	// the threads (no Add if 0; the generator always draws more).
	WGAdd   int
	Threads [][]Stmt
	Main    []Stmt
	// Local makes the body allocate its objects in each execution, instead
	// of once for all executions.
	Local bool
	// Fill makes the body send 9 on each buffered channel before it
	// spawns the threads (Options.Loops).
	Fill bool
	// Sems are the initial values of the semaphores, Binary says which
	// are binary; Conds the number of condition variables (Cond i has
	// mutex i as its lock); SU the disciplines of the monitors (true:
	// signal and urgent wait; false: signal and continue). Options.Sync.
	Sems   []int
	Binary []bool
	Conds  int
	SU     []bool
}

// String prints p as Go-like source.
func (p *Program) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "// gen seed %d\n", p.Seed)
	fmt.Fprintf(&b, "vars: %d, mutexes: %d, rwmutexes: %d, chans (caps): %v, waitgroups: %d, onces: %d, local objects: %v\n",
		p.Vars, p.Mutexes, p.RWMutexes, p.Chans, p.WaitGroups, p.Onces, p.Local)
	if p.WaitGroups > 0 && p.WGAdd != 0 {
		fmt.Fprintf(&b, "each wg.Add(%d)\n", p.WGAdd)
	}
	if p.Fill {
		b.WriteString("each buffered channel <- 9\n")
	}
	p.syncHeader(&b)
	for i, th := range p.Threads {
		fmt.Fprintf(&b, "T%d := go {\n", i+1)
		printStmts(&b, th, "\t")
		b.WriteString("}\n")
	}
	printStmts(&b, p.Main, "")
	return b.String()
}

func printStmts(b *strings.Builder, ss []Stmt, indent string) {
	for _, s := range ss {
		b.WriteString(indent)
		b.WriteString(s.String())
		b.WriteByte('\n')
		switch {
		case s.Kind == Scope:
			b.WriteString(indent + "\tgo {\n")
			printStmts(b, s.Child, indent+"\t\t")
			b.WriteString(indent + "\t}\n")
			printStmts(b, s.Body, indent+"\t")
			b.WriteString(indent + "} // join the scope's thread\n")
		case len(s.Body) > 0 || s.hasBody():
			printStmts(b, s.Body, indent+"\t")
			b.WriteString(indent + "} " + s.closing() + "\n")
		}
	}
}

func (s Stmt) String() string {
	if s.Local {
		return s.localString()
	}
	switch s.Kind {
	case Load:
		if s.Assert {
			return fmt.Sprintf("assert(v%d.Load() != %d)", s.Obj, s.Val)
		}
		return fmt.Sprintf("v%d.Load()", s.Obj)
	case Store:
		return fmt.Sprintf("v%d.Store(%d)", s.Obj, s.Val)
	case Add:
		return fmt.Sprintf("v%d.Add(%d)", s.Obj, s.Val)
	case AddOnly:
		return fmt.Sprintf("v%d.AddOnly(%d)", s.Obj, s.Val)
	case CAS:
		return fmt.Sprintf("v%d.CompareAndSwap(%d, %d)", s.Obj, s.Val, s.Val2)
	case Lock:
		return fmt.Sprintf("m%d.Lock() {", s.Obj)
	case RLock:
		return fmt.Sprintf("rw%d.RLock() {", s.Obj)
	case WLock:
		return fmt.Sprintf("rw%d.Lock() {", s.Obj)
	case Send:
		return fmt.Sprintf("c%d <- %d", s.Obj, s.Val)
	case Recv:
		if s.Assert {
			return fmt.Sprintf("assert(<-c%d != %d)", s.Obj, s.Val)
		}
		return fmt.Sprintf("<-c%d", s.Obj)
	case Close:
		return fmt.Sprintf("close(c%d)", s.Obj)
	case Select:
		var cs []string
		for _, c := range s.Cases {
			if c.Send {
				cs = append(cs, fmt.Sprintf("case c%d <- %d", c.Chan, c.Val))
			} else {
				cs = append(cs, fmt.Sprintf("case <-c%d", c.Chan))
			}
		}
		if s.Default {
			cs = append(cs, "default")
		}
		return "select { " + strings.Join(cs, "; ") + " }"
	case Done:
		return fmt.Sprintf("wg%d.Done()", s.Obj)
	case Wait:
		return fmt.Sprintf("wg%d.Wait()", s.Obj)
	case Join:
		return fmt.Sprintf("T%d.Join()", s.Obj+1)
	case TryLock:
		return fmt.Sprintf("if m%d.TryLock() {", s.Obj)
	case TryRLock:
		return fmt.Sprintf("if rw%d.TryRLock() {", s.Obj)
	case TryWLock:
		return fmt.Sprintf("if rw%d.TryLock() {", s.Obj)
	case Len:
		return fmt.Sprintf("v%d.Store(len(c%d))", s.Val, s.Obj)
	case Cap:
		return fmt.Sprintf("v%d.Store(cap(c%d))", s.Val, s.Obj)
	case OnceDo:
		return fmt.Sprintf("once%d.Do(func() {", s.Obj)
	case Spawn:
		return "t := go {"
	case Inc:
		return fmt.Sprintf("v%d.Store(v%d.Load() + 1)", s.Obj, s.Obj)
	case Acquire:
		return fmt.Sprintf("m%d.Lock()", s.Obj)
	case Release:
		return fmt.Sprintf("m%d.Unlock()", s.Obj)
	case Scope:
		return fmt.Sprintf("scope %d { lv := new var; lm := new mutex; lc := make(chan, %d)", s.Obj, s.Val)
	case Sleep:
		return fmt.Sprintf("sleep(%d)", s.Val)
	case Now:
		return fmt.Sprintf("v%d.Store(now())", s.Obj)
	case Timeout:
		return fmt.Sprintf("select { case <-c%d; case <-after(%d): v%d.Store(7) }", s.Obj, s.Val, s.Val2)
	}
	if s.Kind.isLoop() {
		return s.loopString()
	}
	if str, ok := s.syncString(); ok {
		return str
	}
	return "?"
}

// localString prints a statement on the objects of the innermost scope.
func (s Stmt) localString() string {
	switch s.Kind {
	case Load:
		if s.Assert {
			return fmt.Sprintf("assert(lv.Load() != %d)", s.Val)
		}
		return "lv.Load()"
	case Store:
		return fmt.Sprintf("lv.Store(%d)", s.Val)
	case Add:
		return fmt.Sprintf("lv.Add(%d)", s.Val)
	case AddOnly:
		return fmt.Sprintf("lv.AddOnly(%d)", s.Val)
	case Lock:
		return "lm.Lock() {"
	case TryLock:
		return "if lm.TryLock() {"
	case Send:
		return fmt.Sprintf("lc <- %d", s.Val)
	case Recv:
		if s.Assert {
			return fmt.Sprintf("assert(<-lc != %d)", s.Val)
		}
		return "<-lc"
	case Close:
		return "close(lc)"
	case Len:
		return fmt.Sprintf("v%d.Store(len(lc))", s.Val)
	}
	return "local ?"
}

// hasBody reports whether s's kind runs a Body (possibly empty).
func (s Stmt) hasBody() bool {
	switch s.Kind {
	case Lock, RLock, WLock, TryLock, TryRLock, TryWLock, OnceDo, Spawn, Monitor:
		return true
	}
	return s.Kind.isLoop()
}

// closing names what ends a statement with a body.
func (s Stmt) closing() string {
	if s.Kind.isLoop() {
		return s.loopClosing()
	}
	m := fmt.Sprintf("m%d", s.Obj)
	if s.Local {
		m = "lm"
	}
	switch s.Kind {
	case RLock:
		return fmt.Sprintf("// rw%d.RUnlock()", s.Obj)
	case WLock:
		return fmt.Sprintf("// rw%d.Unlock()", s.Obj)
	case TryLock:
		return fmt.Sprintf("// %s.Unlock() else { v%d.Store(9) }", m, s.Val)
	case TryRLock:
		return fmt.Sprintf("// rw%d.RUnlock() else { v%d.Store(9) }", s.Obj, s.Val)
	case TryWLock:
		return fmt.Sprintf("// rw%d.Unlock() else { v%d.Store(9) }", s.Obj, s.Val)
	case OnceDo:
		if s.Panic {
			return "panic(\"gen\") })"
		}
		return "})"
	case Spawn:
		if s.Joined {
			return "// joined after the enclosing statements"
		}
		return ""
	case Monitor:
		return fmt.Sprintf("// mon%d.Exit()", s.Obj)
	}
	return "// " + m + ".Unlock()"
}

// Events returns an upper bound of the number of steps of p, a measure of
// its size.
func (p *Program) Events() int {
	n := 0
	if p.WGAdd != 0 {
		n = p.WaitGroups // the body's Adds
	}
	if p.Fill {
		for _, c := range p.Chans {
			if c > 0 {
				n++ // the body's send
			}
		}
	}
	for _, th := range p.Threads {
		n += steps(th)
	}
	return n + steps(p.Main)
}

func steps(ss []Stmt) int {
	n := 0
	for _, s := range ss {
		if s.Kind.isLoop() {
			n += loopSteps(s)
			continue
		}
		switch s.Kind {
		case Cap:
			n++ // the store
		case Inc:
			n += 2 // the load and the store
		case Len:
			n += 2 // the Len and the store
		case TryLock, TryRLock, TryWLock:
			n += 2 + steps(s.Body) // the try and the unlock, or the store
		case OnceDo:
			n += 2 + steps(s.Body) // Do and the end of the function
		case Spawn:
			n += 1 + steps(s.Body) // the join, if any
		case Scope:
			n += 1 + steps(s.Body) + steps(s.Child)
		case Sleep, Now:
			n += 2 // the read of the clock, and the wake-up or the store
		case Timeout:
			n += 3 // the timer's creation, the select, the store
		case CondWait:
			n += 5 // Lock, Load, Wait, Relock, Unlock
		case CondSignal:
			n += 4 // Lock, Store, Signal, Unlock
		case MonWait:
			n += 3 // Load, Wait, Reenter
		case MonSignal:
			n += 3 // Store, Signal, an SU signaller's Reenter
		case Await:
			n += 3 // Load, the await, Load
		case Monitor:
			n += 2 + steps(s.Body)
		default:
			n++
			if len(s.Body) > 0 {
				n += 1 + steps(s.Body)
			}
		}
	}
	return n
}
