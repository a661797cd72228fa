// Tests that the timeout and the context stop every strategy within a
// second of the bound, inside its analysis of a long execution too.

package weft_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/registry"
	"github.com/weft-go/weft/strategy/reach"
)

// boundSteps is the step bound of the spinning body in TestBoundsStopEveryStrategy:
// an execution runs well within the bound of a second, and a quadratic
// analysis of it would take far longer.
const boundSteps = 20_000

// TestBoundsStopEveryStrategy runs spin, whose every execution hits the
// step bound, under each registered strategy in both time modes, with a
// timeout of a second and with a context canceled after a second: the
// exploration returns within two seconds and says what stopped it (or the
// strategy refuses the program, or the time mode, at once). By default it
// runs a few strategies; WEFT_LONG=1 runs every one.
func TestBoundsStopEveryStrategy(t *testing.T) {
	names := registry.Names()
	if os.Getenv("WEFT_LONG") == "" {
		names = []string{"optimal", "dpor+sleep", "flip"}
	}
	modes := []struct {
		name string
		opts []weft.Option
	}{
		{"blocked", nil},
		{"any", []weft.Option{weft.WithTime(weft.TimeAnyStep)}},
	}
	bounds := []string{"timeout", "context"}
	for _, name := range names {
		for _, m := range modes {
			for _, bound := range bounds {
				if os.Getenv("WEFT_LONG") == "" && name != "optimal" && (m.name == "any" || bound == "context") {
					continue // the representative subset
				}
				t.Run(name+"/"+m.name+"/"+bound, func(t *testing.T) {
					opts := append([]weft.Option{weft.WithStrategy(name), weft.WithMaxSteps(boundSteps), weft.KeepGoing(), weft.NoReplayFiles()}, m.opts...)
					if bound == "timeout" {
						opts = append(opts, weft.WithTimeout(time.Second))
					} else {
						ctx, cancel := context.WithTimeout(context.Background(), time.Second)
						defer cancel()
						opts = append(opts, weft.WithContext(ctx))
					}
					start := time.Now()
					r, err := weft.Explore(spin, opts...)
					wall := time.Since(start)
					if wall >= 2*time.Second {
						t.Errorf("Explore returned after %v; want less than 2s", wall)
					}
					switch {
					case errors.Is(err, weft.ErrTimeMode), errors.Is(err, reach.ErrUnmodelled):
						return // the strategy refuses the time mode, or shared variables
					case err != nil:
						t.Fatal(err)
					}
					if r.Executions == 0 || r.Exhausted || r.TimedOut != (bound == "timeout") || r.Canceled != (bound == "context") {
						t.Errorf("executions %d, exhausted %v, timed out %v, canceled %v; want some, false, and stopped by the %s",
							r.Executions, r.Exhausted, r.TimedOut, r.Canceled, bound)
					}
				})
			}
		}
	}
}
