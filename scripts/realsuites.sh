#!/bin/sh
# realsuites.sh runs weft test, built from this checkout, on the unedited
# test suites of a few real libraries, fetched at fixed versions through
# the Go module proxy into a temporary directory (removed at the end), one
# package at a time, and prints per package whether it loaded (or why not),
# the tests run, passed, skipped, refused and failed, and the kinds of the
# failures. It is opt-in and slow (minutes): run it by hand, from anywhere,
# preferably with nice:
#
#	nice scripts/realsuites.sh            # every library
#	nice scripts/realsuites.sh sync conc  # some of them
#
# REALSUITES_TIMEOUT bounds each exploration (default 5s), REALSUITES_KEEP=1
# keeps the temporary directory and prints its path, and each package's full
# output is in it as <library>/<package>.out.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
timeout=${REALSUITES_TIMEOUT:-5s}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/weft-realsuites-XXXXXX")
if [ "${REALSUITES_KEEP:-0}" = 1 ]; then
	echo "keeping $tmp"
else
	trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
fi

# The libraries: name, module@version, and the packages (relative to the
# module's root) whose tests run.
libraries='
sync golang.org/x/sync@v0.25.0 ./errgroup ./semaphore ./singleflight
conc github.com/sourcegraph/conc@v0.3.0 ./...
ants github.com/panjf2000/ants/v2@v2.12.1 ./...
puddle github.com/jackc/puddle/v2@v2.2.2 ./...
'

(cd "$root" && go build -o "$tmp/weft" ./cmd/weft)
export WEFT_REPLAY_FILES=0 WEFT_ROOT="$root"

printf '%-52s %-8s %5s %5s %5s %5s %5s  %s\n' package status tests pass skip refuse fail 'failures (test: kind)'
echo "$libraries" | while read -r name modver patterns; do
	[ -n "$name" ] || continue
	if [ $# -gt 0 ]; then
		case " $* " in *" $name "*) ;; *) continue ;; esac
	fi
	dir=$(go mod download -json "$modver" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	if [ -z "$dir" ]; then
		printf '%-52s %s\n' "$modver" "not fetched"
		continue
	fi
	src="$tmp/$name"
	cp -R "$dir" "$src"
	chmod -R u+w "$src"
	pkgs=$(cd "$src" && go list -mod=mod $patterns 2>/dev/null)
	for pkg in $pkgs; do
		rel=".${pkg#"${modver%@*}"}"
		out="$src/$(echo "$rel" | tr / _).out"
		status=0
		(cd "$src" && "$tmp/weft" test -v -timeout "$timeout" "$rel") >"$out" 2>&1 || status=$?
		tests=$(grep -cE '^ *--- (PASS|FAIL|SKIP): ' "$out" || true)
		pass=$(grep -cE '^ *--- PASS: ' "$out" || true)
		skip=$(grep -cE '^ *--- SKIP: ' "$out" || true)
		refuse=$(grep -c 'weft test refused this test:' "$out" || true)
		fail=$(grep -cE '^ *--- FAIL: ' "$out" || true)
		state=loaded why=
		if [ "$tests" = 0 ] && grep -q '^weft test: ' "$out"; then
			state=refused why=$(grep -m1 '^weft test: ' "$out")
		elif [ "$tests" = 0 ] && grep -q '\[build failed\]' "$out"; then
			state=build why=$(grep -m1 -vE '^(#|FAIL|ok)' "$out")
		elif [ "$tests" = 0 ] && [ $status -ne 0 ]; then
			state=error why=$(head -n1 "$out")
		fi
		# The kind of each failing test's first report, or "test" for a
		# failure outside weft's reports (go test's own, a subtest's
		# parent).
		kinds=$(awk '
			/^=== (RUN|CONT)/ { t = $3 }
			/weft: .* \(execution [0-9]+/ && !(t in kind) {
				k = $0; sub(/.*weft: /, "", k); sub(/ \(execution [0-9]+.*/, "", k); sub(/ in T[0-9].*/, "", k); kind[t] = k
			}
			/--- FAIL: / { n = $3; printf "%s%s: %s", sep, n, ((n in kind) ? kind[n] : "test"); sep = ", " }
		' "$out")
		printf '%-52s %-8s %5s %5s %5s %5s %5s  %s\n' "$pkg" "$state" "$tests" "$pass" "$skip" "$refuse" "$fail" "$kinds"
		[ -z "$why" ] || printf '    %s\n' "$(echo "$why" | cut -c1-200)"
	done
done
