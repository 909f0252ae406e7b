#!/usr/bin/env bash
# loadbench.t: the loadbench CLI (tools/loadbench.c) - argument parsing, JSON Lines keys,
# exit status on bad arguments. A quick sanity run with tiny budgets, not a timing check: no
# assertion depends on a measured value.
# --pebs (tools/loadbench_pebs.c): each refusal with its reason and exit status on fake sysfs
# trees (LOADBENCH_SYSFS, LOADBENCH_PARANOID): 3 no PMU (also this machine's own sysfs when it
# has no core PMU), 4 no permission (unprivileged, paranoid 3), 5 no mem-loads / a PMU type the
# kernel does not know; and a whole run on a software stand-in PMU (the fake `cpu` PMU is
# PERF_TYPE_SOFTWARE cpu-clock: no sample has a data address, so the PEBS verdicts fail) whose
# log tools/pebs-report reads and compares without complaint.
set -u
cd "$(dirname "$0")/../.." || exit 1
LB=build/host/loadbench
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
echo "1..29"
if [ ! -x "$LB" ]; then
	for i in $(seq 1 21); do echo "not ok $i - $LB not built"; done
	exit 0
fi
QUICK="--rounds 1 --reps 1 --budget-ms 2"
T0=$(mktemp -d /tmp/lb_t0.XXXXXX)

"$LB" --help >/tmp/lb_help.$$ 2>&1; rc=$?
check "--help exits 0 with usage" '[ $rc -eq 0 ] && grep -q "usage: loadbench" /tmp/lb_help.$$'
"$LB" --bogus >/dev/null 2>&1; rc=$?
check "unknown option exits 2" '[ $rc -eq 2 ]'
"$LB" --sizes 12Q >/dev/null 2>&1; rc=$?
check "bad size exits 2" '[ $rc -eq 2 ]'
"$LB" --sizes 1K >/dev/null 2>&1; rc=$?
check "size below 4K exits 2" '[ $rc -eq 2 ]'
"$LB" --sizes >/dev/null 2>&1; rc=$?
check "--sizes without value exits 2" '[ $rc -eq 2 ]'
"$LB" --ppo 3 >/dev/null 2>&1; rc=$?
check "--ppo not dividing 16 exits 2" '[ $rc -eq 2 ]'
"$LB" --reps 0 >/dev/null 2>&1; rc=$?
check "--reps 0 exits 2" '[ $rc -eq 2 ]'

