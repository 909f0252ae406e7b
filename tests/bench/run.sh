#!/bin/sh
# run.sh: `make bench` entry point. Runs every tests/bench/*.bench script in name order from
# the repository root and prints its output under a header; exits non-zero if any failed.
cd "$(dirname "$0")/../.." || exit 2
rc=0
for b in tests/bench/*.bench; do
	[ -e "$b" ] || continue
	echo "== $b"
	if ! sh "$b"; then
		echo "!! $b failed"
		rc=1
	fi
done
exit $rc
