// This file implements the sources of random numbers whose state the
// threads of an execution share under weft test -race.

package shim

import (
	"math/rand"
	randv2 "math/rand/v2"

	"github.com/weft-go/weft/internal/engine"
)

// Hidden runs f, which touches state the threads of the current execution
// share with no synchronisation of the program's (a generator of the
// stand-ins), so that the race detector does not see it: in weft test
// -race's builds it runs on the execution's dispatcher, the thread
// waiting; otherwise it just runs f.
func Hidden(f func()) {
	if !engine.RaceHide {
		f()
		return
	}
	engine.Current().Exec().Hidden(f)
}

// HiddenSource returns the source mk makes, which it makes, and whose
// Uint64 runs, through Hidden in weft test -race's builds.
func HiddenSource(mk func() randv2.Source) randv2.Source {
	if !engine.RaceHide {
		return mk()
	}
	var src randv2.Source
	Hidden(func() { src = mk() })
	return hiddenV2{src}
}

type hiddenV2 struct{ src randv2.Source }

func (h hiddenV2) Uint64() (v uint64) {
	Hidden(func() { v = h.src.Uint64() })
	return v
}

// HiddenSource64 is HiddenSource for math/rand's sources.
func HiddenSource64(mk func() rand.Source64) rand.Source64 {
	if !engine.RaceHide {
		return mk()
	}
	var src rand.Source64
	Hidden(func() { src = mk() })
	return hidden64{src}
}

type hidden64 struct{ src rand.Source64 }

func (h hidden64) Int63() (v int64) {
	Hidden(func() { v = h.src.Int63() })
	return v
}

func (h hidden64) Uint64() (v uint64) {
	Hidden(func() { v = h.src.Uint64() })
	return v
}

func (h hidden64) Seed(seed int64) { Hidden(func() { h.src.Seed(seed) }) }
