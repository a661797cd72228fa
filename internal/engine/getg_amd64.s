// This file implements getg on amd64: the address of the running
// goroutine's runtime descriptor, read from thread-local storage.

#include "textflag.h"

// func getg() uintptr
TEXT ·getg(SB), NOSPLIT, $0-8
	MOVQ (TLS), AX
	MOVQ AX, ret+0(FP)
	RET
