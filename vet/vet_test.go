package vet_test

import (
	"testing"

	"github.com/weft-go/weft/vet"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestAnalyzer checks the reports on testdata/src/a, against its // want
// comments, with a stand-in for weft's API (testdata/src/github.com/
// weft-go/weft).
func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), vet.Analyzer, "a")
}
