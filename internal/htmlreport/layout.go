// This file lays out the space-time diagram of an interleaving: a lane per
// thread, a row per step, a box per step and an arrow per happens-before
// edge between two threads, in pixels.

package htmlreport

import (
	"fmt"
	"html/template"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// The geometry of a diagram, in CSS pixels.
const (
	gutter = 48  // the column of step numbers
	laneW  = 232 // a lane's width
	boxW   = 212 // a box's width
	boxH   = 40  // a box's height
	rowH   = 52  // a row's height
	headH  = 48  // the lane headers' height
	padX   = (laneW - boxW) / 2
	padY   = (rowH - boxH) / 2
)

// diagram is one interleaving laid out.
type diagram struct {
	ID            string // "short" or "found"
	Width, Height int
	Lanes         []lane
	Rows          []row
	Boxes         []box
	Arrows        []arrow
}

// lane is a thread's column: its header and its line.
type lane struct {
	Thread        int
	Label         string
	X, Mid        int // its left edge and centre
	Top, LineH    int // where its line starts, and its length
	Failed, Stuck bool
}

// row is a step's number in the gutter.
type row struct{ N, Y int }

// box is a step (or, for a rendezvous, its partner's side, or a blocked
// thread's pending operation) drawn in a lane.
type box struct {
	ID         string
	Thread     int
	Step       int    // from 1; 0 for a blocked thread's pending operation
	Class      string // "step", "step ghost" (rendezvous partner), "step blocked"
	X, Y       int
	Op, Kind   string
	Object     string
	Place      string       // file:line, the file's base name
	URL        template.URL // the source file, as a file:// URL
	Title      string       // the full path and line, for the tooltip
	Edges      string       // the ids of its arrows, space-separated
	mid, right int
}

// arrow is a happens-before edge from one thread's box to another's, or a
// blocked thread's wait for the holder of its lock.
type arrow struct {
	ID             string
	Class          string // "arrow " + sync, rf, rendezvous, spawn, join or waits
	Kind           string // the target step's kind
	X1, Y1, X2, Y2 int
	Title          string
}

// layout lays out steps, the interleaving of r to draw as diagram id; the
// threads blocked at the end, with their waits, are drawn only under the
// reported interleaving (blocked), whose end they describe.
func layout(r *Report, id string, steps []Step, blocked bool) *diagram {
	n := len(r.Threads)
	for _, s := range steps {
		n = max(n, s.Thread+1, s.Partner+1)
	}
	rows := len(steps)
	if blocked && len(r.Blocked) > 0 {
		rows++
	}
	d := &diagram{ID: id, Width: gutter + n*laneW + 8, Height: headH + rows*rowH + 8}
	for p := range n {
		d.Lanes = append(d.Lanes, lane{Thread: p, Label: r.label(p), X: gutter + p*laneW, Mid: gutter + p*laneW + laneW/2,
			Top: headH, LineH: d.Height - headH - 4, Failed: p == r.Thread})
	}
	first := make([]int, n) // index in Boxes of each thread's first box, -1 for none
	for p := range first {
		first[p] = -1
	}
	at := make([]int, len(steps))    // index in Boxes of each step's box
	ghost := make([]int, len(steps)) // of its partner's side of a rendezvous
	add := func(b box) int {
		b.X, b.mid, b.right = gutter+b.Thread*laneW+padX, b.Y+boxH/2, gutter+b.Thread*laneW+padX+boxW
		d.Boxes = append(d.Boxes, b)
		if first[b.Thread] < 0 {
			first[b.Thread] = len(d.Boxes) - 1
		}
		return len(d.Boxes) - 1
	}
	for i, s := range steps {
		y := headH + i*rowH + padY
		d.Rows = append(d.Rows, row{N: i + 1, Y: y})
		b := box{ID: fmt.Sprintf("%s-s%d", id, i+1), Thread: s.Thread, Step: i + 1, Class: "step", Y: y,
			Op: s.Op, Kind: s.Kind, Object: s.Object}
		b.Place, b.URL, b.Title = source(s.File, s.Line)
		if blocked && slices.Contains(r.Race, i+1) {
			b.Class = "step race"
		}
		if s.Partner >= 0 {
			g := box{ID: b.ID + "-partner", Thread: s.Partner, Step: i + 1, Class: "step ghost", Y: y,
				Op: partnerOp(s), Kind: "send", Object: s.Object}
			ghost[i] = add(g)
			at[i] = add(b)
			d.arrow(ghost[i], at[i], "rendezvous", s.Kind, fmt.Sprintf("rendezvous at step %d: %s sends to %s", i+1, r.label(s.Partner), r.label(s.Thread)))
			continue
		}
		at[i] = add(b)
	}
	if blocked && len(r.Blocked) > 0 {
		y := headH + len(steps)*rowH + padY
		byThread := map[int]int{}
		for _, x := range r.Blocked {
			b := box{ID: fmt.Sprintf("%s-blocked-%d", id, x.Thread), Thread: x.Thread, Class: "step blocked", Y: y, Op: "blocked: " + x.Op}
			b.Place, b.URL, b.Title = source(x.File, x.Line)
			byThread[x.Thread] = add(b)
			d.Lanes[x.Thread].Stuck = true
		}
		for _, x := range r.Blocked {
			if x.Holder < 0 || x.Holder >= n {
				continue
			}
			from := byThread[x.Thread]
			to, ok := byThread[x.Holder]
			if !ok {
				// A holder that is not blocked: point at its lane.
				to = add(box{ID: fmt.Sprintf("%s-holder-%d", id, x.Holder), Thread: x.Holder, Class: "step ghost", Y: y, Op: "holds it"})
			}
			what := "held by"
			if x.HolderWaits {
				what = "behind waiting writer"
			}
			d.arrow(from, to, "waits", "", fmt.Sprintf("%s waits: %s, %s %s", r.label(x.Thread), x.Op, what, r.label(x.Holder)))
		}
	}
	// Happens-before between threads: synchronisation, then spawns.
	for i, s := range steps {
		if s.Sync < 1 || s.Sync > i {
			continue
		}
		src, from := steps[s.Sync-1], at[s.Sync-1]
		if src.Thread == s.Thread {
			if src.Partner < 0 || src.Partner == s.Thread {
				continue // program order
			}
			from = ghost[s.Sync-1] // the partner's side of a rendezvous
		}
		class, rel := "sync", "happens before"
		switch s.Kind {
		case "load", "add", "swap", "cas":
			// A plain variable's read orders nothing: it only shows
			// where the value came from.
			class, rel = "rf", "wrote the value read by"
		case "join":
			class = "join"
		}
		d.arrow(from, at[i], class, s.Kind, fmt.Sprintf("step %d (%s: %s) %s step %d (%s: %s)",
			s.Sync, r.label(src.Thread), src.Op, rel, i+1, r.label(s.Thread), s.Op))
	}
	for p, th := range r.Threads {
		if th.Parent < 0 || th.Parent >= n || first[p] < 0 || th.Start > len(steps) {
			continue
		}
		to := first[p]
		if th.Start == 0 || steps[th.Start-1].Thread != th.Parent {
			// Started before the first step: from the top of the parent's lane.
			b := &d.Boxes[to]
			// It ends on the top of the child's first box, clear of the
			// arrows that meet the box's side.
			d.Arrows = append(d.Arrows, arrow{ID: fmt.Sprintf("%s-a%d", id, len(d.Arrows)+1), Class: "arrow spawn",
				X1: d.Lanes[th.Parent].Mid, Y1: headH, X2: b.X + boxW/2, Y2: b.Y,
				Title: fmt.Sprintf("%s starts %s", r.label(th.Parent), r.label(p))})
			b.Edges = strings.TrimSpace(b.Edges + " " + d.Arrows[len(d.Arrows)-1].ID)
			continue
		}
		d.arrow(at[th.Start-1], to, "spawn", "go", fmt.Sprintf("%s starts %s at step %d", r.label(th.Parent), r.label(p), th.Start))
	}
	return d
}

// arrow adds an arrow of class from box i to box j, from the side of i
// that faces j to the side of j that faces i.
func (d *diagram) arrow(i, j int, class, kind, title string) {
	a, b := &d.Boxes[i], &d.Boxes[j]
	x1, x2 := a.right, b.X
	if b.Thread < a.Thread {
		x1, x2 = a.X, b.right
	}
	y1, y2 := a.mid, b.mid
	if y1 == y2 && class == "waits" {
		// Two threads that wait for each other: one arrow above the
		// other.
		shift := 7
		if b.Thread < a.Thread {
			shift = -shift
		}
		y1, y2 = y1-shift, y2-shift
	}
	id := fmt.Sprintf("%s-a%d", d.ID, len(d.Arrows)+1)
	d.Arrows = append(d.Arrows, arrow{ID: id, Class: "arrow " + class, Kind: kind, X1: x1, Y1: y1, X2: x2, Y2: y2, Title: title})
	a.Edges = strings.TrimSpace(a.Edges + " " + id)
	b.Edges = strings.TrimSpace(b.Edges + " " + id)
}

// partnerOp describes the partner's side of rendezvous s.
func partnerOp(s Step) string {
	if s.Object == "" {
		return "rendezvous"
	}
	return "send " + s.Object
}

// label is thread p's label.
func (r *Report) label(p int) string {
	if p >= 0 && p < len(r.Threads) && r.Threads[p].Label != "" {
		return r.Threads[p].Label
	}
	return "T" + strconv.Itoa(p)
}

// source returns how a box shows the source position file:line: the
// file's base name and the line, a file:// URL of the file, and the full
// path and line; all empty for an unknown file.
func source(file string, line int) (place string, u template.URL, title string) {
	if file == "" {
		return "", "", ""
	}
	place = filepath.Base(file) + ":" + strconv.Itoa(line)
	title = file + ":" + strconv.Itoa(line)
	if filepath.IsAbs(file) {
		// A URL built from a path weft recorded: safe to link.
		u = template.URL((&url.URL{Scheme: "file", Path: filepath.ToSlash(file)}).String())
	}
	return place, u, title
}