out=$("$LB" --sizes 16K,1M --json $QUICK 2>/tmp/lb_err.$$); rc=$?
check "--json run exits 0" '[ $rc -eq 0 ]'
# ns_per_load and tsc_per_load are real-time measurements: only their form is checked, never
# their values (a test that depends on how fast or busy the machine is, is a benchmark)
check "--json: one JSON object per size with size_bytes, ns_per_load, tsc_per_load" \
	'printf "%s\n" "$out" | python3 -c "
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.strip()]
assert [r[\"size_bytes\"] for r in rows] == [16384, 1048576], rows
for r in rows:
    for k in (\"ns_per_load\", \"tsc_per_load\"):
        assert isinstance(r[k], (int, float)) and not isinstance(r[k], bool) and r[k] >= 0, (k, r)
"'
check "--json: spread_pct, remeasured (<= 2), noisy (bool, true only above 10 %), warm_bound (<= rounds)" \
	'printf "%s\n" "$out" | python3 -c "
import json, sys
for r in (json.loads(l) for l in sys.stdin if l.strip()):
    assert isinstance(r[\"spread_pct\"], int) and r[\"spread_pct\"] >= 0, r
    assert r[\"remeasured\"] in (0, 1, 2), r
    assert isinstance(r[\"noisy\"], bool) and (not r[\"noisy\"] or r[\"spread_pct\"] >= 10), r
    assert r[\"noisy\"] or r[\"spread_pct\"] <= 10, r
    assert 0 <= r[\"warm_bound\"] <= r[\"rounds\"], r
"'
check "method line states the warm-up and spread rules" \
	'grep -q "^# method: .*laps until two successive laps agree within 3%.*spread > 10%: re-measured up to 2 times" /tmp/lb_err.$$'
check "--json: comments go to stderr, not stdout" \
	'grep -q "^# pages:" /tmp/lb_err.$$ && ! printf "%s\n" "$out" | grep -q "^#"'

out=$("$LB" --sizes 64K,256K,2M $QUICK 2>&1); rc=$?
check "text mode: exit 0, three rows, per-level summary" \
	'[ $rc -eq 0 ] && [ "$(printf "%s\n" "$out" | grep -cE "^ +[0-9]+ ")" -eq 3 ] &&
	 printf "%s\n" "$out" | grep -q "^# level DRAM"'

# --- issue 29 items 1-2: core clock, memory cap, progress (forms only, never values) ---
check "core/tsc: from perf cycles or the IMUL chain, with its plausibility (item 1)" \
	'printf "%s\n" "$out" | grep -qE "^# tsc: [0-9]+ kHz \(vs CLOCK_MONOTONIC\); core/tsc [0-9]+\.[0-9]{3} \((perf cycles; IMUL chain [0-9.]+, (agrees|disagrees by more than 10 %)|IMUL chain, [35]-cycle latency( assumed)?; no perf cycles: .*)\); (plausible|IMPLAUSIBLE, outside) [0-9.]+\.\.[0-9.]+ \(.*\)$|; no plausible range known \(no CPUID 16H\)$" &&
	 ! printf "%s\n" "$out" | grep -q "dependent-ADD"'
"$LB" --sizes 64M,128M --max-mem 100M >/dev/null 2>"$T0/cap.err"; rc=$?
check "--sizes over --max-mem: exit 2 with what they would keep resident and the cap (item 2)" \
	'[ $rc -eq 2 ] && grep -q "^loadbench: these sizes keep 2[0-9][0-9]M resident .*over the cap of 100M" "$T0/cap.err"'
"$LB" --max-mem 1M >/dev/null 2>&1; rc=$?
check "--max-mem below 1M is refused" '[ $rc -eq 2 ]'
out2=$("$LB" --sizes 16K,64K $QUICK 2>&1 | tr -d "\r")
check "warm-up line: the measured mark, or none, never CPUID's L3 alone (item 2)" \
	'printf "%s\n" "$out2" | grep -qE "^# warm-up: (past every cache from .* as measured .*CPUID.s L3: .*|no size measured past every cache: full laps everywhere)$"'
script -qec "$LB --sizes 16K,64K $QUICK" /dev/null >"$T0/tty.out" 2>&1
"$LB" --sizes 16K,64K $QUICK >"$T0/notty.out" 2>&1
check "progress line on a terminal only (item 2)" \
	'grep -q "loadbench: 2/2 measurements, round 1/1, size 64K" "$T0/tty.out" &&
	 ! grep -q "measurements, round" "$T0/notty.out"'

# --- --pebs ---
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
T=$(mktemp -d /tmp/lb_sysfs.XXXXXX)
trap 'rm -rf "$T" "$T0" /tmp/lb_help.$$ /tmp/lb_err.$$' EXIT
pmu() {	# pmu DIR TYPE [mem-loads terms]
	mkdir -p "$1/format" "$1/events"
	echo "$2" >"$1/type"
	echo "config:0-7" >"$1/format/event"
	echo "config:8-15" >"$1/format/umask"
	echo "config1:0-15" >"$1/format/ldlat"
	[ -n "${3:-}" ] && echo "$3" >"$1/events/mem-loads"
	return 0
}
mkdir -p "$T/none/software" && echo 1 >"$T/none/software/type"
out=$(LOADBENCH_SYSFS="$T/none" "$LB" --pebs 2>&1); rc=$?
check "--pebs, no PMU in sysfs: exit 3 with the reason" \
	'[ $rc -eq 3 ] && printf "%s" "$out" | grep -q "^loadbench --pebs: no PMU: .* has no cpu, cpu_core/cpu_atom or ibs_op"'
if ls /sys/bus/event_source/devices/ 2>/dev/null | grep -qxE "cpu|cpu_core|cpu_atom|ibs_op"; then
	skip "this machine has a core PMU: its own sysfs is not the no-PMU case"
else
	out=$("$LB" --pebs 2>&1); rc=$?
	check "--pebs on this machine (no core PMU in /sys): exit 3, no PMU" \
		'[ $rc -eq 3 ] && printf "%s" "$out" | grep -q "no PMU"'
fi
pmu "$T/nomem/cpu" 4
out=$(LOADBENCH_SYSFS="$T/nomem" "$LB" --pebs 2>&1); rc=$?
check "--pebs, a cpu PMU without events/mem-loads: exit 5" \
	'[ $rc -eq 5 ] && printf "%s" "$out" | grep -q "no load-latency event (.*events/mem-loads absent"'
pmu "$T/intel/cpu" 4 "event=0xcd,umask=0x1,ldlat=3"
echo 3 >"$T/paranoid3"
chmod -R a+rX "$T"
if [ "$(id -u)" -eq 0 ]; then
	AS_USER="setpriv --reuid=nobody --regid=nogroup --clear-groups"
	command -v setpriv >/dev/null || AS_USER=""
else
	AS_USER="env"
fi
if [ -n "$AS_USER" ]; then
	out=$(LOADBENCH_SYSFS="$T/intel" LOADBENCH_PARANOID="$T/paranoid3" $AS_USER "$LB" --pebs 2>&1); rc=$?
	check "--pebs, unprivileged with perf_event_paranoid 3: exit 4, no permission" \
		'[ $rc -eq 4 ] && printf "%s" "$out" | grep -q "no permission: .*paranoid3 is 3"'
else
	skip "root without setpriv: cannot run unprivileged"
fi
echo 2 >"$T/paranoid2"
out=$(LOADBENCH_SYSFS="$T/intel" LOADBENCH_PARANOID="$T/paranoid2" "$LB" --pebs 2>&1); rc=$?
check "--pebs, a PMU type this kernel does not have (fake type 4): exit 5 or 4, with errno" \
	'{ [ $rc -eq 5 ] && printf "%s" "$out" | grep -q "the kernel refused the load-latency event"; } ||
	 { [ $rc -eq 4 ] && printf "%s" "$out" | grep -q "no permission"; }'
"$LB" --pebs --json >/dev/null 2>&1; rc=$?
check "--pebs --json: exit 2" '[ $rc -eq 2 ]'

# a whole run on a software stand-in: type 1 (PERF_TYPE_SOFTWARE), config 0 (cpu-clock)
mkdir -p "$T/sw/cpu/format" "$T/sw/cpu/events"
echo 1 >"$T/sw/cpu/type"
echo "config:0-7" >"$T/sw/cpu/format/event"
echo "config1:0-15" >"$T/sw/cpu/format/ldlat"
echo "event=0x00" >"$T/sw/cpu/events/mem-loads"
LOADBENCH_SYSFS="$T/sw" "$LB" --pebs >"$T/sw.log" 2>"$T/sw.err"; rc=$?
if [ $rc -eq 4 ] || [ $rc -eq 5 ]; then
	for i in 1 2 3 4 5; do skip "perf_event_open(cpu-clock) refused here: $(head -c 200 "$T/sw.err")"; done
else
	check "software stand-in: a run with verdicts (exit 1: no sample carries a data address)" \
		'[ $rc -eq 1 ] && head -1 "$T/sw.log" | grep -q "^KTAP version 1" && grep -q "^# EXIT: STATUS=1" "$T/sw.log"'
	check "software stand-in: chain, time and pebs lines with the cost fields for 4 kernels" \
		'[ "$(grep -cE "^  # load_(l1|l2|l3|dram): pebs event=load ldlat=3 sav=[0-9]+ .* clock=tsc unarmed_ns=[0-9.]+ armed_ns=[0-9.]+ overhead=-?[0-9.]+% rec_ns=[0-9]+ pmi_ns=- sav_tuned=" "$T/sw.log")" -eq 4 ] &&
		 [ "$(grep -cE "^  # load_(l1|l2|l3|dram): time unit=load .* warm=[0-9]+(,bound)? remeasure=[0-9](,noisy)? ws=[0-9]+[KMG]$" "$T/sw.log")" -eq 4 ] &&
		 [ "$(grep -cE "^  (not )?ok [0-9]+ pebs_overhead " "$T/sw.log")" -eq 4 ]'
	tools/pebs-report --json "$T/sw.log" >"$T/sw.json" 2>"$T/sw.rerr"; rc=$?
	check "pebs-report reads the loadbench log: exit 1, no complaints, 4 timed kernels with pebs" \
		'[ $rc -eq 1 ] && [ ! -s "$T/sw.rerr" ] && python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
ks = [k for k in d[\"kernels\"] if k[\"time\"] and k[\"pebs\"]]
assert len(ks) == 4, ks
assert d[\"output_format\"] == 3
" "$T/sw.json"'
	build/host/model-log --cpu skylake >"$T/model.log" 2>/dev/null
	tools/pebs-report "$T/model.log" "$T/sw.log" >"$T/cmp.txt" 2>&1; rc=$?
	check "pebs-report compares a kernel log with the loadbench log, kernel by kernel" \
		'[ $rc -eq 1 ] && grep -qE "^  load_dram +[0-9.]+ +[0-9.]+ " "$T/cmp.txt" &&
		 grep -qE "load_l1/pebs_source +pass +-> fail" "$T/cmp.txt"'
	check "the loadbench log reads the same through Linux's kunit.py and TAP::Parser" \
		'tests/scripts/ktap_check.py "$T/sw.log"'
fi
