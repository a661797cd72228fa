// This file describes the strategy's decisions, for debugging (SetLog).

package optimal

import (
	"fmt"

	"github.com/weft-go/weft/trace"
)

// log describes a decision at node d: its event or thread x, and a sleep
// set.
//
//go:noinline
func (s *Strategy) log(format string, d int, x any, sleep any) {
	if z, ok := sleep.([]event); ok {
		sleep = sleepLabels(z)
	}
	if x == nil {
		s.logf(format, d, sleep)
		return
	}
	s.logf(format, d, x, sleep)
}

func sleepLabels(z []event) []string {
	var out []string
	for i := range z {
		out = append(out, z[i].String())
	}
	return out
}

// String describes e for logs.
func (e *event) String() string {
	s := fmt.Sprintf("%v.%d:%v", e.Thread, e.step, e.Op)
	if e.Case >= 0 {
		s += fmt.Sprintf("#%d", e.Case)
	}
	if e.Partner != trace.NoThread {
		s += fmt.Sprintf("<-%v.%d", e.Partner, e.pstep)
	}
	if e.fails {
		s += "!"
	}
	return s
}

func seqString(seq []*event) string {
	s := ""
	for _, e := range seq {
		s += e.String() + " "
	}
	return s
}
