// This file implements Thread, which spells a thread's number in the stack,
// and Frames, which reads it back from a race report's frames.

package racemark

import (
	"strconv"
	"strings"
)

// Thread calls f, which creates the goroutine of thread n, below frames that
// spell n: Thread, then one function per decimal digit of n, most
// significant first.
//
//go:noinline
func Thread(n int, f func()) {
	digits(strconv.Itoa(n), f)
}

// digits calls f below the frames of the digits ds.
//
//go:noinline
func digits(ds string, f func()) {
	if ds == "" {
		f()
		return
	}
	d, rest := ds[0], ds[1:]
	switch d {
	case '0':
		D0(rest, f)
	case '1':
		D1(rest, f)
	case '2':
		D2(rest, f)
	case '3':
		D3(rest, f)
	case '4':
		D4(rest, f)
	case '5':
		D5(rest, f)
	case '6':
		D6(rest, f)
	case '7':
		D7(rest, f)
	case '8':
		D8(rest, f)
	default:
		D9(rest, f)
	}
}

// D0 to D9 are the frames of the digits.

//go:noinline
func D0(rest string, f func()) { digits(rest, f) }

//go:noinline
func D1(rest string, f func()) { digits(rest, f) }

//go:noinline
func D2(rest string, f func()) { digits(rest, f) }

//go:noinline
func D3(rest string, f func()) { digits(rest, f) }

//go:noinline
func D4(rest string, f func()) { digits(rest, f) }

//go:noinline
func D5(rest string, f func()) { digits(rest, f) }

//go:noinline
func D6(rest string, f func()) { digits(rest, f) }

//go:noinline
func D7(rest string, f func()) { digits(rest, f) }

//go:noinline
func D8(rest string, f func()) { digits(rest, f) }

//go:noinline
func D9(rest string, f func()) { digits(rest, f) }

// Path is the package's import path, as the frames of a report name it.
const Path = "github.com/weft-go/weft/internal/racemark"

// Frames returns the thread number that the function names of a stack
// spell, innermost first, as a race report prints them (the function
// names without their arguments, "github.com/weft-go/weft/internal/racemark.D1"),
// and whether they spell one: the digits' frames (with digits' between
// them), then Thread's.
func Frames(funcs []string) (n int, ok bool) {
	var ds []byte
	for _, f := range funcs {
		name, found := strings.CutPrefix(f, Path+".")
		switch {
		case !found:
			if len(ds) > 0 {
				return 0, false // digits without Thread
			}
			continue
		case name == "digits":
			continue
		case name == "Thread":
			if len(ds) == 0 {
				return 0, false
			}
			for i, j := 0, len(ds)-1; i < j; i, j = i+1, j-1 {
				ds[i], ds[j] = ds[j], ds[i]
			}
			n, err := strconv.Atoi(string(ds))
			return n, err == nil
		case len(name) == 2 && name[0] == 'D' && name[1] >= '0' && name[1] <= '9':
			ds = append(ds, name[1])
		default:
			return 0, false
		}
	}
	return 0, false
}
