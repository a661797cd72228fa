// This file exports, to the tests of package weft_test only, the summary
// line Check logs.

package weft

// SummaryOf returns the summary line Check logs for r, explored with the
// default options.
func SummaryOf(r *Result) string {
	c := defaultConfig()
	return r.summary(&c)
}
