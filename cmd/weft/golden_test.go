// This file checks the output of weft run and weft replay, text and JSON,
// and the schema of the JSON summary against golden files in testdata;
// go test -run Golden -update rewrites them.

package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/weft-go/weft/internal/golden"
)

// volatileRow matches the rows of the summary table that vary between runs
// and machines: time, speed and memory.
var volatileRow = regexp.MustCompile(`(?m)^(wall time|executions/s|peak memory) +.*$|, [0-9.]+[µnm]?s$`)

// volatileJSON matches the fields of the JSON summary that vary between
// runs and machines.
var volatileJSON = regexp.MustCompile(`(?m)^(\s*"(wall_s|exec_per_s|peak_rss_bytes|time_s)": )[-+0-9.e]+(,?)$`)

// progressRow matches a progress line, which a run prints on standard
// error each second it lasts: none on a quiet machine, some on a busy one.
var progressRow = regexp.MustCompile(`(?m)^weft: \d+ executions, \d+ failures, [^\n]*executions/s\n`)

// normalizeOutput is golden.Normalize, and for the summary the time, speed
// and memory replaced by <varies>, and the progress lines dropped.
func normalizeOutput(s string) string {
	s = progressRow.ReplaceAllString(s, "")
	s = volatileRow.ReplaceAllStringFunc(s, func(m string) string {
		if strings.HasPrefix(m, ", ") {
			return ", <varies>" // the solver's time, at the end of its row
		}
		k := volatileRow.FindStringSubmatch(m)[1]
		return m[:strings.Index(m, k)+len(k)] + strings.Repeat(" ", 14-len(k)) + "<varies>"
	})
	s = volatileJSON.ReplaceAllString(s, `$1"<varies>"$3`)
	return golden.Normalize(s)
}

// cliGoldens are the command lines whose output is kept in
// testdata/cli/<name>.golden: a run of each outcome (no failure, a
// deadlock, every failure counted, an assertion, a concolic run with its
// solver row), the JSON of each, and a replay that fails (the first
// deadlock of run_dining_keep_going, with the token it printed, which
// carries the parameters) and one that does not (xy: T1's two stores, then
// T2's).
var cliGoldens = []struct {
	name   string
	args   []string
	z3     bool // needs Z3: skipped without it
	schema bool // its JSON is checked against the schema
}{
	{name: "run_xy", args: []string{"run", "-strategy", "exhaustive", "xy"}},
	{name: "run_dining", args: []string{"run", "-p", "n=3", "dining"}},
	{name: "run_dining_keep_going", args: []string{"run", "-strategy", "exhaustive", "-keep-going", "-p", "n=3", "dining"}},
	{name: "run_parallelpi", args: []string{"run", "-strategy", "exhaustive", "-p", "threads=2", "-p", "locked=0", "parallelpi"}},
	{name: "run_jcute_concolic", args: []string{"run", "-strategy", "concolic", "jcute"}, z3: true},
	{name: "run_xy_json", args: []string{"run", "-json", "-strategy", "exhaustive", "xy"}, schema: true},
	{name: "run_dining_keep_going_json", args: []string{"run", "-json", "-strategy", "exhaustive", "-keep-going", "-p", "n=3", "dining"}, schema: true},
	{name: "run_jcute_concolic_json", args: []string{"run", "-json", "-strategy", "concolic", "jcute"}, z3: true, schema: true},
	{name: "replay_dining", args: []string{"replay", "dining", "n=3,meals=1,fixed=0:w1.AwEABgIABgMABgCH-Fm1"}},
	{name: "replay_xy", args: []string{"replay", "xy", "w1.BAEAAgEAAgIAAgIAAgCVahKb"}},
}

// TestCLIGolden runs each command line of cliGoldens and compares its exit
// status and output, after normalizeOutput, with its golden file.
func TestCLIGolden(t *testing.T) {
	for _, tc := range cliGoldens {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, tc.args...)
			if tc.z3 && strings.Contains(stderr, "Z3") && code == exitUsage {
				t.Skipf("no Z3: %s", stderr)
			}
			if tc.schema {
				checkSchema(t, stdout)
			}
			got := fmt.Sprintf("$ weft %s\nexit status %d\n--- stdout\n%s--- stderr\n%s", strings.Join(tc.args, " "), code, stdout, stderr)
			golden.Check(t, filepath.Join("testdata", "cli", tc.name+".golden"), normalizeOutput(got), *update)
		})
	}
}

