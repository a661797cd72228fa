// This file implements getg on the architectures without an assembly
// version: from the goroutine's number in its stack trace (slower).

//go:build !amd64 && !arm64

package engine

// getg returns an identity of the running goroutine: its number, read from
// the first line of its stack trace ("goroutine 18 [running]:").
func getg() uintptr { return uintptr(goid()) }
