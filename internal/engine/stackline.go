// This file corrects, in the stacks of a watchdog report, the line of a
// frame that the Go runtime places on line 1: the compiler gives the jump
// back to the head of a loop with an empty body (for !flag {}) no line of
// its own, and a goroutine spinning in such a loop is mostly caught there.

package engine

import (
	"runtime"
	"strconv"
	"strings"
)

// fixLineOne returns stacks, the text of goroutine stacks (runtime.Stack),
// with each frame placed on line 1 placed instead on the line of the
// nearest instruction before it in its function that has a line: the
// loop's. A frame whose function is on no goroutine's stack any more is
// left as it is.
func fixLineOne(stacks string) string {
	lines := strings.Split(stacks, "\n")
	var entries map[string]uintptr
	changed := false
	for i := 1; i < len(lines); i++ {
		file, off, ok := lineOneFrame(lines[i])
		if !ok {
			continue
		}
		name := lines[i-1]
		if j := strings.LastIndexByte(name, '('); j > 0 {
			name = name[:j]
		}
		if entries == nil {
			entries = funcEntries()
		}
		entry, ok := entries[name]
		if !ok {
			continue
		}
		if line := lineBefore(entry, entry+off); line > 1 {
			lines[i] = strings.Replace(lines[i], file+":1 ", file+":"+strconv.Itoa(line)+" ", 1)
			changed = true
		}
	}
	if !changed {
		return stacks
	}
	return strings.Join(lines, "\n")
}

// lineOneFrame parses s, a frame's place in a stack ("\tfile:1 +0x1"),
// and returns its file and offset in its function if its line is 1.
func lineOneFrame(s string) (file string, off uintptr, ok bool) {
	s, ok = strings.CutPrefix(s, "\t")
	if !ok {
		return "", 0, false
	}
	place, hex, ok := strings.Cut(s, " +0x")
	if !ok {
		return "", 0, false
	}
	file, ok = strings.CutSuffix(place, ":1")
	if !ok {
		return "", 0, false
	}
	if sp := strings.IndexByte(hex, ' '); sp >= 0 {
		hex = hex[:sp] // " fp=... sp=... pc=..." with GOTRACEBACK=system
	}
	n, err := strconv.ParseUint(hex, 16, 64)
	if err != nil {
		return "", 0, false
	}
	return file, uintptr(n), true
}

// funcEntries returns the entry of every function on some goroutine's
// stack, by name.
func funcEntries() map[string]uintptr {
	n, _ := runtime.GoroutineProfile(nil)
	var recs []runtime.StackRecord
	for {
		recs = make([]runtime.StackRecord, n+16)
		var ok bool
		if n, ok = runtime.GoroutineProfile(recs); ok {
			recs = recs[:n]
			break
		}
	}
	entries := map[string]uintptr{}
	for _, r := range recs {
		for _, pc := range r.Stack() {
			// A return address, or one past the leaf's instruction: the
			// instruction before it is in the function.
			if f := runtime.FuncForPC(pc - 1); f != nil {
				entries[f.Name()] = f.Entry()
			}
		}
	}
	return entries
}

// lineBefore returns the line of the nearest instruction before pc, down
// to entry, in pc's function, that is not on line 1; or 0 if none is.
func lineBefore(entry, pc uintptr) int {
	f := runtime.FuncForPC(pc)
	if f == nil || f.Entry() != entry {
		return 0
	}
	for q := pc; q > entry; {
		q--
		if _, line := f.FileLine(q); line > 1 {
			return line
		}
	}
	return 0
}
