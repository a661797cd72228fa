// Package cgo uses cgo, which the rewriting refuses.
package cgo

import "C"

// Done reports on a channel.
func Done(ch chan bool) { ch <- true }
