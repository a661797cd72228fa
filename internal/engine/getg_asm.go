// This file declares getg where it is written in assembly.

//go:build amd64 || arm64

package engine

// getg returns an identity of the running goroutine: the address of its
// runtime descriptor, which no other live goroutine shares. It costs a
// function call.
func getg() uintptr
