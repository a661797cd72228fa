package vet_test

import (
	"path/filepath"
	"testing"

	"github.com/weft-go/weft/vet"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/passes/printf"
)

// TestAnalyzer checks the reports on testdata/src/a, against its // want
// comments, with a stand-in for weft's API (testdata/src/github.com/
// weft-go/weft).
func TestAnalyzer(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, analysistest.TestData(), vet.Analyzer, "a")
}

// TestPrintf checks that go vet's printf check takes w.Assert, w.Fail and
// w.AssertSym for printf wrappers and reports their bad calls, on a module
// in testdata/printf that uses weft itself.
func TestPrintf(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, filepath.Join(analysistest.TestData(), "printf"), printf.Analyzer, "printfcheck/p")
}