// jsonType names the JSON type of Go type t, as the schema prints it.
func jsonType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int64, reflect.Float64:
		return "number"
	case reflect.Map:
		return "object of " + jsonType(t.Elem())
	case reflect.Slice:
		return "array of " + jsonType(t.Elem())
	case reflect.Struct:
		return "object"
	case reflect.Pointer:
		return jsonType(t.Elem())
	}
	return "?" + t.String()
}

// schemaLines describes the fields of struct type t, one "path: type" line
// each, with "(omitted when empty)" for omitempty fields; prefix is the
// path of t.
func schemaLines(t reflect.Type, prefix string) []string {
	var out []string
	for f := range t.Fields() {
		tag := f.Tag.Get("json")
		if !f.IsExported() || tag == "-" {
			continue // encoding/json leaves it out
		}
		name, opts, _ := strings.Cut(tag, ",")
		line := prefix + name + ": " + jsonType(f.Type)
		if opts == "omitempty" {
			line += " (omitted when empty)"
		}
		out = append(out, line)
		switch ft := f.Type; {
		case ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct:
			out = append(out, schemaLines(ft.Elem(), prefix+name+".")...)
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct:
			out = append(out, prefix+name+"[]: object")
			out = append(out, schemaLines(ft.Elem(), prefix+name+"[].")...)
		}
	}
	return out
}

// TestJSONSchemaGolden compares the schema of weft run -json, the fields of
// Summary with their JSON types, with testdata/cli/json_schema.golden.
// Renaming, retyping, adding or removing a field changes it: the README
// documents the schema, and its field names are stable.
func TestJSONSchemaGolden(t *testing.T) {
	got := strings.Join(schemaLines(reflect.TypeFor[Summary](), ""), "\n") + "\n"
	golden.Check(t, filepath.Join("testdata", "cli", "json_schema.golden"), got, *update)
}

// checkSchema checks that out, weft run -json's output, has the fields of
// the schema, each of its JSON type, and no other: a field may be missing
// only if it or an enclosing field is omitted when empty, or if it belongs
// to the elements of an empty array.
func checkSchema(t *testing.T, out string) {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("decoding %q: %v", out, err)
	}
	want := map[string]string{} // path: type
	var optional []string
	for _, line := range schemaLines(reflect.TypeFor[Summary](), "") {
		path, typ, _ := strings.Cut(line, ": ")
		if s, ok := strings.CutSuffix(typ, " (omitted when empty)"); ok {
			typ = s
			optional = append(optional, path)
		}
		want[path] = typ
	}
	got := map[string]bool{}
	var walk func(path string, x any)
	walk = func(path string, x any) {
		got[path] = true
		typ, ok := want[path]
		if !ok {
			t.Errorf("field %s is not in the schema", path)
			return
		}
		bad := false
		switch x := x.(type) {
		case string:
			bad = typ != "string"
		case bool:
			bad = typ != "boolean"
		case float64:
			bad = typ != "number"
		case []any:
			switch typ {
			case "array of object":
				for _, e := range x {
					walk(path+"[]", e)
				}
			case "array of string":
				for _, e := range x {
					if _, ok := e.(string); !ok {
						bad = true
					}
				}
			default:
				bad = true
			}
		case map[string]any:
			switch typ {
			case "object":
				for k, e := range x {
					walk(path+"."+k, e)
				}
			case "object of number":
				for _, e := range x {
					if _, ok := e.(float64); !ok {
						bad = true
					}
				}
			default:
				bad = true
			}
		default:
			bad = true
		}
		if bad {
			t.Errorf("field %s is %T, the schema says %s", path, x, typ)
		}
	}
	for k, x := range v {
		walk(k, x)
	}
	// The elements of an array are walked as path[]; their fields are
	// path[].field: those of an array none of whose elements was walked
	// (an empty one, or inside one) are not missing.
	for path := range want {
		if got[path] || strings.Contains(path, "[]") && !got[path[:strings.LastIndex(path, "[]")+2]] {
			continue
		}
		if slices.ContainsFunc(optional, func(o string) bool { return path == o || strings.HasPrefix(path, o+".") }) {
			continue
		}
		t.Errorf("field %s (%s) is missing", path, want[path])
	}
}
