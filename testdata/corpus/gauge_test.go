package corpus

import (
	"sync"
	"testing"
)

// gauges counts a request in while the gauge is reset.
func gauges(t *testing.T, begin, reset func()) {
	var wg sync.WaitGroup
	wg.Go(begin)
	reset()
	wg.Wait()
}

func TestGaugeBug(t *testing.T) {
	var g GaugeBug
	gauges(t, g.Begin, g.Reset)
}

func TestGaugeFixed(t *testing.T) {
	var g Gauge
	gauges(t, g.Begin, g.Reset)
}
