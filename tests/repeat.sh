#!/usr/bin/env bash
# repeat.sh: the repeat gate behind `make test-repeat N=50`. Runs every test it is given
# (host test binaries, tests/scripts/*.t) N times and reports each one that ever failed, with
# how many of its N runs failed; exit status 1 if any did, 0 otherwise.
#
#   tests/repeat.sh [-n N] [-j JOBS] [-o DIR] TEST...
#
# A run fails as it would under prove in `make test`: a non-zero exit status, no TAP plan,
# fewer or more results than the plan, or a `not ok` that is not a TODO. One test's runs
# are sequential (the QEMU scripts reuse their log directories); with -j, up to JOBS
# different tests run side by side. The output of every failed run stays in DIR
# (default build/repeat) as NAME.RUN.log. A run that takes longer than REPEAT_TIMEOUT
# seconds (default 900) is stopped and counts as failed.
set -u
n=10 jobs=1 out=build/repeat
while getopts "n:j:o:" opt; do
	case $opt in
	n) n=$OPTARG ;;
	j) jobs=$OPTARG ;;
	o) out=$OPTARG ;;
	*) echo "usage: $0 [-n N] [-j JOBS] [-o DIR] TEST..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
case "$n$jobs" in *[!0-9]*) echo "repeat: -n and -j take positive integers" >&2; exit 2 ;; esac
if [ "$n" -lt 1 ] || [ "$jobs" -lt 1 ] || [ $# -eq 0 ]; then
	echo "usage: $0 [-n N>=1] [-j JOBS>=1] [-o DIR] TEST..." >&2
	exit 2
fi
for t in "$@"; do
	[ -x "$t" ] || { echo "repeat: $t: not an executable test (build it first)" >&2; exit 2; }
done
mkdir -p "$out" || exit 2
rm -f "$out"/*.log "$out/results"
export CMOCKA_MESSAGE_OUTPUT=TAP

# tap_ok FILE: the TAP stream in FILE is a pass (the judgement prove makes)
tap_ok() {
	awk '
	/^1\.\.[0-9]+/ { if (!plan) { plan = 1; want = substr($1, 4) + 0 } }
	/^ok( |$)/ { got++ }
	/^not ok( |$)/ { got++; if ($0 !~ /# *TODO/) bad++ }
	END { exit !(plan && got == want && !bad) }' "$1"
}

# one TEST: run it N times, print "FAILS N NAME" (FAILS: how many runs failed)
one() {
	local t=$1 name fails=0 i log s0 s1
	name=$(basename "$t")
	s0=$(date +%s)
	for ((i = 1; i <= n; i++)); do
		log=$out/$name.$i.log
		timeout -k 10 "${REPEAT_TIMEOUT:-900}" "$t" >"$log" 2>&1 </dev/null
		local rc=$?
		if [ $rc -ne 0 ] || ! tap_ok "$log"; then
			fails=$((fails + 1))
			echo "# exit status $rc" >>"$log"
		else
			rm -f "$log"
		fi
	done
	s1=$(date +%s)
	echo "$fails $n $name $((s1 - s0))"
}
export -f one tap_ok
export n out

start=$(date +%s)
printf '%s\n' "$@" | xargs -d '\n' -P "$jobs" -I{} bash -c 'one "$1"' _ {} >"$out/results"
total=$(($(date +%s) - start))
sort -k3 "$out/results" | while read -r fails runs name secs; do
	printf '%-24s %3d of %d runs failed  (%d s)\n' "$name" "$fails" "$runs" "$secs"
done
failed=$(awk '$1 > 0' "$out/results" | wc -l)
echo "repeat: $# tests x $n runs in $total s (-j $jobs): $failed failed at least once"
if [ "$failed" -gt 0 ]; then
	awk '$1 > 0 { printf "FAILED %s: %d of %d runs\n", $3, $1, $2 }' "$out/results" | sort
	echo "repeat: output of the failed runs in $out/"
	exit 1
fi
exit 0
