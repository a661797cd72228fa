// This file implements the replay tokens of the weft command: the library's
// token with the program's parameters in front, so that weft replay needs
// no -p flags.

package main

import (
	"fmt"
	"strings"

	"github.com/weft-go/weft/programs"
)

// cliToken returns the token weft run prints for a failure of program p
// with parameters ps: "n=3,meals=1,fixed=0:" and the library's token, or
// the library's token alone for a program without parameters.
func cliToken(p *programs.Program, ps programs.Params, token string) string {
	if len(p.Params) == 0 {
		return token
	}
	return strings.Join(p.Format(ps), ",") + ":" + token
}

// splitToken splits a token of the weft command into the parameters it
// carries (nil if none) and the library's token. A library token alone
// (from a run of an older weft, or of a program without parameters) is
// returned as it is.
func splitToken(s string) (map[string]int, string, error) {
	s = strings.TrimSpace(s)
	head, token, ok := strings.Cut(s, ":")
	if !ok {
		return nil, s, nil
	}
	params := map[string]int{}
	for _, a := range strings.Split(head, ",") {
		name, v, err := programs.ParseAssignment(a)
		if err != nil {
			return nil, "", usageErrorf("weft replay: the token's parameters %q: %v; copy the whole token from the failure report or from weft run -json", head, err)
		}
		if _, dup := params[name]; dup {
			return nil, "", usageErrorf("weft replay: the token's parameters %q set %s twice; copy the whole token from the failure report or from weft run -json", head, name)
		}
		params[name] = v
	}
	return params, token, nil
}

// mergeParams returns the parameters of a replay: those the token carries
// and those the -p flags set, which must agree where both set one.
func mergeParams(fromToken, flags map[string]int) (map[string]int, error) {
	out := map[string]int{}
	for k, v := range fromToken {
		out[k] = v
	}
	for k, v := range flags {
		if t, ok := fromToken[k]; ok && t != v {
			return nil, usageErrorf("weft replay: -p %s=%d, but the token was recorded with %s=%d; drop the -p flag (the token carries the parameters)", k, v, k, t)
		}
		out[k] = v
	}
	return out, nil
}

// formatReplay is "weft replay" with its -races and -max-steps flags, if
// set, for replayCommand.
func formatReplay(maxSteps int, races bool) string {
	s := "weft replay"
	if races {
		s += " -races"
	}
	if maxSteps > 0 {
		s += fmt.Sprintf(" -max-steps %d", maxSteps)
	}
	return s
}
