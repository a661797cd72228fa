// Package weft is the part of weft's API the analyzer's tests use: the
// analyzer knows weft by its import path and these names.
package weft

import "testing"

type T struct{}

func (w *T) Go(f func()) *Thread { return nil }

type Thread struct{}

func (t *Thread) Join() {}

func Go(f func()) *Thread { return nil }

type WaitGroup struct{}

func (wg *WaitGroup) Go(f func()) {}
func (wg *WaitGroup) Wait()       {}

type Var[V comparable] struct{ v V }

func (v *Var[V]) Load() V   { return v.v }
func (v *Var[V]) Store(x V) { v.v = x }

type Chan[V any] struct{}

func (c *Chan[V]) Send(v V) {}

func Check(t testing.TB, body func(w *T)) {}
