// This file defines Report, the data of a failing execution that the page
// draws.

package htmlreport

// Report is a failing execution, as the page draws it. Threads are
// numbered from 0 by their index in Threads; NoThread (-1) is none.
type Report struct {
	Kind    string // the failure's kind: "deadlock", "data race", ...
	Message string
	// Summary says which execution it is and how long, as the text
	// report's first line does ("execution 4, 7 steps, 2 switches").
	Summary string
	// Thread is the thread that failed, or NoThread (a deadlock, a leak).
	Thread  int
	Threads []Thread
	// Steps is the interleaving as reported (shortened, if weft shortened
	// it); Found, if not nil, the interleaving as the exploration found
	// it, which the page shows on a toggle.
	Steps []Step
	Found []Step
	// Blocked lists the threads left blocked at the end; Cycle is a cycle
	// of threads each waiting for a lock the next one holds, if any.
	Blocked []Blocked
	Cycle   []int
	// Race holds, for a data race, the steps (from 1) of its two
	// accesses, which the page marks.
	Race   []int
	Inputs []string // the inputs read, in order, as "x=3"
	// Notes are lines the report adds under the message (such as a slow
	// thread a failure with time at any step needs).
	Notes  []string
	Token  string // the replay token
	Replay string // the command that replays it
}

// NoThread is the thread of a Report field that names none.
const NoThread = -1

// Thread is a thread of the execution: its label ("T1", "T1(producer)"),
// its parent (NoThread for the first) and the step (from 1) in whose local
// code the parent started it, 0 for a thread started before the first
// step.
type Thread struct {
	Label  string
	Parent int
	Start  int
}

// Step is one step of the interleaving.
type Step struct {
	Thread int
	// Op describes the operation, with the value read or written ("load
	// x = 1"); Kind is its kind ("lock", "recv", ...) and Object the name
	// of the object it touched, "" for none.
	Op     string
	Kind   string
	Object string
	// File and Line are where the thread called it; File is "" if unknown.
	File string
	Line int
	// Partner is the other thread of a rendezvous on an unbuffered
	// channel (the sender: the step is the receiver's), or NoThread.
	Partner int
	// Sync is the step (from 1) this one synchronises with, 0 for none:
	// the unlock before a lock, the send or close a receive took its value
	// from, the joined thread's last step, the store a load read.
	Sync int
}

// Blocked is a thread left blocked at the end: its pending operation,
// where it calls it, and the thread that holds the lock it waits for
// (NoThread if none), which, if HolderWaits, does not hold it but waits
// for it ahead of it (a writer of an RWMutex).
type Blocked struct {
	Thread      int
	Op          string
	File        string
	Line        int
	Holder      int
	HolderWaits bool
}
