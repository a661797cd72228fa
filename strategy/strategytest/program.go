// This file defines the programs the synthetic runner runs: those of
// package gen (internal/gen) whose statements it models.

package strategytest

import "github.com/weft-go/weft/internal/gen"

// Program is a model of a test body: the body (thread 0) adds WGAdd to
// each WaitGroup (if WGAdd is not 0), starts Threads, then runs Main. Its
// objects are numbered per kind (Vars, Mutexes, WaitGroups); they live
// across executions (Local is ignored), and each execution starts with
// zero values, unlocked mutexes and WaitGroups at zero.
//
// Program is package gen's program, whose generator the conformance check
// draws from; the runner models the statements listed below (Supported),
// not gen's channels, reader/writer mutexes, Once and scopes.
type Program = gen.Program

// Stmt is a statement of a Program.
type Stmt = gen.Stmt

// Kind is the kind of a statement.
type Kind = gen.Kind

// The statements the runner models. Lock and TryLock run their Body in a
// critical section; Acquire and Release lock and unlock without one.
const (
	Load    = gen.Load    // v := vars[Obj].Load(); fail if Assert and v == Val
	Store   = gen.Store   // vars[Obj].Store(Val)
	Add     = gen.Add     // vars[Obj].Add(Val)
	AddOnly = gen.AddOnly // vars[Obj].AddOnly(Val): the add's result unused
	CAS     = gen.CAS     // vars[Obj].CompareAndSwap(Val, Val2)
	Inc     = gen.Inc     // vars[Obj].Store(vars[Obj].Load() + 1): two steps
	Lock    = gen.Lock    // mutexes[Obj].Lock(); Body; mutexes[Obj].Unlock()
	TryLock = gen.TryLock // if mutexes[Obj].TryLock() { Body; Unlock } else { vars[Val].Store(9) }
	Acquire = gen.Acquire // mutexes[Obj].Lock()
	Release = gen.Release // mutexes[Obj].Unlock()
	Done    = gen.Done    // waitgroups[Obj].Done()
	Wait    = gen.Wait    // waitgroups[Obj].Wait()
	Join    = gen.Join    // Threads[Obj].Join()
	Spawn   = gen.Spawn   // go { Body }, joined after the enclosing statements if Joined
)

// Supported reports whether the runner models every statement of p.
func Supported(p *Program) bool {
	for _, th := range p.Threads {
		if !supported(th) {
			return false
		}
	}
	return supported(p.Main)
}

func supported(ss []Stmt) bool {
	for _, s := range ss {
		if s.Local {
			return false
		}
		switch s.Kind {
		case Load, Store, Add, AddOnly, CAS, Inc, Acquire, Release, Done, Wait, Join:
		case Lock, TryLock, Spawn:
			if !supported(s.Body) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// Generate returns the program of seed under gen's default options (gen
// version 2, at most 11 steps), if the runner models it.
func Generate(seed uint64) (*Program, bool) { return GenerateWith(seed, gen.DefaultOptions) }

// GenerateWith returns the program of seed under o, if the runner models
// it.
func GenerateWith(seed uint64, o gen.Options) (*Program, bool) {
	p := gen.NewWith(seed, o)
	return p, Supported(p)
}
