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
)

var kindNames = [...]string{"load", "store", "add", "cas", "lock", "rlock", "wlock", "send", "recv", "close", "select", "done", "wait", "join"}

func (k Kind) String() string { return kindNames[k] }

// Case is a case of a select: a send of Val or a receive on channel Chan.
type Case struct {
	Send bool
	Chan int
	Val  int
}

// Stmt is a statement of a thread.
type Stmt struct {
	Kind    Kind
	Obj     int
	Val     int
	Val2    int
	Assert  bool   // Load, Recv: fail if the value read is Val
	Body    []Stmt // Lock, RLock, WLock
	Cases   []Case // Select
	Default bool   // Select
}

// Program is a random concurrent program: the body spawns Threads, then
// runs Main. Objects are numbered per kind.
type Program struct {
	Seed       uint64
	Vars       int
	Mutexes    int
	RWMutexes  int
	Chans      []int // capacities
	WaitGroups int
	// WGAdd is the count the body adds to each WaitGroup before it spawns
	// the threads.
	WGAdd   int
	Threads [][]Stmt
	Main    []Stmt
	// Local makes the body allocate its objects in each execution, instead
	// of once for all executions.
	Local bool
}

// String prints p as Go-like source.
func (p *Program) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "// gen seed %d\n", p.Seed)
	fmt.Fprintf(&b, "vars: %d, mutexes: %d, rwmutexes: %d, chans (caps): %v, waitgroups: %d, local objects: %v\n",
		p.Vars, p.Mutexes, p.RWMutexes, p.Chans, p.WaitGroups, p.Local)
	if p.WaitGroups > 0 {
		fmt.Fprintf(&b, "each wg.Add(%d)\n", p.WGAdd)
	}
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
		if len(s.Body) > 0 {
			printStmts(b, s.Body, indent+"\t")
			b.WriteString(indent + "} // " + s.unlock() + "\n")
		}
	}
}

func (s Stmt) String() string {
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
	}
	return "?"
}

// unlock names the release that ends a critical section.
func (s Stmt) unlock() string {
	switch s.Kind {
	case RLock:
		return fmt.Sprintf("rw%d.RUnlock()", s.Obj)
	case WLock:
		return fmt.Sprintf("rw%d.Unlock()", s.Obj)
	}
	return fmt.Sprintf("m%d.Unlock()", s.Obj)
}

// Events returns an upper bound of the number of steps of p, a measure of
// its size.
func (p *Program) Events() int {
	n := p.WaitGroups // the body's Adds
	for _, th := range p.Threads {
		n += steps(th)
	}
	return n + steps(p.Main)
}

func steps(ss []Stmt) int {
	n := 0
	for _, s := range ss {
		n++
		if len(s.Body) > 0 {
			n += 1 + steps(s.Body)
		}
	}
	return n
}
