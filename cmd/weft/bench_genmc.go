// This file gives the speed table's GenMC columns, from the figures
// scripts/genmc.sh measures on this machine kind and commits (genmc.txt).

package main

import (
	_ "embed"
	"fmt"
	"strconv"
)

//go:embed genmc.txt
var genmcText string

// genmc are the committed figures of GenMC (Kokologiannakis and
// Vafeiadis, CAV 2021) under sequential consistency, parsed once.
var genmc = mustParsePeer(genmcText, "genmc")

// genmcOpts are the options scripts/genmc.sh runs GenMC with.
const genmcOpts = "-sc -disable-estimation"

// countCols returns the speed table's columns of f for the row labelled
// label beside weft's cell c: f's executions, its CPU time, and c's CPU
// time per execution over f's ("0.50x": weft spends half as long on an
// execution), "-" where a figure is missing.
func (f peerFigures) countCols(label string, c benchCell) []string {
	r, ok := f.rows[label]
	if !ok || r.traces < 0 {
		return []string{"-", "-", "-"}
	}
	ratio := "-"
	if r.traces > 0 && r.cpu > 0 && c.MeanExecs > 0 && c.CPUS > 0 {
		ratio = fmt.Sprintf("%.2fx", (c.CPUS/c.MeanExecs)/(r.cpu/float64(r.traces)))
	}
	return []string{strconv.Itoa(r.traces), formatSeconds(r.cpu), ratio}
}
