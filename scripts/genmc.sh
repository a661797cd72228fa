#!/bin/sh
# genmc.sh measures GenMC (Kokologiannakis and Vafeiadis, "GenMC: A Model
# Checker for Weak Memory Models", CAV 2021; its algorithm: Kokologiannakis,
# Raad and Vafeiadis, "Model checking for weakly consistent libraries",
# PLDI 2019) under sequential consistency (-sc) on the C programs weft
# compares itself with, and writes what it measured to cmd/weft/genmc.txt,
# which weft bench -table speed and the spin-lock tests read: per program
# its complete executions, its blocked executions, and the least CPU time
# (user and system, in seconds) of RUNS explorations, without the
# compilation.
#
# It is opt-in and slow (minutes). GenMC is not part of weft: get its
# source yourself (https://github.com/MPI-SWS/genmc, v0.11.0; it builds
# with LLVM 14 and autotools), then
#
#	GENMC_SRC=$HOME/genmc NIDHUGG_SRC=$HOME/nidhugg scripts/genmc.sh
#
# builds it there if the genmc executable is missing (GenMC 0.11 asks for a
# C++23 compiler; with g++ 12 configure it yourself first: see
# docs/strategies.md) and runs the programs scripts/nidhugg.sh runs:
# fib_bench, indexer and filesystem from Nidhugg's benchmarks directory
# (NIDHUGG_SRC names a checkout of Nidhugg's source; it need not be
# built), and testdata/nidhugg/pairs.c and the spin locks of
# testdata/spinlocks from this repository, unchanged: GenMC compiles them
# against its own pthread.h and stdatomic.h. CLANG names clang (default:
# clang, else LLVM 14's; it must be the LLVM GenMC was built with), RUNS
# the explorations per program (default 3), OUT the file written (default
# cmd/weft/genmc.txt).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
src=${GENMC_SRC:?set GENMC_SRC to a checkout of the source of GenMC, https://github.com/MPI-SWS/genmc}
bench=${NIDHUGG_SRC:?set NIDHUGG_SRC to a checkout of the source of Nidhugg, for its benchmarks}/benchmarks
runs=${RUNS:-3}
out=${OUT:-$root/cmd/weft/genmc.txt}
clang=${CLANG:-$(command -v clang || echo /usr/lib/llvm-14/bin/clang)}
[ -x "$clang" ] || { echo "genmc.sh: no clang at $clang: set CLANG" >&2; exit 2; }
[ -d "$bench" ] || { echo "genmc.sh: no benchmarks directory in $NIDHUGG_SRC" >&2; exit 2; }

genmc=$src/genmc
if [ ! -x "$genmc" ]; then
	echo "building GenMC in $src" >&2
	(cd "$src" && { [ -x configure ] || autoreconf --install; } && { [ -f Makefile ] || ./configure; } && make -j"$(nproc)")
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/weft-genmc-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# measure ROW FILE [CLANG FLAGS...] prints ROW, the complete executions,
# the blocked executions and the least CPU time of $runs explorations. It
# compiles FILE as GenMC does (its flags, its include directory) and
# gives GenMC the module, so that the times leave clang out.
measure() {
	row=$1 file=$2
	shift 2
	"$clang" -fno-discard-value-names -Xclang -disable-O0-optnone -g -I"$src/include" \
		-D__CONFIG_GENMC_INODE_DATA_SIZE=64 -S -emit-llvm -o "$tmp/in.ll" "$@" "$file"
	best=
	i=0
	while [ "$i" -lt "$runs" ]; do
		# shellcheck disable=SC2086 # $opts are words
		/usr/bin/time -f '%U %S' -o "$tmp/time" "$genmc" -sc -disable-estimation $opts -input-from-bitcode-file "$tmp/in.ll" >"$tmp/log" 2>&1 || true
		cpu=$(tail -n 1 "$tmp/time" | awk '{ printf "%.2f", $1 + $2 }')
		if [ -z "$best" ] || [ "$(echo "$cpu < $best" | bc)" = 1 ]; then
			best=$cpu
		fi
		i=$((i + 1))
	done
	execs=$(sed -n 's/^Number of complete executions explored: \([0-9]*\).*/\1/p' "$tmp/log")
	blocked=$(sed -n 's/^Number of blocked executions seen: \([0-9]*\).*/\1/p' "$tmp/log")
	if [ -z "$execs" ] || ! grep -q '^No errors were detected' "$tmp/log"; then
		printf '%s\t-\t-\t-\n' "$row" # it failed
		sed 's/^/genmc.sh: /' "$tmp/log" | head -20 >&2
		return
	fi
	printf '%s\t%s\t%s\t%s\n' "$row" "$execs" "${blocked:-0}" "$best"
}

{
	echo "# GenMC's figures (-sc -disable-estimation), written by scripts/genmc.sh: row, complete"
	echo "# executions, blocked executions, least CPU seconds of $runs."
	echo "machine $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) cores, $(uname -s | tr A-Z a-z)/$(uname -m)"
	echo "date $(date -u +%Y-%m-%d)"
	version=$("$genmc" -version 2>&1 | sed -n 's/^ *\(GenMC v[^ ]*\).*/\1/p' | head -1)
	llvm=$("$genmc" -version 2>&1 | sed -n 's/^ *Built with \(LLVM [^ ]*\).*/\1/p' | head -1)
	commit=$(git -C "$src" rev-parse --short=8 HEAD 2>/dev/null || true)
	echo "genmc ${version:-GenMC}${llvm:+ ($llvm)}${commit:+, $commit}"
	echo "clang $("$clang" --version | head -1)"
	opts=
	measure "fib_bench N=4" "$bench/from_OBSERVERS/fib_bench.c" -DN=4
	measure "fib_bench N=5" "$bench/from_OBSERVERS/fib_bench.c" -DN=5
	measure "indexer N=15" "$bench/SV-COMP/indexer.c" -DNUM_THREADS=15
	measure "pairs n=12" "$root/testdata/nidhugg/pairs.c" -DN=12
	measure "filesystem N=20" "$bench/from_TRACER/filesystem.c" -DNUM_THREADS=20
	# In-place revisiting, GenMC's treatment of spin loops, makes the
	# writes of the locks that no order joins (both threads' turn) an
	# error; without it they are not one.
	opts=-disable-ipr
	echo "# spin rows: -disable-ipr"
	for lock in peterson dekker ttas filter bakery; do
		measure "spin $lock" "$root/testdata/spinlocks/$lock.c"
	done
} >"$out.new"
mv "$out.new" "$out"
cat "$out"
