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
# keeps the temporary directory and prints its path; each package's go test
# events are in it as <library>/<package's directory, _ for />.json (root
# for the module's root; weft test -json). The last two columns are the
# wall and CPU (user and system) seconds of each package's weft test, its
# build included (/usr/bin/time, when there is one).
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
groupcache github.com/golang/groupcache@v0.0.0-20241129210726-2c02b8208cf8 ./singleflight ./lru ./consistenthash
lru github.com/hashicorp/golang-lru/v2@v2.0.7 ./...
atomic go.uber.org/atomic@v1.12.0 ./...
clockwork github.com/jonboulle/clockwork@v0.5.0 ./...
clock github.com/benbjohnson/clock@v1.3.5 ./...
ratelimit go.uber.org/ratelimit@v0.3.1 ./...
bigcache github.com/allegro/bigcache/v3@v3.1.0 ./...
retry github.com/sethvargo/go-retry@v0.5.0 ./...
retrygo github.com/avast/retry-go/v4@v4.7.0 ./...
xtime golang.org/x/time@v0.16.0 ./rate
gobreaker github.com/sony/gobreaker/v2@v2.4.0 ./...
backoff github.com/cenkalti/backoff/v5@v5.0.3 ./...
watermill github.com/ThreeDotsLabs/watermill@v1.5.1 ./pubsub/gochannel
resiliency github.com/eapache/go-resiliency@v1.7.0 ./...
workerpool github.com/gammazero/workerpool@v1.3.0 ./...
ttlcache github.com/jellydator/ttlcache/v3@v3.4.1 ./...
pond github.com/alitto/pond/v2@v2.7.1 ./...
cmap github.com/orcaman/concurrent-map/v2@v2.0.1 ./...
deque github.com/gammazero/deque@v1.2.3 ./...
run github.com/oklog/run@v1.2.0 ./...
cron github.com/robfig/cron/v3@v3.0.1 ./...
goleak go.uber.org/goleak@v1.3.0 ./...
lbackoff github.com/lestrrat-go/backoff/v2@v2.0.8 ./...
debounce github.com/bep/debounce@v1.2.1 ./...
chanx github.com/smallnest/chanx@v1.2.0 ./...
ristretto github.com/dgraph-io/ristretto/v2@v2.4.2 ./...
xsync github.com/puzpuzpuz/xsync/v4@v4.5.0 ./...
gocache github.com/patrickmn/go-cache@v2.1.0+incompatible ./...
channels github.com/eapache/channels@v1.1.0 ./...
datastructures github.com/Workiva/go-datastructures@v1.1.7 ./queue ./futures ./batcher ./threadsafe/...
ringbuffer github.com/smallnest/ringbuffer@v0.2.1 ./...
haxmap github.com/alphadose/haxmap@v1.4.0 .
deadlock github.com/sasha-s/go-deadlock@v0.3.9 ./...
ulid github.com/oklog/ulid/v2@v2.1.2 ./...
gocron github.com/go-co-op/gocron/v2@v2.21.2 ./...
eventbus github.com/asaskevich/EventBus@v0.0.0-20200907212545-49d423059eef ./...
uuid github.com/google/uuid@v1.6.0 ./...
'

only=" $* "
(cd "$root" && go build -o "$tmp/weft" ./cmd/weft)
export WEFT_REPLAY_FILES=0 WEFT_ROOT="$root"

