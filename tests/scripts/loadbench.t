#!/usr/bin/env bash
# loadbench.t: the loadbench CLI (tools/loadbench.c) - argument parsing, JSON Lines keys,
# exit status on bad arguments. A quick sanity run with tiny budgets, not a timing check: no
# assertion depends on a measured value.
set -u
cd "$(dirname "$0")/../.." || exit 1
LB=build/host/loadbench
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
echo "1..11"
if [ ! -x "$LB" ]; then
	for i in $(seq 1 11); do echo "not ok $i - $LB not built"; done
	exit 0
fi
QUICK="--rounds 1 --reps 1 --budget-ms 2"

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
check "--json: comments go to stderr, not stdout" \
	'grep -q "^# pages:" /tmp/lb_err.$$ && ! printf "%s\n" "$out" | grep -q "^#"'

out=$("$LB" --sizes 64K,256K,2M $QUICK 2>&1); rc=$?
check "text mode: exit 0, three rows, per-level summary" \
	'[ $rc -eq 0 ] && [ "$(printf "%s\n" "$out" | grep -cE "^ +[0-9]+ ")" -eq 3 ] &&
	 printf "%s\n" "$out" | grep -q "^# level DRAM"'
rm -f /tmp/lb_help.$$ /tmp/lb_err.$$
