// This file checks that a custom strategy (Config.Custom) does not hide
// from the driver a capability that a strategy it wraps needs to be run
// correctly.

package explore

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/weft-go/weft/strategy"
)

// ErrHiddenCapability is wrapped by the error of an exploration with a
// custom strategy that holds another strategy whose capabilities the
// driver needs, without letting strategy.As find them: a wrapper without
// Unwrap.
var ErrHiddenCapability = errors.New("custom strategy hides a capability the driver needs")

// requiredCapability is a capability without which the driver runs a
// strategy wrongly, not just with fewer figures in the Result.
type requiredCapability struct {
	name string       // as the error names it
	t    reflect.Type // the interface
	why  string       // what goes wrong without it
}

// requiredCapabilities are the capabilities a wrapper must not hide.
// Solving and Counting only add figures to the Result, and Diverger
// reports a body that is not deterministic, which the driver's own check
// also catches: hiding them loses no exploration.
var requiredCapabilities = []requiredCapability{
	{"strategy.SymbolicTracer", reflect.TypeFor[strategy.SymbolicTracer](), "it needs symbolic traces, which the runtime records only for a strategy that asks"},
	{"strategy.Failer", reflect.TypeFor[strategy.Failer](), "the errors that refuse a program it does not model, or that say it could not be set up, would go unseen"},
	{"strategy.BlockedTimeOnly", reflect.TypeFor[strategy.BlockedTimeOnly](), "an exploration with time at any step would run it although it does not model it"},
	{"strategy.Closer", reflect.TypeFor[strategy.Closer](), "its resources (a solver's native memory) would never be released"},
}

var strategyType = reflect.TypeFor[strategy.Strategy]()

// checkHidden returns an error wrapping ErrHiddenCapability when s, a
// custom strategy, or a wrapper in its Unwrap chain, holds in a field of
// interface type (as a wrapper holds, or embeds, the strategy it wraps) a
// strategy with a required capability that strategy.As does not find from
// s. A field of a concrete strategy type is the custom strategy's own
// business (it may drive that strategy itself, or only observe with it).
// Fields are looked at one level deep; a strategy held in an unexported
// field is seen by its type only (its own Unwrap chain, if any, is not
// followed).
func checkHidden(s strategy.Strategy) error {
	var chain []strategy.Strategy
	found := make([]bool, len(requiredCapabilities))
	for x := s; x != nil; {
		chain = append(chain, x)
		markCapabilities(reflect.TypeOf(x), found)
		w, ok := x.(strategy.Wrapper)
		if !ok {
			break
		}
		x = w.Unwrap()
	}
	for _, x := range chain {
		v := reflect.ValueOf(x)
		for v.Kind() == reflect.Pointer && !v.IsNil() {
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			continue
		}
		for i := range v.NumField() {
			inner := heldStrategy(v.Field(i))
			if inner == nil {
				continue
			}
			held := make([]bool, len(requiredCapabilities))
			inner.mark(held)
			var names, whys []string
			for j, c := range requiredCapabilities {
				if held[j] && !found[j] {
					names = append(names, c.name)
					whys = append(whys, c.why)
				}
			}
			if len(names) > 0 {
				return fmt.Errorf("%w: %v holds, in its field %s, a %v that implements %s, which the driver finds only through strategy.As: %s; implement Unwrap() strategy.Strategy returning it (strategy.Wrapper), or the capabilities themselves",
					ErrHiddenCapability, reflect.TypeOf(x), v.Type().Field(i).Name, inner.t, strings.Join(names, ", "), strings.Join(whys, "; "))
			}
		}
	}
	return nil
}

// markCapabilities sets found[i] for each required capability t implements.
func markCapabilities(t reflect.Type, found []bool) {
	for i, c := range requiredCapabilities {
		if t.Implements(c.t) {
			found[i] = true
		}
	}
}

// held is a strategy found in a field: its dynamic type and, when the
// field is exported, its value.
type held struct {
	t reflect.Type
	s strategy.Strategy // nil for an unexported field
}

// mark sets found[i] for each required capability of h or of the chain
// of its Unwrap calls, as far as it is seen.
func (h *held) mark(found []bool) {
	if h.s == nil {
		markCapabilities(h.t, found)
		return
	}
	for x := h.s; x != nil; {
		markCapabilities(reflect.TypeOf(x), found)
		w, ok := x.(strategy.Wrapper)
		if !ok {
			break
		}
		x = w.Unwrap()
	}
}

// heldStrategy returns the strategy field f, of interface type, holds, or
// nil if it holds none.
func heldStrategy(f reflect.Value) *held {
	if f.Kind() != reflect.Interface || f.IsNil() {
		return nil
	}
	f = f.Elem()
	if f.Kind() == reflect.Pointer && f.IsNil() || !f.Type().Implements(strategyType) {
		return nil
	}
	h := &held{t: f.Type()}
	if f.CanInterface() {
		h.s, _ = f.Interface().(strategy.Strategy)
	}
	return h
}
