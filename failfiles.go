// This file writes the files a failure leaves for tools: its HTML report
// (the page of package internal/htmlreport, drawn from a Failure) and its
// JSON for weft test -json, which adds it to the failing test's event.

package weft

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/weft-go/weft/internal/failjson"
	"github.com/weft-go/weft/internal/htmlreport"
	"github.com/weft-go/weft/trace"
)

// HTMLEnv, set to a directory, makes Check write the HTML report of each
// failure it reports into it (Failure.WriteHTML), one file per failure,
// and say where in the failing test's message. weft test -html sets it.
const HTMLEnv = "WEFT_HTML"

// WriteHTML writes f as a self-contained HTML page to w: a space-time
// diagram of its interleaving with a lane per thread and arrows for
// happens-before between threads, the threads left blocked and the cycle
// of waits, the values read and written, and replayCmd, the command that
// replays it. A shortened interleaving is drawn, and the interleaving as
// the exploration found it is on a toggle.
func (f *Failure) WriteHTML(w io.Writer, replayCmd string) error {
	return htmlreport.Render(w, f.htmlReport(replayCmd))
}

// htmlReport is the data of f's HTML page.
func (f *Failure) htmlReport(replayCmd string) *htmlreport.Report {
	r := &htmlreport.Report{Kind: f.Kind.String(), Message: strings.TrimRight(f.Message, "\n"), Thread: htmlThread(f.Thread),
		Token: f.Token, Replay: replayCmd, Cycle: []int{}}
	r.Summary = fmt.Sprintf("execution %d, %s", f.Execution, plural(len(f.Steps), "step", "steps"))
	if f.FoundSteps != 0 {
		r.Summary += fmt.Sprintf(", %s; shortened from %d steps, %s", plural(f.Switches, "switch", "switches"), f.FoundSteps, plural(f.FoundSwitches, "switch", "switches"))
	}
	if f.SlowStep > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("found with time at any step: it needs a goroutine to be slower than a timer (at step %d the clock advanced while %s could still move)", f.SlowStep, f.ThreadLabel(f.SlowThread)))
	}
	for _, in := range f.Inputs {
		r.Inputs = append(r.Inputs, fmt.Sprint(in))
	}
	n := len(f.Threads)
	for _, s := range f.Steps {
		n = max(n, int(s.Thread)+1, int(s.Partner)+1)
	}
	for p := range n {
		th := htmlreport.Thread{Label: f.ThreadLabel(trace.ThreadID(p)), Parent: htmlreport.NoThread}
		if p < len(f.Threads) {
			th.Parent, th.Start = htmlThread(f.Threads[p].Parent), f.Threads[p].Step
		}
		r.Threads = append(r.Threads, th)
	}
	r.Steps = htmlSteps(f.Steps)
	if f.Found != nil {
		r.Found = htmlSteps(f.Found)
	}
	for _, b := range f.Blocked {
		r.Blocked = append(r.Blocked, htmlreport.Blocked{Thread: int(b.Thread), Op: b.Op, File: b.File, Line: b.Line,
			Holder: htmlThread(b.Holder), HolderWaits: b.HolderWaits})
	}
	if f.RaceSteps[0] > 0 {
		r.Race = f.RaceSteps[:]
	}
	for _, p := range f.Cycle {
		r.Cycle = append(r.Cycle, int(p))
	}
	return r
}

// htmlThread is thread p in a Report: its number, or htmlreport.NoThread.
func htmlThread(p trace.ThreadID) int {
	if p == trace.NoThread {
		return htmlreport.NoThread
	}
	return int(p)
}

// htmlSteps are steps in a Report.
func htmlSteps(steps []Step) []htmlreport.Step {
	out := make([]htmlreport.Step, len(steps))
	for i, s := range steps {
		out[i] = htmlreport.Step{Thread: int(s.Thread), Op: s.Op, Kind: s.Kind.String(), Object: s.Object,
			File: s.File, Line: s.Line, Partner: htmlThread(s.Partner), Sync: s.Sync}
	}
	return out
}

// HTMLFileName is the name of the HTML report of f in a directory of
// reports: the test's name (or the program's) and the failure's kind,
// with a hash of its token that tells failures apart, as in
// "TestBank-deadlock-1a2b3c4d5e6f.html".
func (f *Failure) HTMLFileName(name string) string {
	clean := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, name)
	return clean + "-" + strings.ReplaceAll(f.Kind.String(), " ", "_") + "-" + tokenHash(f.Token) + ".html"
}

// writeHTMLFile writes the HTML report of f into dir, named after name
// (HTMLFileName), and returns its path.
func (f *Failure) writeHTMLFile(dir, name, replayCmd string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("html report: %w", err)
	}
	path := filepath.Join(dir, f.HTMLFileName(name))
	file, err := os.Create(path)
	if err != nil {
		return "", fmt.Errorf("html report: %w", err)
	}
	if err := f.WriteHTML(file, replayCmd); err != nil {
		file.Close()
		return "", err
	}
	if err := file.Close(); err != nil {
		return "", fmt.Errorf("html report: %w", err)
	}
	return path, nil
}

// tokenHash is a short hash of token that names its files.
func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:6])
}

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
