// This file tests weft run's flags for reach's reductions: -pv and
// -symmetric.

package main

import (
	"strings"
	"testing"
)

// TestRunReachReductions: the P/V reduction takes the semaphore bounded
// buffer from 324 sequences to 36 (free runs in thread order, -seed 0),
// and with the producers and the consumers symmetric to 1; symmetry
// takes the SU monitor bounded buffer from 720 to 106 (the counts of
// strategy/reach's TestReductions), and on two workers too. Either flag
// without -strategy reach or with -nats, and a group of fewer than two
// threads, are usage errors.
func TestRunReachReductions(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-pv", "bbsem"}, "executions              36 "},
		{[]string{"-pv", "-p", "nested=0", "bbsem"}, "executions              432 "},
		{[]string{"-pv", "-symmetric", "0-2", "-symmetric", "3,4,5", "bbsem"}, "executions              1 "},
		{[]string{"-symmetric", "0,1,2", "-symmetric", "3-5", "-p", "su=1", "bbmonitor"}, "executions              106 "},
		{[]string{"-pv", "-workers", "2", "bbsem"}, "executions              36 "},
	} {
		args := append([]string{"run", "-strategy", "reach", "-seed", "0"}, tc.args...)
		code, stdout, stderr := runCmd(t, args...)
		if code != 0 || !strings.Contains(stdout, tc.want) {
			t.Errorf("%v: exit status %d, want 0 and %q\nstdout:\n%s\nstderr:\n%s", args, code, tc.want, stdout, stderr)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "-pv", "bbsem"}, "-pv and -symmetric are reductions of the reach strategy"},
		{[]string{"run", "-strategy", "optimal", "-symmetric", "0,1", "bbsem"}, "-pv and -symmetric are reductions of the reach strategy"},
		{[]string{"run", "-strategy", "reach", "-symmetric", "1", "bbsem"}, "a symmetry group needs two threads or more"},
		{[]string{"run", "-strategy", "reach", "-pv", "-nats", "embedded", "bbsem"}, "do not go to the workers of a distributed run"},
		{[]string{"run", "-strategy", "reach", "-symmetric", "2-1", "bbsem"}, "is not a range of ranks"},
		{[]string{"run", "-strategy", "reach", "-symmetric", "a,b", "bbsem"}, "is not a thread rank"},
	} {
		code, _, stderr := runCmd(t, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit status %d, stderr %q; want %d and %q", tc.args, code, stderr, exitUsage, tc.want)
		}
	}
}
