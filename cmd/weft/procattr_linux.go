// This file implements, on Linux, the tie of the worker processes of
// weft run -nats embedded to their coordinator: they are killed when it
// dies, as their embedded server dies with it.

package main

import "syscall"

// workerAttr returns the attributes of a worker process: killed
// (SIGKILL) when the process that started it dies.
func workerAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
