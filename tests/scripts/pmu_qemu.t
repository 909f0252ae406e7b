#!/usr/bin/env bash
# pmu_qemu.t: test `pmu` under QEMU TCG (no PMU) with named Intel CPU models: the capability
# header names the model (DisplayFamily_DisplayModel, brand, uarch row) and every PMU subtest
# SKIPs with the exact reason "CPUID.0AH: perfmon version 0"; the run's verdict is a pass.
# QEMU's Icelake-Server reports DisplayModel 0x86, Intel's number for Tremont; its brand string
# says Icelake, and the uarch line shows what the table makes of 06_86.
set -u
cd "$(dirname "$0")/../.." || exit 1
iso=build/pebs-kernel.iso
mkdir -p build/boot-logs
echo "1..10"
if [ ! -f "$iso" ]; then
	for i in $(seq 10); do echo "not ok $i - $iso missing (make iso)"; done
	exit 1
fi
fail=0 n=0
ok() { n=$((n + 1)); if eval "$1"; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }
run() {	# cpu model_pattern brand_pattern uarch
	local log=build/boot-logs/pmu-$1.log
	tests/boot/qemu-run.sh "$iso" --fw bios --cpu "$1" --mem 256M --smp 1 --timeout 60 \
		--log "$log" -- tests=pmu log=full >/dev/null 2>"$log.err"
	local rc=$?
	tr -d '\r' <"$log" >"$log.clean"
	local c=$log.clean why='CPUID.0AH: perfmon version 0'
	ok "[ $rc = 0 ]" "$1: run passes (status $rc)"
	ok "grep -q '^# pmu: cpu Intel $2 stepping [0-9]* \"$3' '$c'" "$1: header names $2 \"$3\""
	ok "grep -q '^# pmu: uarch $4 ' '$c'" "$1: uarch row $4"
	ok "grep -q '^  ok 3 pebs_load_latency_records # SKIP $why\$' '$c' &&
	    grep -q '^  ok 2 inst_retired # SKIP $why\$' '$c'" "$1: PMU subtests SKIP: $why"
	ok "grep -q '^# pmu: pebs: $why\$' '$c'" "$1: header gives the reason"
	[ $fail = 0 ] || tail -12 "$c" | sed 's/^/# /'
}
run Skylake-Client 06_5EH "Intel Core Processor (Skylake)" Skylake
run Icelake-Server 06_86H "Intel Xeon Processor (Icelake)" Tremont
exit $fail
