// Package long gates weft's long tests: exhaustive sweeps, long tables and
// slow differential tests that run only when the environment variable
// WEFT_LONG is 1 (and the run is not -short). By default such a test runs a
// fast representative of itself (a smaller parameter, fewer programs, one
// strategy of a family) with the same exact numbers for what it keeps;
// with WEFT_LONG=1 it runs in full. .ci/run sets WEFT_LONG=1 for one of its
// runs of go test ./....
//
//	func TestSweep(t *testing.T) {
//		n := 10
//		if long.Enabled() {
//			n = 200
//		}
//		...
//	}
//
//	func TestHuge(t *testing.T) {
//		long.Skip(t, "explores every program of the table, about 60 s")
//		...
//	}
package long
