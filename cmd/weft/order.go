// This file keeps weft test's output in package order: go test -json,
// which weft test reads, interleaves the events of the packages it runs at
// once, while go test without -json prints each package's output whole.

package main

import (
	"bytes"
	"io"
)

// packageOrder prints the output of the packages of one go test run each
// whole, in the order they started: the first package still running
// writes through, the others are held until the ones before them ended.
type packageOrder struct {
	w     io.Writer
	order []string // the packages not yet printed whole, in order of their first event
	held  map[string]*bytes.Buffer
	ended map[string]bool
}

// newPackageOrder returns a packageOrder that prints to w.
func newPackageOrder(w io.Writer) *packageOrder {
	return &packageOrder{w: w, held: map[string]*bytes.Buffer{}, ended: map[string]bool{}}
}

// writer returns where the output of package pkg goes now: w for the
// first package still running (and for output of no package), else the
// package's held output.
func (o *packageOrder) writer(pkg string) io.Writer {
	if pkg == "" || o.ended[pkg] {
		return o.w
	}
	b, ok := o.held[pkg]
	if !ok {
		b = new(bytes.Buffer)
		o.held[pkg] = b
		o.order = append(o.order, pkg)
	}
	if o.order[0] == pkg {
		return o.w
	}
	return b
}

// end records that package pkg's last event was printed, and prints the
// held output of the packages after it up to the first still running,
// whose output from then on writes through.
func (o *packageOrder) end(pkg string) {
	if _, ok := o.held[pkg]; !ok {
		return
	}
	o.ended[pkg] = true
	for len(o.order) > 0 {
		head := o.order[0]
		o.w.Write(o.held[head].Bytes())
		o.held[head].Reset()
		if !o.ended[head] {
			return
		}
		delete(o.held, head)
		o.order = o.order[1:]
	}
}

// flush prints what is held of every package, in order: go test ended.
func (o *packageOrder) flush() {
	for _, pkg := range o.order {
		o.w.Write(o.held[pkg].Bytes())
		delete(o.held, pkg)
	}
	o.order = nil
}

// packageEnd reports whether ev is the last event of its package: its
// result.
func packageEnd(ev event) bool {
	return ev.Test == "" && ev.Package != "" && (ev.Action == "pass" || ev.Action == "fail" || ev.Action == "skip")
}
