#!/bin/sh
# nidhugg.sh measures Nidhugg (Abdulla, Aronis, Jonsson, Sagonas, "Optimal
# dynamic partial order reduction", POPL 2014; --sc --optimal) on the C
# programs weft compares itself with, and writes what it measured to
# cmd/weft/nidhugg.txt, which weft bench -table speed and the spin-lock
# tests read: per program its trace count, the executions Nidhugg's
# assume-await transformation blocked, and the least CPU time (user and
# system, in seconds) of RUNS explorations, without the compilation.
#
# It is opt-in and slow (minutes). Nidhugg is not part of weft: get its
# source yourself (https://github.com/nidhugg/nidhugg; it builds with
# clang and LLVM 14, Boost and autotools), then
#
#	NIDHUGG_SRC=$HOME/nidhugg scripts/nidhugg.sh
#
# builds it there if src/nidhugg is missing and runs the programs: the
# speed table's fib_bench, indexer and filesystem from Nidhugg's own
# benchmarks directory, and testdata/nidhugg/pairs.c and the spin locks of
# testdata/spinlocks from this repository. CLANG names clang (default:
# clang, else LLVM 14's), RUNS the explorations per program (default 3),
# OUT the file written (default cmd/weft/nidhugg.txt).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
src=${NIDHUGG_SRC:?set NIDHUGG_SRC to a checkout of the source of Nidhugg, https://github.com/nidhugg/nidhugg}
runs=${RUNS:-3}
out=${OUT:-$root/cmd/weft/nidhugg.txt}
clang=${CLANG:-$(command -v clang || echo /usr/lib/llvm-14/bin/clang)}
[ -x "$clang" ] || { echo "nidhugg.sh: no clang at $clang: set CLANG" >&2; exit 2; }

nidhugg=$src/src/nidhugg
if [ ! -x "$nidhugg" ]; then
	echo "building Nidhugg in $src" >&2
	(cd "$src" && { [ -x configure ] || autoreconf --install; } && { [ -f Makefile ] || ./configure; } && make -j"$(nproc)")
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/weft-nidhugg-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# measure ROW FILE [CLANG FLAGS...] prints ROW, the trace count, the
# blocked count and the least CPU time of $runs explorations.
measure() {
	row=$1 file=$2
	shift 2
	"$clang" -o "$tmp/in.ll" -S -emit-llvm -g "$@" "$file"
	"$nidhugg" --sc --optimal -transform "$tmp/run.ll" "$tmp/in.ll" >/dev/null 2>&1 || {
		printf '%s\t-\t-\t-\n' "$row" # the transformation failed
		return
	}
	best=
	i=0
	while [ "$i" -lt "$runs" ]; do
		/usr/bin/time -f '%U %S' -o "$tmp/time" "$nidhugg" "$tmp/run.ll" --sc --optimal >"$tmp/log" 2>&1 || true
		cpu=$(tail -n 1 "$tmp/time" | awk '{ printf "%.2f", $1 + $2 }')
		if [ -z "$best" ] || [ "$(echo "$cpu < $best" | bc)" = 1 ]; then
			best=$cpu
		fi
		i=$((i + 1))
	done
	traces=$(sed -n 's/^Trace count: //p' "$tmp/log")
	blocked=$(sed -n 's/^Assume-blocked trace count: //p' "$tmp/log")
	if [ -z "$traces" ]; then
		printf '%s\t-\t-\t-\n' "$row" # it failed
		return
	fi
	printf '%s\t%s\t%s\t%s\n' "$row" "$traces" "${blocked:-0}" "$best"
}

b=$src/benchmarks
{
	echo "# Nidhugg's figures (--sc --optimal), written by scripts/nidhugg.sh: row, traces,"
	echo "# executions blocked by its assume-await transformation, least CPU seconds of $runs."
	echo "machine $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) cores, $(uname -s | tr A-Z a-z)/$(uname -m)"
	echo "date $(date -u +%Y-%m-%d)"
	echo "nidhugg $(git -C "$src" rev-parse --short=8 HEAD 2>/dev/null || "$nidhugg" --version 2>&1 | head -1)"
	echo "clang $("$clang" --version | head -1)"
	measure "fib_bench N=4" "$b/from_OBSERVERS/fib_bench.c" -DN=4
	measure "fib_bench N=5" "$b/from_OBSERVERS/fib_bench.c" -DN=5
	measure "indexer N=15" "$b/SV-COMP/indexer.c" -DNUM_THREADS=15
	measure "pairs n=12" "$root/testdata/nidhugg/pairs.c" -DN=12
	measure "filesystem N=20" "$b/from_TRACER/filesystem.c" -DNUM_THREADS=20
	for lock in peterson dekker ttas filter bakery; do
		measure "spin $lock" "$root/testdata/spinlocks/$lock.c"
	done
} >"$out.new"
mv "$out.new" "$out"
cat "$out"