timed=
[ -x /usr/bin/time ] && timed="/usr/bin/time -f %e_%U_%S -o"
printf '%-52s %-8s %5s %5s %5s %5s %5s %7s %7s  %s\n' package status tests pass skip refuse fail wall cpu 'failures (test: kind)'
echo "$libraries" | while read -r name modver patterns; do
	[ -n "$name" ] || continue
	if [ "$only" != "  " ]; then
		case $only in *" $name "*) ;; *) continue ;; esac
	fi
	dir=$(go mod download -json "$modver" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	if [ -z "$dir" ]; then
		printf '%-52s %s\n' "$modver" "not fetched"
		continue
	fi
	src="$tmp/$name"
	cp -R "$dir" "$src"
	chmod -R u+w "$src"
	if [ ! -e "$src/go.mod" ]; then
		# A module from before modules (patrickmn/go-cache's
		# v2.1.0+incompatible, for one) has no go.mod: as go does for
		# such a dependency, it gets one, with its imports resolved.
		(cd "$src" && go mod init "${modver%@*}" && go mod tidy) >"$src.mod.log" 2>&1 || true
	fi
	if ! pkgs=$(cd "$src" && go list -mod=mod $patterns 2>"$src.list.err"); then
		# (A module without a go.mod file whose go.mod could not be
		# made, for one: go list cannot load it outside GOPATH.)
		printf '%-52s %s\n' "$modver" "not listed"
		printf '    %s\n' "$(grep -v '^$' "$src.list.err" | head -n1 | cut -c1-200)"
		continue
	fi
	for pkg in $pkgs; do
		rel=".${pkg#"${modver%@*}"}"
		out="$src/$(echo "${rel#.}" | sed 's|^/||; s|/|_|g; s|^$|root|').json"
		status=0
		(cd "$src" && ${timed:+$timed "$out.time"} "$tmp/weft" test -json -timeout "$timeout" "$rel") >"$out" 2>"$out.err" || status=$?
		wall=- cpu=-
		if [ -s "$out.time" ]; then
			wall=$(tail -n1 "$out.time" | cut -d_ -f1)
			cpu=$(tail -n1 "$out.time" | awk -F_ '{ printf "%.1f", $2 + $3 }')
		fi
		# go test's events, one a line: the results of the tests (of the
		# leaves: a parent fails with its subtest), the refusals, and the
		# kind of each failing test's first report of weft's ("test" for
		# a failure without one: go test's own, a panic of the binary).
		stats=$(awk '
			function field(name,   i, v) {
				if (!match($0, "\"" name "\":\"[^\"]*\"")) return ""
				v = substr($0, RSTART, RLENGTH); sub("^\"" name "\":\"", "", v); sub(/"$/, "", v); return v
			}
			{ act = field("Action"); test = field("Test") }
			test == "" { next }
			act == "output" && index($0, "weft test refused this test:") { refused++ }
			act == "output" && !(test in kind) && match($0, /weft: [^"(]* \(execution [0-9]/) {
				k = substr($0, RSTART + 6, RLENGTH - 6); sub(/ \(execution [0-9]$/, "", k); sub(/ in T[0-9].*/, "", k); kind[test] = k
			}
			act == "pass" || act == "fail" || act == "skip" { n++; count[act]++; if (act == "fail") failed[++nf] = test }
			END {
				list = ""
				for (i = 1; i <= nf; i++) {
					parent = 0
					for (j = 1; j <= nf; j++) if (index(failed[j], failed[i] "/") == 1) parent = 1
					if (parent) continue
					list = list sep failed[i] ": " ((failed[i] in kind) ? kind[failed[i]] : "test"); sep = ", "
				}
				printf "%d %d %d %d %d %s\n", n, count["pass"], count["skip"], refused, count["fail"], list
			}
		' "$out")
		set -- $stats
		tests=$1 pass=$2 skip=$3 refuse=$4 fail=$5
		shift 5
		kinds="$*"
		state=loaded why=
		if [ "$tests" = 0 ] && grep -q '^weft test: ' "$out.err"; then
			state=refused why=$(grep -m1 '^weft test: ' "$out.err")
		elif [ "$tests" = 0 ] && grep -q '"Action":"build-fail"\|\[build failed\]' "$out"; then
			state=build why=$(grep -m1 -v '^#' "$out.err")
		elif [ "$tests" = 0 ] && [ $status -ne 0 ]; then
			state=error why=$(head -n1 "$out.err")
		fi
		printf '%-52s %-8s %5s %5s %5s %5s %5s %7s %7s  %s\n' "$pkg" "$state" "$tests" "$pass" "$skip" "$refuse" "$fail" "$wall" "$cpu" "$kinds"
		[ -z "$why" ] || printf '    %s\n' "$(echo "$why" | cut -c1-200)"
	done
done
