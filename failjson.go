// This file writes the failures Check reports as JSON files for weft test
// -json, which adds them to the failing test's event.

package weft

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/weft-go/weft/internal/failjson"
	"github.com/weft-go/weft/trace"
)

// FailuresEnv, set to a directory, makes Check write each failure it
// reports into it as JSON, named after a hash of its replay token: weft
// test -json sets it, and adds the failures to the failing tests' events.
const FailuresEnv = "WEFT_FAILURES"

// jsonSteps is the interleaving steps in JSON.
func (f *Failure) jsonSteps(steps []Step) []failjson.Step {
	out := make([]failjson.Step, len(steps))
	for i, s := range steps {
		js := failjson.Step{Thread: f.ThreadLabel(s.Thread), Op: s.Op, Object: s.Object, At: place(s.File, s.Line), Source: s.Sync}
		if s.Partner != trace.NoThread {
			js.With = f.ThreadLabel(s.Partner)
		}
		out[i] = js
	}
	return out
}

// jsonBlocked is the threads f left blocked, in JSON.
func (f *Failure) jsonBlocked() []failjson.Blocked {
	var out []failjson.Blocked
	for _, b := range f.Blocked {
		jb := failjson.Blocked{Thread: f.ThreadLabel(b.Thread), Op: b.Op, At: place(b.File, b.Line)}
		if b.Holder != trace.NoThread {
			jb.HeldBy, jb.WaitingWriter = f.ThreadLabel(b.Holder), b.HolderWaits
		}
		out = append(out, jb)
	}
	return out
}

// writeJSONFile writes f, a failure of the test named test replayed by
// cmd, with its HTML report's path (or ""), into dir as JSON.
func (f *Failure) writeJSONFile(dir, test, cmd, html string) error {
	jf := failjson.Failure{Test: test, Kind: f.Kind.String(), Message: f.Message, Token: f.Token, Replay: cmd,
		Interleaving: f.jsonSteps(f.Steps), Blocked: f.jsonBlocked(), HTML: html}
	if f.Thread != trace.NoThread {
		jf.Thread = f.ThreadLabel(f.Thread)
	}
	for _, p := range f.Cycle {
		jf.Cycle = append(jf.Cycle, f.ThreadLabel(p))
	}
	b, err := json.Marshal(jf)
	if err != nil {
		return fmt.Errorf("failure as JSON: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("failure as JSON: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, FailureFileName(f.Token)), b, 0o644); err != nil {
		return fmt.Errorf("failure as JSON: %w", err)
	}
	return nil
}

// FailureFileName is the name of the JSON file of the failure with replay
// token token in the directory FailuresEnv names.
func FailureFileName(token string) string { return tokenHash(token) + ".json" }
