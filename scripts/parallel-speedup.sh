#!/bin/sh
# parallel-speedup.sh measures what -workers 2 gains over one worker on
# this machine, and what the machine itself gives two processes at once,
# so that the first can be read against the second. It builds weft from
# this checkout and, for each of a number of rounds, runs in turn:
#
#	alone   weft run -workers 1 (optimal, unbounded) on the program
#	workers weft run -workers 2 on the same program
#	pair    two of "alone" at the same time, as independent processes
#
# and prints each round's wall and CPU (user and system) seconds, the
# speedup (alone's wall over workers'), the CPU of workers over alone's
# (above 1: two busy cores spent more for the same executions), the
# pair's CPU over twice alone's (the same question asked of two processes
# that share nothing, not even a heap: what the machine costs), and the
# workers' idle shares as weft reports them; then the medians. It is
# opt-in and takes minutes: run it on a quiet machine, by hand.
#
#	scripts/parallel-speedup.sh                 # fib n=5, 10 rounds
#	scripts/parallel-speedup.sh -rounds 4 fib n=4
#
# On a virtual machine whose two cores share a physical one at times, the
# rounds differ widely; the pair's column shows when.
set -eu

rounds=10
while [ $# -gt 0 ]; do
	case "$1" in
	-rounds) rounds=${2:?-rounds needs a number}; shift 2 ;;
	-h | --help) sed -n '2,/^set /p' "$0" | sed -n 's/^# \{0,1\}//p'; exit 0 ;;
	-*) echo "parallel-speedup.sh: unknown flag $1 (see -h)" >&2; exit 2 ;;
	*) break ;;
	esac
done
case "$rounds" in
'' | *[!0-9]* | 0) echo "parallel-speedup.sh: -rounds $rounds is not a positive number" >&2; exit 2 ;;
esac
prog=${1:-fib}
param=${2:-n=5}
if [ ! -x /usr/bin/time ]; then
	echo "parallel-speedup.sh: needs /usr/bin/time (apt-get install time)" >&2
	exit 2
fi

root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/weft-speedup-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/weft" ./cmd/weft)

# run OUT WORKERS: one exploration, its wall and CPU seconds in OUT, its
# report in OUT.report.
run() {
	/usr/bin/time -o "$1" -f "%e %U %S" "$tmp/weft" run -max-runs 0 -workers "$2" -p "$param" "$prog" >"$1.report" 2>&1 ||
		{ cat "$1.report" >&2; exit 1; }
}

printf "%-5s %14s %13s %15s %7s %10s %9s  %s\n" round "alone wall/cpu" "workers w/cpu" "pair cpu" speedup "cpu ratio" "pair ratio" "workers' idle"
i=1
while [ "$i" -le "$rounds" ]; do
	run "$tmp/alone" 1
	run "$tmp/workers" 2
	run "$tmp/pa" 1 &
	pair=$!
	run "$tmp/pb" 1
	wait "$pair"
	idle=$(sed -n 's/^workers *[0-9]*: //p' "$tmp/workers.report" | sed 's/[0-9]* executions //g')
	awk -v r="$i" -v idle="$idle" '
		FILENAME ~ /alone$/ { aw = $1; ac = $2 + $3 }
		FILENAME ~ /workers$/ { ww = $1; wc = $2 + $3 }
		FILENAME ~ /pa$/ || FILENAME ~ /pb$/ { pc += $2 + $3 }
		END {
			printf "%-5d %14s %13s %15.2f %6.2fx %10.2f %9.2f  %s\n", r, sprintf("%.2f/%.2f", aw, ac),
				sprintf("%.2f/%.2f", ww, wc), pc, aw / ww, wc / ac, pc / (2 * ac), idle
		}
	' "$tmp/alone" "$tmp/workers" "$tmp/pa" "$tmp/pb" | tee -a "$tmp/rows"
	i=$((i + 1))
done
awk '
	{ s[NR] = $5 + 0; c[NR] = $6 + 0; p[NR] = $7 + 0 }
	function median(a, n,   i, j, t) {
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
		return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
	}
	END { printf "median: speedup %.2fx, workers'"'"' cpu over alone'"'"'s %.2f, the pair'"'"'s over twice alone'"'"'s %.2f (%d rounds)\n", median(s, NR), median(c, NR), median(p, NR), NR }
' "$tmp/rows"
