package reach

import (
	"fmt"
	"os"
)

var debug = os.Getenv("REACHDEBUG") != ""

func (f *frame) dump() string {
	s := ""
	for i, c := range f.cols {
		s += fmt.Sprintf("  col %d: step %d g%d p%d out %v black %v races %v\n", i, c, f.a.grp[c], f.a.pos[c], f.a.outcomeOf(int(c)), f.black[c], f.races[i])
	}
	return s
}

func (v *variant) dump() string {
	s := fmt.Sprintf("  old %v post %v\n", v.Old, v.Postponed)
	for g, sp := range v.Pos {
		s += fmt.Sprintf("  g%d:", g)
		for _, x := range sp {
			s += fmt.Sprintf(" %+v", x)
		}
		s += "\n"
	}
	return s
}
