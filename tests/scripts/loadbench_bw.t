#!/usr/bin/env bash
# loadbench_bw.t: `loadbench --bandwidth` (tools/loadbench_bw.c): its argument errors (exit 2
# with the reason), a quick run's JSON Lines form (every level x mode, 1 and 2 threads; the
# GB/s values are measurements: only their form is checked), and the claim the bandwidth
# kernels rest on: kernel/hw_stream.c compiled with the kernel's flags and with the host
# tools' -O2 gives the same instructions (objdump -d of both objects, addresses aside).
set -u
cd "$(dirname "$0")/../.." || exit 1
LB=build/host/loadbench
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
echo "1..7"
T=$(mktemp -d /tmp/lbbw.XXXXXX)
trap 'rm -rf "$T"' EXIT

GCCINC=$(gcc -print-file-name=include)
gcc -std=gnu11 -O2 -ffreestanding -fno-builtin -nostdlib -nostdinc -isystem "$GCCINC" \
	-Ikernel/freestanding -I. -fno-pic -fno-pie -mcmodel=kernel -mno-red-zone \
	-mgeneral-regs-only -ffunction-sections -c kernel/hw_stream.c -o "$T/k.o" &&
gcc -std=gnu11 -O2 -I. -c kernel/hw_stream.c -o "$T/h.o"
dis() { objdump -d --no-show-raw-insn "$1" | grep -E '^\s+[0-9a-f]+:' | cut -f2-; }
check "hw_stream.c: the kernel's and the host's objects hold the same instructions" \
	'[ -s "$T/k.o" ] && [ "$(dis "$T/k.o" | md5sum)" = "$(dis "$T/h.o" | md5sum)" ] &&
	 [ "$(dis "$T/k.o" | grep -c movnti)" -eq 32 ] && ! dis "$T/k.o" | grep -qE "xmm|ymm|zmm|call"'

if [ ! -x "$LB" ]; then
	for i in 2 3 4 5 6 7; do echo "not ok $i - $LB not built"; done
	exit 0
fi
out=$("$LB" --threads 2 2>&1); rc=$?
check "--threads without --bandwidth: exit 2, says why" \
	'[ $rc -eq 2 ] && printf "%s" "$out" | grep -q "threads goes with --bandwidth"'
out=$("$LB" --bandwidth --pebs 2>&1); rc=$?
check "--bandwidth --pebs: exit 2, says why" \
	'[ $rc -eq 2 ] && printf "%s" "$out" | grep -q "no --pebs, no --sizes"'
out=$("$LB" --bandwidth --threads 0 2>&1); rc=$?
check "--threads 0: exit 2" '[ $rc -eq 2 ]'
out=$("$LB" --bandwidth --threads 256 2>&1); rc=$?
check "--threads above the CPUs allowed: exit 2, says how many" \
	'[ $rc -eq 2 ] && printf "%s" "$out" | grep -q "may run on"'
threads=2
[ "$(nproc)" -lt 2 ] && threads=1
"$LB" --bandwidth --json --budget-ms 1 --threads $threads >"$T/bw.json" 2>"$T/bw.err"; rc=$?
check "--bandwidth --json exits 0" '[ $rc -eq 0 ]'
check "--json: one row per level x mode, gbps (fastest) >= gbps_median > 0 (all threads too)" \
	'python3 - "$T/bw.json" "$threads" <<PY
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
t = int(sys.argv[2])
want = [(l, m) for l in ("L1", "L2", "L3", "DRAM")
        for m in ("read", "write", "write_nt", "rw1:1", "rw2:1", "rw3:1")]
assert [(r["level"], r["mode"]) for r in rows] == want, rows
for r in rows:
    assert isinstance(r["gbps"], (int, float)) and r["gbps"] > 0, r
    assert isinstance(r["gbps_median"], (int, float)) and 0 < r["gbps_median"] <= r["gbps"], r
    assert r["threads"] == t, r
    if t > 1:
        assert isinstance(r["gbps_all"], (int, float)) and r["gbps_all"] > 0, r
    assert r["ws_bytes"] % 4096 == 0 and r["ws_each_bytes"] % 4096 == 0, r
PY'
