// This file implements the attributes of the worker processes of weft run
// -nats embedded where the system cannot tie a process to its parent's
// life: a worker whose coordinator died ends when it loses the server.

//go:build !linux

package main

import "syscall"

// workerAttr returns the attributes of a worker process: the defaults.
func workerAttr() *syscall.SysProcAttr { return nil }
