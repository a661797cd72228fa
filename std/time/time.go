// This file implements the parts of package time that do not depend on the
// clock, as the standard library's, and the clock: Now, Since, Until and
// Sleep on virtual time inside an execution.

package time

import (
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/internal/shim"
)

// The types of package time that weft does not replace.
type (
	Duration   = time.Duration
	Location   = time.Location
	Month      = time.Month
	ParseError = time.ParseError
	Time       = time.Time
	Weekday    = time.Weekday
)

// The durations of package time.
const (
	Nanosecond  = time.Nanosecond
	Microsecond = time.Microsecond
	Millisecond = time.Millisecond
	Second      = time.Second
	Minute      = time.Minute
	Hour        = time.Hour
)

// The layouts of package time.
const (
	Layout      = time.Layout
	ANSIC       = time.ANSIC
	UnixDate    = time.UnixDate
	RubyDate    = time.RubyDate
	RFC822      = time.RFC822
	RFC822Z     = time.RFC822Z
	RFC850      = time.RFC850
	RFC1123     = time.RFC1123
	RFC1123Z    = time.RFC1123Z
	RFC3339     = time.RFC3339
	RFC3339Nano = time.RFC3339Nano
	Kitchen     = time.Kitchen
	Stamp       = time.Stamp
	StampMilli  = time.StampMilli
	StampMicro  = time.StampMicro
	StampNano   = time.StampNano
	DateTime    = time.DateTime
	DateOnly    = time.DateOnly
	TimeOnly    = time.TimeOnly
)

// The months of package time.
const (
	January   = time.January
	February  = time.February
	March     = time.March
	April     = time.April
	May       = time.May
	June      = time.June
	July      = time.July
	August    = time.August
	September = time.September
	October   = time.October
	November  = time.November
	December  = time.December
)

// The days of package time.
const (
	Sunday    = time.Sunday
	Monday    = time.Monday
	Tuesday   = time.Tuesday
	Wednesday = time.Wednesday
	Thursday  = time.Thursday
	Friday    = time.Friday
	Saturday  = time.Saturday
)

// The locations of package time (copies of its variables).
var (
	UTC   = time.UTC
	Local = time.Local
)

// Date is time.Date.
func Date(year int, month Month, day, hour, min, sec, nsec int, loc *Location) Time {
	return time.Date(year, month, day, hour, min, sec, nsec, loc)
}

// FixedZone is time.FixedZone.
func FixedZone(name string, offset int) *Location { return time.FixedZone(name, offset) }

// LoadLocation is time.LoadLocation.
func LoadLocation(name string) (*Location, error) { return time.LoadLocation(name) }

// LoadLocationFromTZData is time.LoadLocationFromTZData.
func LoadLocationFromTZData(name string, data []byte) (*Location, error) {
	return time.LoadLocationFromTZData(name, data)
}

// Parse is time.Parse.
func Parse(layout, value string) (Time, error) { return time.Parse(layout, value) }

// ParseDuration is time.ParseDuration.
func ParseDuration(s string) (Duration, error) { return time.ParseDuration(s) }

// ParseInLocation is time.ParseInLocation.
func ParseInLocation(layout, value string, loc *Location) (Time, error) {
	return time.ParseInLocation(layout, value, loc)
}

// Unix is time.Unix.
func Unix(sec, nsec int64) Time { return time.Unix(sec, nsec) }

// UnixMicro is time.UnixMicro.
func UnixMicro(usec int64) Time { return time.UnixMicro(usec) }

// UnixMilli is time.UnixMilli.
func UnixMilli(msec int64) Time { return time.UnixMilli(msec) }

// Epoch is the time at which virtual time starts in an exploration of a
// program that has read no real time outside executions: midnight UTC on
// 1 January 2000, as in testing/synctest. A program that has read the
// real clock outside executions (a test function before it runs its
// subtests, a package's var start = time.Now()) explores from the latest
// instant it read instead, the same in every execution of the
// exploration, so that the time does not go back.
var Epoch = time.Unix(0, engine.DefaultEpoch).UTC()

// at returns the time of virtual instant d of the current execution, in
// the local time zone, as time.Now gives it: a program may compare times
// with ==, which compares their locations too (time.Unix(s, ns) ==
// time.Now().Truncate(time.Millisecond) holds in Go). Unlike time.Now's,
// it has no monotonic clock reading, which only time.Now can set; the
// methods that read one (Sub, Before, After, Equal) give the same results
// without it on a clock that never goes back.
func at(d Duration) Time { return time.Unix(0, shim.Epoch()).Add(d) }

// epoch returns the time at which the current execution's virtual time
// started.
func epoch() Time { return at(0) }

// wallNow returns the real time, noting it (shim.SawWallClock) so that later
// explorations do not start before it.
func wallNow() Time {
	t := time.Now()
	shim.SawWallClock(t.UnixNano())
	return t
}

// Now is time.Now: inside an execution, the virtual time.
func Now() Time {
	if shim.Active() {
		return at(Duration(shim.Now()))
	}
	return wallNow()
}

// Since is time.Since: Now().Sub(t).
func Since(t Time) Duration {
	if shim.Active() {
		return Now().Sub(t)
	}
	return wallNow().Sub(t)
}

// Until is time.Until: t.Sub(Now()).
func Until(t Time) Duration {
	if shim.Active() {
		return t.Sub(Now())
	}
	return t.Sub(wallNow())
}

// Sleep is time.Sleep: inside an execution, the goroutine sleeps for d of
// virtual time (a step, even for d <= 0).
func Sleep(d Duration) {
	if shim.Active() {
		new(weft.T).Sleep(d)
		return
	}
	time.Sleep(d)
}
