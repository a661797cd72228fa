// This file lets the root package's tests check the engine's incremental
// view of the threads against a full recomputation at every step.

package weft_test

import (
	"flag"
	"os"
	"testing"

	"github.com/weft-go/weft/internal/engine"
)

var checkView = flag.Bool("checkview", false, "compare the engine's incremental view of the threads with a full recomputation at every step")

func TestMain(m *testing.M) {
	flag.Parse()
	engine.CheckView = *checkView
	os.Exit(m.Run())
}
