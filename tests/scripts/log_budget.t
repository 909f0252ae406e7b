#!/usr/bin/env bash
# log_budget.t: the log budget (docs/output.md "Log budget"). A default run on one CPU, as a
# user starts it (tests/boot/qemu-run.sh ISO, no options: QEMU 7.2 TCG, q35, SeaBIOS, 512M),
# prints at most 8192 bytes from `KTAP version 1` to the end of the `# EXIT:` line
# (tests/boot/log-bytes.sh); its detail lines stay behind log=full (no paging probe, no held
# chain line, no per-test counts of passing tests, repeated SKIP reasons as `same as ...`,
# which pebs-report puts back). A log=full run of a few tests prints every detail line again.
# (The 300-CPU budget, 16384 bytes, is tests/scripts/qemu10.t's, in `make test-matrix`.)
set -u
cd "$(dirname "$0")/../.." || exit 1
iso=build/pebs-kernel.iso
budget=8192
t=$(mktemp -d "${TMPDIR:-/tmp}/log-budget.XXXXXX")
trap 'rm -rf "$t"' EXIT
n=0 fails=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fails=$((fails + 1)); fi; }
has() { tr -d '\r' <"$1" | grep -qE -- "$2"; }
if [ ! -f "$iso" ]; then
	echo "1..1"
	echo "not ok 1 - $iso missing (make iso)"
	exit 1
fi

tests/boot/qemu-run.sh "$iso" --timeout 180 --log "$t/brief.log" >/dev/null 2>"$t/brief.err"
rc=$?
ok "$rc" "default run on 1 CPU passes (rc $rc)"
bytes=$(tests/boot/log-bytes.sh "$t/brief.log") || bytes=999999
echo "# default log on 1 CPU: $bytes bytes (budget $budget)"
ok $((bytes > budget)) "default log on 1 CPU: $bytes bytes <= $budget"
! has "$t/brief.log" "^  # probe 0x|^  # identity map|^  # mode x?APIC|^  # LVTPC 0x"
ok $? "default log: no detail line of a passing check (paging probes, apic mode, LVTPC)"
! has "$t/brief.log" ": chain ws=.* rules=held build_ms=|^# (boot|paging|load_l1): pass:"
ok $? "default log: no held chain line, no counts of a passing test"
has "$t/brief.log" "^  # load_l1: time unit=load tsc=[0-9.]+ ns=[0-9.]+ core=[^ ]+ ws=[0-9]+[KMG]$"
ok $? "default log: the brief time line (unit, tsc, ns, core, ws)"
has "$t/brief.log" "^  ok [0-9]+ [a-z_0-9]+ # SKIP same as [a-z_0-9]+(\.[a-z_0-9A-Z]+)?$"
ok $? "default log: a repeated SKIP reason is a reference"
tools/pebs-report --json --no-decode "$t/brief.log" >"$t/brief.json" 2>"$t/brief.rerr"
python3 - "$t/brief.json" "$t/brief.rerr" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
err = open(sys.argv[2]).read()
def walk(ts):
    for x in ts:
        yield x
        yield from walk(x["subtests"])
refs = [x for x in walk(d["tests"]) if x.get("reason_ref")]
assert refs and not any(x["reason"].startswith("same as ") for x in walk(d["tests"])
                        if x["reason"]), refs
assert not d["problems"] and not err, (d["problems"], err)
assert len([k for k in d["kernels"] if k["time"] and (k["chain"] or {}).get("ws")]) >= 8
PY
ok $? "pebs-report reads it: every reference resolved, no problem, the working sets from ws="

tests/boot/qemu-run.sh "$iso" --timeout 180 --log "$t/full.log" -- tests=boot,paging,apic,load_l1 \
	log=full >/dev/null 2>"$t/full.err"
rc=$?
ok "$rc" "log=full run passes (rc $rc)"
has "$t/full.log" "^  # probe 0x[0-9a-f]+ .*: want .*, got " && has "$t/full.log" "^  # identity map: " &&
	has "$t/full.log" "^  # mode x?APIC" && has "$t/full.log" "^# apic timer: "
ok $? "log=full: the paging probes, the identity map, the apic mode line, the apic timer line"
has "$t/full.log" "^  # load_l1: chain ws=[0-9]+K pages=" && has "$t/full.log" "^# paging: pass:[0-9]+ " &&
	has "$t/full.log" "^  # load_l1: time unit=load .* warm=[0-9]+(,bound)? remeasure=[0-9](,noisy)? ws="
ok $? "log=full: the chain line, the per-test counts, the whole time line"
echo "1..$n"
exit $((fails > 0))
