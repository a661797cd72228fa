#!/usr/bin/env bash
# speed-baseline.sh measures the rows of `weft bench -table speed` at an
# earlier commit of weft and at HEAD, alternately, the way the table
# measures a row: the CPU time (user and system) of the process during
# optimal's exploration, in thread order, with no bound. It prints each
# row's least and median time over the rounds at both commits and their
# ratios (on a shared machine the least of a few rounds can swing by a
# third from one run of the script to the next: give ten rounds or more
# and read the medians), and,
# with -w, writes the earlier commit's figures as cmd/weft/speed_baseline.txt,
# the baseline the table prints its "vs base" column against.
#
# Usage: scripts/speed-baseline.sh [-w] [-rounds N] [-same-programs] [-only REGEX]
#                                  [-cachegrind DIR | -footprint DIR] [-keep DIR] COMMIT
#
# Both commits are measured from clean checkouts (git worktrees in a
# temporary directory): uncommitted changes are not. Measure on a quiet
# machine: other load inflates CPU time, and unevenly across rows. The
# rows are HEAD's table's; a commit whose programs lack one of them fails
# with the program named.
#
# Each commit runs its own programs, which may differ from HEAD's in the
# work their bodies do (fib and pairs, for one, make their variables in
# every execution since parallel exploration came, and did so once
# before). -same-programs measures the weft of COMMIT on HEAD's programs
# where it can: it puts each of HEAD's files of package programs into the
# earlier tree, one at a time, and keeps it if the package still builds
# there; it names the files it kept and those it could not.
#
# -cachegrind DIR counts instead of timing: it runs each row once per
# commit, alone in its process, under valgrind's cachegrind with the
# garbage collector off (GOGC=off; valgrind also lacks an instruction,
# RDTSCP, that the collector's locks may run), and prints each row's
# instructions executed, first-level instruction-cache misses and
# first-level data-cache misses at both commits and their ratios. The
# instruction-cache misses count the code an execution runs more than its
# instructions do: a row whose instructions stay the same can take longer
# because each execution runs through more distinct code, which the 32 KiB
# cache of this machine kind fetches again at every execution (each miss
# costs a fetch from the second-level cache). The counts repeat from run
# to run to within 0.1%,
# where CPU time varies by several percent, so they show which functions
# a change adds work to, and how much; they are not times (a miss that
# the second-level cache serves costs little, and with the collector off
# no memory is reused). It keeps cachegrind's files in DIR
# (cachegrind.COMMIT.ROW), for cg_annotate or cg_diff (give cg_diff
# --mod-filename 's#.*/(old|new)/##' to compare functions across the two
# checkouts). It takes a few minutes.
#
# -footprint DIR measures the code each execution runs instead: it runs
# each row once per commit under valgrind's callgrind, which counts how
# often each instruction ran, and prints, with scripts/footprint, the bytes
# of the instructions that ran at least once per execution and the 64-byte
# cache lines that hold them, by package and by function, at both commits.
# An execution whose code is larger than the first-level instruction cache
# fetches all of it again at every execution: this is the measure that
# explains a row slower per execution with as many instructions. It keeps
# callgrind's files in DIR (callgrind.COMMIT.ROW). Callgrind runs about 50
# times slower than the program: give -only to measure some rows (fib_bench
# N=4 takes a few minutes, N=5 half an hour).
#
# -only REGEX keeps the rows whose name matches REGEX (jq's test).
#
# -keep DIR keeps what the measure ran in DIR, for measures the script
# does not make, such as a build with one feature taken out timed against
# the two commits: the test binaries (COMMIT.test for each commit), the
# rows (rows.json) and the measure's source (speed_test.go). To build the
# same measure in another tree, put speed_test.go in its
# internal/speedbaseline and run go test -c there. Each binary measures
# the rows of a file:
#
#	WEFT_SPEED_ROWS=DIR/rows.json DIR/COMMIT.test -test.run TestSpeedRows
#
# and prints a line per row: its name, its executions and its CPU
# seconds. Alternate the binaries within each round, as the script does.
set -euo pipefail

