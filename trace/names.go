// This file names objects for people: one scheme for reports and messages.

package trace

import "strconv"

// ObjectName names object id of tr in reports and messages: the name the
// program gave it, or its class and number, as in "chan#2"; "nil" for
// NoObject (a nil channel), and the bare number for an id tr does not know.
func (tr *Trace) ObjectName(id ObjectID) string {
	if id == NoObject {
		return "nil"
	}
	if id < 0 || int(id) >= len(tr.Objects) {
		return id.String()
	}
	o := &tr.Objects[id]
	if o.Name != "" {
		return o.Name
	}
	return o.Class.String() + "#" + strconv.Itoa(int(id))
}
