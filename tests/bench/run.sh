#!/usr/bin/env bash
# run.sh: `make bench`: run every tests/bench/*.bench script in name order; the exit status
# is the number of scripts that failed (0 = all ran).
set -u
cd "$(dirname "$0")/../.." || exit 1
fail=0
for b in tests/bench/*.bench; do
	[ -e "$b" ] || continue
	echo "### $b"
	if ! bash "$b"; then
		echo "### $b: FAILED" >&2
		fail=$((fail + 1))
	fi
done
exit "$fail"