write=0
rounds=3
same=0
grind=""
foot=""
only=""
keep=""
while [ $# -gt 0 ]; do
	case "$1" in
	-w) write=1; shift ;;
	-same-programs) same=1; shift ;;
	-rounds) rounds=${2:?-rounds needs a number}; shift 2 ;;
	-cachegrind) grind=${2:?-cachegrind needs a directory}; shift 2 ;;
	-footprint) foot=${2:?-footprint needs a directory}; shift 2 ;;
	-only) only=${2:?-only needs a regular expression}; shift 2 ;;
	-keep) keep=${2:?-keep needs a directory}; shift 2 ;;
	-h | --help) sed -n '2,/^set /p' "$0" | sed -n 's/^# \{0,1\}//p'; exit 0 ;;
	-*) echo "speed-baseline.sh: unknown flag $1 (see -h)" >&2; exit 2 ;;
	*) break ;;
	esac
done
if [ $# -ne 1 ]; then
	echo "usage: scripts/speed-baseline.sh [-w] [-rounds N] [-same-programs] [-only REGEX] [-cachegrind DIR | -footprint DIR] [-keep DIR] COMMIT" >&2
	exit 2
fi
if [ "$write" = 1 ] && [ "$same" = 1 ]; then
	echo "speed-baseline.sh: -w writes the baseline of COMMIT's own programs: not with -same-programs" >&2
	exit 2
fi
if [ -n "$grind" ] && [ -n "$foot" ]; then
	echo "speed-baseline.sh: -cachegrind and -footprint each run every row under valgrind: give one" >&2
	exit 2
fi
if [ -n "$only" ] && [ "$write" = 1 ]; then
	echo "speed-baseline.sh: -w writes every row's baseline: not with -only" >&2
	exit 2
fi
# valgrind_dir checks that flag $1 (-cachegrind or -footprint), which runs
# the rows under valgrind and keeps its files in directory $2, can run, and
# prints the directory's absolute path, made if need be.
valgrind_dir() {
	if [ "$write" = 1 ]; then
		echo "speed-baseline.sh: -w writes CPU times: not with $1" >&2
		exit 2
	fi
	if ! command -v valgrind >/dev/null; then
		echo "speed-baseline.sh: $1 needs valgrind (apt-get install valgrind)" >&2
		exit 2
	fi
	mkdir -p "$2"
	cd "$2" && pwd
}
if [ -n "$grind" ]; then
	grind=$(valgrind_dir -cachegrind "$grind")
fi
if [ -n "$foot" ]; then
	foot=$(valgrind_dir -footprint "$foot")
fi
if [ -n "$keep" ]; then
	mkdir -p "$keep"
	keep=$(cd "$keep" && pwd)
fi
case "$rounds" in
'' | *[!0-9]* | 0) echo "speed-baseline.sh: -rounds $rounds is not a positive number" >&2; exit 2 ;;
esac
root=$(git rev-parse --show-toplevel)
old=$(git -C "$root" rev-parse --short "$1^{commit}") || {
	echo "speed-baseline.sh: $1 is no commit of this repository" >&2
	exit 2
}
new=$(git -C "$root" rev-parse --short HEAD)
tmp=$(mktemp -d)
cleanup() {
	git -C "$root" worktree remove --force "$tmp/old" >/dev/null 2>&1 || true
	git -C "$root" worktree remove --force "$tmp/new" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT

git -C "$root" worktree add -q --detach "$tmp/old" "$old"
git -C "$root" worktree add -q --detach "$tmp/new" "$new"

if [ "$same" = 1 ]; then
	kept=() refused=()
	for f in "$tmp/new"/programs/*.go; do
		name=$(basename "$f")
		case "$name" in *_test.go) continue ;; esac
		if cmp -s "$f" "$tmp/old/programs/$name"; then
			continue
		fi
		backup=""
		if [ -e "$tmp/old/programs/$name" ]; then
			backup="$tmp/old/programs/$name.orig"
			cp "$tmp/old/programs/$name" "$backup"
		fi
		cp "$f" "$tmp/old/programs/$name"
		if (cd "$tmp/old" && go build ./programs 2>/dev/null); then
			kept+=("$name")
		else
			refused+=("$name")
			if [ -n "$backup" ]; then
				mv "$backup" "$tmp/old/programs/$name"
			else
				rm "$tmp/old/programs/$name"
			fi
		fi
		rm -f "$backup"
	done
	echo "HEAD's programs in $old: ${kept[*]:-none}; left at $old's (they do not build there): ${refused[*]:-none}"
fi

# The rows, as HEAD's table lists them (one JSON object per row).
(cd "$tmp/new" && go build -o "$tmp/weft" ./cmd/weft)
"$tmp/weft" bench -table speed -json | jq -c --arg only "$only" 'select($only == "" or (.row | test($only))) | {row, program, params}' >"$tmp/rows.json"
if [ ! -s "$tmp/rows.json" ]; then
	echo "speed-baseline.sh: no row matches -only $only" >&2
	exit 2
fi

# The measure: a test that explores each row as the table does. It uses
# only what weft's API has had since the table exists.
for tree in old new; do
	mkdir -p "$tmp/$tree/internal/speedbaseline"
	cat >"$tmp/$tree/internal/speedbaseline/speed_test.go" <<'EOF'
package speedbaseline

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/programs"
)

func cpu() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestSpeedRows(t *testing.T) {
	f, err := os.Open(os.Getenv("WEFT_SPEED_ROWS"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	for {
		var r struct {
			Row, Program string
			Params       map[string]int
		}
		if err := dec.Decode(&r); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		p := programs.Lookup(r.Program)
		if p == nil {
			t.Fatalf("row %q: this commit has no program %q", r.Row, r.Program)
		}
		body := p.MustBody(r.Params)
		c0 := cpu()
		res, err := weft.Explore(body, weft.WithStrategy("optimal"), weft.WithSeed(0), weft.WithMaxRuns(0), weft.KeepGoing())
		c := cpu() - c0
		if err != nil {
			t.Fatalf("row %q: %v", r.Row, err)
		}
		fmt.Printf("%s\t%d\t%.4f\n", r.Row, res.Executions, c.Seconds())
	}
}
EOF
	(cd "$tmp/$tree" && go test -c -o "$tmp/$tree.test" ./internal/speedbaseline)
done
if [ -n "$keep" ]; then
	cp "$tmp/old.test" "$keep/$old.test"
	cp "$tmp/new.test" "$keep/$new.test"
	cp "$tmp/rows.json" "$keep/rows.json"
	cp "$tmp/new/internal/speedbaseline/speed_test.go" "$keep/speed_test.go"
	echo "kept in $keep: $old.test, $new.test, rows.json, speed_test.go"
fi

if [ -n "$grind" ]; then
	printf "%-18s %15s %15s %7s %12s %12s %7s %12s %12s %7s\n" row "Ir $old" "Ir $new" new/old \
		"I1 $old" "I1 $new" new/old "D1 $old" "D1 $new" new/old
	while read -r row; do
		name=$(jq -r .row <<<"$row")
		slug=$(tr -c 'A-Za-z0-9=\n' _ <<<"$name")
		echo "$row" >"$tmp/row.json"
		declare -A ir i1 d1
		for tree in old new; do
			commit=$old
			[ "$tree" = new ] && commit=$new
			out="$grind/cachegrind.$commit.$slug"
			WEFT_SPEED_ROWS="$tmp/row.json" GOGC=off valgrind --tool=cachegrind --cache-sim=yes \
				--cachegrind-out-file="$out" "$tmp/$tree.test" -test.run TestSpeedRows -test.count 1 \
				>"$tmp/grind.log" 2>&1 || { cat "$tmp/grind.log" >&2; exit 1; }
			ir[$tree]=$(grep -m1 '^summary:' "$out" | awk '{print $2}')
			i1[$tree]=$(grep -m1 '^summary:' "$out" | awk '{print $3}')
			d1[$tree]=$(grep -m1 '^summary:' "$out" | awk '{print $6 + $9}')
		done
		awk -v r="$name" -v io="${ir[old]}" -v inew="${ir[new]}" -v iold="${i1[old]}" -v i1new="${i1[new]}" \
			-v dold="${d1[old]}" -v dnew="${d1[new]}" \
			'BEGIN { printf "%-18s %15.0f %15.0f %6.3fx %12.0f %12.0f %6.3fx %12.0f %12.0f %6.3fx\n",
				r, io, inew, inew / io, iold, i1new, i1new / iold, dold, dnew, dnew / dold }'
	done <"$tmp/rows.json"
	exit 0
fi

if [ -n "$foot" ]; then
	(cd "$tmp/new" && go build -o "$tmp/footprint" ./scripts/footprint)
	while read -r row; do
		name=$(jq -r .row <<<"$row")
		slug=$(tr -c 'A-Za-z0-9=\n' _ <<<"$name")
		echo "$row" >"$tmp/row.json"
		declare -A execs
		for tree in old new; do
			commit=$old
			[ "$tree" = new ] && commit=$new
			out="$foot/callgrind.$commit.$slug"
			# The binary is kept beside the counts, and runs from there:
			# footprint finds its code in the counts by its name.
			cp "$tmp/$tree.test" "$foot/$commit.test"
			# Go's asynchronous preemption signals lose callgrind its
			# place in the call stacks.
			WEFT_SPEED_ROWS="$tmp/row.json" GOGC=off GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind \
				--dump-instr=yes --callgrind-out-file="$out" "$foot/$commit.test" -test.run TestSpeedRows -test.count 1 \
				>"$tmp/grind.log" 2>&1 || { cat "$tmp/grind.log" >&2; exit 1; }
			execs[$tree]=$(awk -F'\t' -v r="$name" '$1 == r { print $2; exit }' "$tmp/grind.log")
		done
		if [ "${execs[old]}" != "${execs[new]}" ]; then
			echo "speed-baseline.sh: row $name: $old explored ${execs[old]} executions, $new ${execs[new]}: their footprints per execution are not comparable" >&2
			exit 1
		fi
		echo "$name: ${execs[new]} executions; run 1 is $old, run 2 $new"
		"$tmp/footprint" -top 12 -execs "${execs[new]}" "$foot/$old.test" "$foot/callgrind.$old.$slug" \
			"$foot/$new.test" "$foot/callgrind.$new.$slug"
		echo
	done <"$tmp/rows.json"
	exit 0
fi

for i in $(seq "$rounds"); do
	for tree in old new; do
		WEFT_SPEED_ROWS="$tmp/rows.json" "$tmp/$tree.test" -test.run TestSpeedRows -test.count 1 |
			grep -P '\t' | sed "s/^/$tree\t/" >>"$tmp/times"
	done
done

# Least and median time per tree and row; the executions must agree.
awk -F'\t' -v old="$old" -v new="$new" '
	# median returns the median of the n values of a[1..n], which it sorts.
	function median(a, n,    i, j, x) {
		for (i = 2; i <= n; i++) {
			x = a[i]
			for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]
			a[j + 1] = x
		}
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{ key = $2; if (!(key in order)) { order[key] = ++n; label[n] = key }
	  if ($1 == "old") { oe[key] = $3; ov[key, ++on[key]] = $4 }
	  else { ne[key] = $3; nv[key, ++nn[key]] = $4 } }
	END {
		printf "%-18s %14s %14s %8s %14s %14s %8s  executions\n", "row", "least " old, "least " new, "new/old",
			"median " old, "median " new, "new/old"
		for (i = 1; i <= n; i++) {
			k = label[i]
			delete a; delete b
			for (j = 1; j <= on[k]; j++) a[j] = ov[k, j]
			for (j = 1; j <= nn[k]; j++) b[j] = nv[k, j]
			mo = median(a, on[k]); mn = median(b, nn[k])
			lo = a[1]; ln = b[1] # median sorted them
			note = (oe[k] == ne[k]) ? oe[k] : oe[k] " vs " ne[k] " (they differ)"
			printf "%-18s %13.3fs %13.3fs %7.2fx %13.3fs %13.3fs %7.2fx  %s\n", k, lo, ln, ln / lo, mo, mn, mn / mo, note
		}
	}' "$tmp/times"

if [ "$write" = 1 ]; then
	out="$root/cmd/weft/speed_baseline.txt"
	{
		echo "# The baseline of weft bench -table speed: CPU seconds (user and system) of"
		echo "# optimal's exploration of each row, in thread order, measured in process"
		echo "# as the table measures it (the least of $rounds runs), by"
		echo "# scripts/speed-baseline.sh -w $old. The table prints its own CPU time over"
		echo "# these. Measure again when the machine kind changes."
		echo "machine $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores, $(go env GOOS)/$(go env GOARCH), $(go env GOVERSION)"
		echo "date $(date -u +%F)"
		echo "commit $old"
		awk -F'\t' '$1 == "old" { k = $2; if (!(k in o)) { order[++n] = k; o[k] = $4 } else if ($4 < o[k]) o[k] = $4 }
			END { for (i = 1; i <= n; i++) printf "%s\t%.3f\n", order[i], o[order[i]] }' "$tmp/times"
	} >"$out"
	echo "wrote $out"
fi
