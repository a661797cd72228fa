// This file models the operations on threads (a Join, an await) and
// those on no object (inputs, symbolic branches), which never block.

package model

import "github.com/weft-go/weft/trace"

func init() {
	register(&primitive{class: trace.ClassThread, ops: []opModel{
		{kind: trace.KindJoin, enabled: (*State).joinEnabled, outcome: (*State).joinOutcome},
		{kind: trace.KindAwait, enabled: (*State).awaitReady},
	}})
	register(&primitive{class: trace.ClassNone, ops: []opModel{
		{kind: trace.KindInput},
		{kind: trace.KindBranch},
	}})
}

// joinEnabled is the enabledness of a Join of thread Op.Arg: it is done.
func (s *State) joinEnabled(_ trace.ThreadID, op trace.Op) Verdict {
	t := int(op.Arg)
	return verdict(t >= 0 && t < len(s.Threads) && s.Threads[t].Done)
}

// joinOutcome is the outcome of a Join: it synchronises with the joined
// thread's last event.
func (s *State) joinOutcome(_ trace.ThreadID, op trace.Op, out Outcome) Outcome {
	if t := int(op.Arg); t >= 0 && t < len(s.Threads) {
		out.Source = s.Threads[t].Last
	}
	return out
}
