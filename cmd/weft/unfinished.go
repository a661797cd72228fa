// This file implements what weft test says of the tests a test binary
// left running when it ended: a call of os.Exit ended it, or a crash.

package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// unfinished prints, for package pkg, whose test binary failed, the
// output held of the tests it left running, and says that the binary
// ended while they ran: go test reports no result for them, and prints
// nothing of an os.Exit.
func (p *eventPrinter) unfinished(pkg string) {
	var names []string
	crashed := false
	for key := range p.running {
		if key[0] != pkg {
			continue
		}
		names = append(names, key[1])
		crashed = crashed || p.crashed[key] || slices.ContainsFunc(p.held[key], crashLine)
	}
	if len(names) == 0 {
		return
	}
	slices.Sort(names)
	for _, name := range names {
		key := [2]string{pkg, name}
		for _, s := range p.held[key] {
			io.WriteString(p.w, s)
		}
		delete(p.held, key)
		delete(p.running, key)
		delete(p.crashed, key)
	}
	running := strings.Join(names, ", ")
	if crashed {
		fmt.Fprintf(p.w, "weft test: the test binary of %s crashed while %s ran (above); its exploration did not end, and no test after it ran\n", pkg, running)
		return
	}
	fmt.Fprintf(p.w, "weft test: the test binary of %s exited while %s ran, without a result: a call of os.Exit (by the test, the code it tests or a goroutine it started) ends the test binary, and with it the exploration, which cannot report an interleaving; no test after it ran\n", pkg, running)
}

// crashLine reports whether s, a line of a test binary's output, starts
// the report of a panic or a fatal error that ends the binary.
func crashLine(s string) bool {
	return strings.HasPrefix(s, "panic: ") || strings.HasPrefix(s, "fatal error: ")
}
