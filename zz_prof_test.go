package weft_test

import (
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/programs"
)

func BenchmarkZZFib5(b *testing.B) {
	for b.Loop() {
		weft.Explore(programs.Lookup("fib").MustBody(map[string]int{"n": 4}), weft.WithStrategy("optimal"), weft.NoReplayFiles(), weft.KeepGoing())
	}
}
