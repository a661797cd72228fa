// This file implements getg on arm64: the address of the running
// goroutine's runtime descriptor, held in the g register.

#include "textflag.h"

// func getg() uintptr
TEXT ·getg(SB), NOSPLIT, $0-8
	MOVD g, R0
	MOVD R0, ret+0(FP)
	RET
