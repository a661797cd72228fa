// This file implements getg on the architectures without an assembly
// version: from the goroutine's number in its stack trace (slower).

//go:build !amd64 && !arm64

package engine

import "runtime"

// getg returns an identity of the running goroutine: its number, read from
// the first line of its stack trace ("goroutine 18 [running]:").
func getg() uintptr {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	var id uintptr
	for _, c := range b[len("goroutine "):] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + uintptr(c-'0')
	}
	return id
}
