#!/bin/bash
# xcorebench.t: tools/xcorebench runs, stays bounded and prints its four lines in the
# documented form (no assertion on the measured values: they are real time); bad arguments
# are refused with the usage line.
cd "$(dirname "$0")/../.." || exit 1
xb=build/host/xcorebench
echo "1..3"
[ -x "$xb" ] || make --no-print-directory "$xb" >/dev/null 2>&1
if [ "$(nproc)" -lt 2 ]; then
	for i in 1 2 3; do echo "ok $i # SKIP one CPU"; done
	exit 0
fi
out=$(timeout 60 "$xb" --cpus 0,1 --iters 50 2>&1)
rc=$?
[ $rc = 0 ] && echo "ok 1 - runs (exit 0)" || echo "not ok 1 - exit $rc: $out"
lines=$(grep -cE '^(xcorebench: CPUs 0,1, 50 iterations|pingpong: ([0-9.]+ ns per one-way|stalled)|(snoop|hitm): (median [0-9.]+ ns \([0-9]+ TSC\) per load; l1 re-load [0-9.]+ ns|stalled))' <<<"$out")
[ "$lines" = 4 ] && echo "ok 2 - four lines in the documented form" || echo "not ok 2 - got: $out"
"$xb" --bogus >/dev/null 2>"${TMPDIR:-/tmp}/xb.$$"; rc=$?
grep -q "usage: xcorebench" "${TMPDIR:-/tmp}/xb.$$" && [ $rc = 2 ] && echo "ok 3 - bad argument: usage, exit 2" || echo "not ok 3 - rc $rc"
rm -f "${TMPDIR:-/tmp}/xb.$$"
