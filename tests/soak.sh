#!/usr/bin/env bash
# soak.sh: `make soak` (issue 27): the seeded hostile PMU scenario (tests/host/pmi_scenario.c:
# late PMIs with counters running, a PMI before any MSR access of pebs_stop, stale
# GLOBAL_STATUS, leftover PMCs, the core clock on) over SEEDS random seeds (default 200), one
# process per seed. Prints every failing seed with the command that reproduces it; exit 1 if
# any failed. The seeds come from /dev/urandom; SOAK_FIRST=n runs n, n+1, ... instead.
#
#   tests/soak.sh [BINARY]    (default build/host/tests/pmi_hostile_test)
set -u
bin=${1:-build/host/tests/pmi_hostile_test}
seeds=${SEEDS:-200}
case "$seeds" in ''|*[!0-9]*) echo "soak: SEEDS=$seeds is not a number" >&2; exit 2 ;; esac
[ -x "$bin" ] || { echo "soak: $bin: not built (make $bin)" >&2; exit 2; }
fail=0
# first the full sweeps (as make test runs them: PMI_SWEEP_ALL=1): every modelled row, the
# probe's 64 hostile seeds a row and the trust signals' 200 seeds
sweep() {	# sweep WHAT BINARY: run it with PMI_SWEEP_ALL=1, count and show a failure
	[ -x "$2" ] || return 0
	if ! out=$(PMI_SWEEP_ALL=1 "$2" 2>&1); then
		fail=$((fail + 1))
		echo "FAIL $1:"
		printf '%s\n' "$out" | grep -v '^ok' | head -20
		echo "  reproduce: PMI_SWEEP_ALL=1 $2"
	fi
}
sweep "the probe's hostile seeds" "$(dirname "$bin")/pmu_probe_test"
sweep "the trust signals' 200 seeds" "$(dirname "$bin")/trust_test"
sweep "the sweeps over every row" "$bin"
for ((i = 0; i < seeds; i++)); do
	if [ -n "${SOAK_FIRST:-}" ]; then
		seed=$((SOAK_FIRST + i))
	else
		seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
	fi
	if ! out=$(PMI_SEED=$seed "$bin" 2>&1); then
		fail=$((fail + 1))
		echo "FAIL seed $seed: $(printf '%s\n' "$out" | grep -m1 . )"
		echo "  reproduce: PMI_SEED=$seed $bin"
	fi
done
echo "soak: $seeds seeds, $fail failed"
[ "$fail" -eq 0 ]
