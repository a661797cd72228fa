// This file tests which explorations record the misuse of a goroutine that
// a thread started.

package engine

import "testing"

// TestMisuseRecordedByOwner checks that a misuse is recorded in the Exec
// whose thread started the goroutine (the owner), whether it runs now or
// is between two batches of executions; while it is between batches, in
// the running Execs of the same exploration (which share its naming
// tables) too; and never in an Exec of another exploration that runs
// beside it (a test that calls t.Parallel), for which it would be a false
// alarm. Before, an owner between batches had every running Exec record
// it.
func TestMisuseRecordedByOwner(t *testing.T) {
	// The slots the test takes are freed at the end; the highest slot
	// used goes back too, so that later tests take Current's common path
	// (one exploration) as they would alone.
	high := activeHigh.Load()
	t.Cleanup(func() { activeHigh.Store(high) })
	for _, ownerActive := range []bool{true, false} {
		names := NewNames()
		owner, sibling := NewExec(Config{Names: names}), NewExec(Config{Names: names})
		stranger := NewExec(Config{})
		defer owner.Close()
		defer sibling.Close()
		defer stranger.Close()
		activate(sibling)
		activate(stranger)
		if ownerActive {
			activate(owner)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			misused(owner) // ends the goroutine
			t.Error("misused returned")
		}()
		<-done
		deactivate(owner)
		deactivate(sibling)
		deactivate(stranger)
		for _, c := range []struct {
			name string
			e    *Exec
			want bool
		}{
			{"owner", owner, true},
			{"its exploration's other worker", sibling, !ownerActive},
			{"another exploration", stranger, false},
		} {
			msg, got := c.e.TakeMisuse()
			if got != c.want {
				t.Errorf("owner active %v: %s recorded the misuse: %v, want %v (%q)", ownerActive, c.name, got, c.want, msg)
			}
		}
	}
}
