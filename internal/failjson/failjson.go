// This file defines the JSON form of a failure, its steps and its blocked
// threads.

package failjson

// Step is one step of a failing interleaving.
type Step struct {
	Thread string `json:"thread"` // as reports name it: "T1", "T1(name)"
	// Op is the operation as the report shows it, with the value read or
	// written ("load x = 1"); Object the name of the object it touched.
	Op     string `json:"op"`
	Object string `json:"object,omitempty"`
	At     string `json:"at,omitempty"` // file:line, the file's base name
	// With is the other thread of a rendezvous on an unbuffered channel
	// (the sender; the step is the receiver's).
	With string `json:"with,omitempty"`
	// Source is the step (from 1) this one synchronises with (the unlock
	// before a lock, the send or close a receive took its value from, the
	// joined thread's last step) or, for a load, whose stored value it
	// read; 0 (omitted) for none.
	Source int `json:"source,omitempty"`
}

// Blocked is a thread a deadlock or a leak left blocked.
type Blocked struct {
	Thread string `json:"thread"` // as reports name it
	Op     string `json:"op"`     // what it waits for, as in the report
	At     string `json:"at"`     // where: file:line, the file's base name
	// HeldBy is the thread holding the mutex it waits to lock, if any;
	// for a read lock of an RWMutex, possibly a writer that waits for it
	// (WaitingWriter): new readers wait behind it.
	HeldBy        string `json:"held_by,omitempty"`
	WaitingWriter bool   `json:"waiting_writer,omitempty"`
}

// Failure is a failure that Check reported, as weft test -json adds it to
// the failing test's event (WeftFailures).
type Failure struct {
	Test    string `json:"test"` // the test's name, t.Name()
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Token   string `json:"token"`
	Replay  string `json:"replay"` // the command that replays it
	// Thread is the thread that failed; empty for a deadlock or a leak.
	Thread       string    `json:"thread,omitempty"`
	Interleaving []Step    `json:"interleaving"`
	Blocked      []Blocked `json:"blocked,omitempty"`
	// Cycle is a cycle of threads each waiting for a mutex the next holds.
	Cycle []string `json:"cycle,omitempty"`
	HTML  string   `json:"html,omitempty"` // its HTML report (-html)
}
