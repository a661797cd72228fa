package con2

import "fmt"

var Debug bool

func (s *Strategy) dbgISC(c *isc, what string) {
	if !Debug {
		return
	}
	fmt.Printf("ISC %s kind=%d target=%d deg=%d:", what, c.kind, c.target, c.degree)
	for _, n := range s.f.closure(c.tips...) {
		fmt.Printf(" %s", s.f.String(n))
	}
	fmt.Println()
}
