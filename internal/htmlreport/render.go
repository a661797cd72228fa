// This file renders a Report as a self-contained HTML page.

package htmlreport

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"
)

//go:embed page.html.tmpl
var pageText string

var pageTmpl = template.Must(template.New("page").Funcs(template.FuncMap{
	"laneW":        func() int { return laneW },
	"boxW":         func() int { return boxW },
	"boxH":         func() int { return boxH },
	"arrowClasses": func() []string { return arrowClasses },
	"arrowClass":   func(class string) string { return strings.TrimPrefix(class, "arrow ") },
}).Parse(pageText))

// arrowClasses are the kinds of arrows, each with its colour and head.
var arrowClasses = []string{"sync", "rendezvous", "spawn", "join", "rf", "waits"}

// page is what the template draws.
type page struct {
	R            *Report
	Short, Found *diagram
	Blocked      []blockedRow
	Cycle        string
	Failed       string // the label of the thread that failed, or ""
}

// blockedRow is a blocked thread in the table under the diagram.
type blockedRow struct {
	Thread, Op, Place, Title, Holder string
	URL                              template.URL
	HolderWaits                      bool
}

// Render writes the page of r to w.
func Render(w io.Writer, r *Report) error {
	p := &page{R: r, Short: layout(r, "short", r.Steps, true)}
	if r.Found != nil {
		p.Found = layout(r, "found", r.Found, false)
	}
	if r.Thread >= 0 {
		p.Failed = r.label(r.Thread)
	}
	for _, x := range r.Blocked {
		b := blockedRow{Thread: r.label(x.Thread), Op: x.Op, HolderWaits: x.HolderWaits}
		b.Place, b.URL, b.Title = source(x.File, x.Line)
		if x.Holder >= 0 {
			b.Holder = r.label(x.Holder)
		}
		p.Blocked = append(p.Blocked, b)
	}
	if len(r.Cycle) > 0 {
		var names []string
		for _, t := range r.Cycle {
			names = append(names, r.label(t))
		}
		p.Cycle = strings.Join(append(names, names[0]), " → ")
	}
	var b bytes.Buffer
	if err := pageTmpl.Execute(&b, p); err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	return nil
}
