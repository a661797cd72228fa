// Package htmlreport draws a failing execution as a self-contained HTML
// page: a space-time diagram with one lane per goroutine (thread), its
// steps in order as boxes (operation, object, value, source line), arrows
// for the happens-before edges between threads (unlock to lock, send to
// receive, a rendezvous, spawn, join, close to receive, a store to the
// load that read it), the threads left blocked at the end with what they
// wait for and who holds it, the cycle of waits of a deadlock, the inputs
// and the command that replays the execution.
//
// The page needs no network: its CSS and its little JavaScript (which
// highlights a step's edges and toggles between the shortened interleaving
// and the one the exploration found) are inline, and the diagram is SVG
// and HTML laid out by Render, so it shows without JavaScript too.
//
// Package weft builds a Report from a Failure (Failure.WriteHTML); this
// package knows nothing of weft's types, only of the Report it is given.
package htmlreport
