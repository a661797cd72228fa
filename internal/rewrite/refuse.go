// This file implements the refusals: a function, Test function or subtest
// whose body holds constructs the rewriting does not support is left as it
// was, but for a call that refuses the test that runs it, named with the
// constructs' file:line and the way out.

package rewrite

import (
	"go/ast"
	"path/filepath"
	"strconv"
	"strings"
)

// refuse turns the errors recorded since the from'th into a refusal of
// body, a function's: the edits inside body are dropped, and call (such as
// "weftrt.Unsupported(" or "weftrt.Refuse(t, "), given the errors'
// messages and closed, becomes its first statement, on its first line. It
// reports whether there were errors.
func (r *rewriter) refuse(body *ast.BlockStmt, from int, call string) bool {
	if len(r.errs) == from {
		return false
	}
	dir := filepath.Dir(r.tf.Name()) + string(filepath.Separator)
	var msgs []string
	for _, err := range r.errs[from:] {
		msg := strings.TrimPrefix(err.Error(), dir)
		msgs = append(msgs, strings.TrimSuffix(msg, ": "+ErrUnsupported.Error()))
	}
	r.errs = r.errs[:from]
	r.edits = r.edits.without(r.off(body.Lbrace), r.off(body.Rbrace)+1)
	r.usesRT = true
	r.insert(r.off(body.Lbrace)+1, " "+call+strconv.Quote(strings.Join(msgs, "; "))+");", false)
	return true
}

// refusedBody reports whether body starts with a refusal (weftrt.Refuse or
// weftrt.Unsupported): it is the rewriting's output, which stays as it is.
func (r *rewriter) refusedBody(body *ast.BlockStmt) bool {
	if len(body.List) == 0 {
		return false
	}
	call := stmtCall(body.List[0])
	if call == nil {
		return false
	}
	name := r.rtFunc(call)
	return name == "Refuse" || name == "Unsupported"
}
