#!/usr/bin/env bash
# qemu10.t: boots under QEMU 10 (scripts/qemu10.sh: Debian bookworm-backports, unpacked for the
# tests only), whose TCG has x2APIC and takes more than 255 CPUs (QEMU 7.2 refuses -smp 288).
# Cheap boots here in `make test`: 4 CPUs with apic=x2apic (the firmware's xAPIC switched to
# x2APIC), a default log on 1 CPU (its size is printed; tests/scripts/log_budget.t asserts the
# 1-CPU budget under QEMU 7.2, this file the 300-CPU one).
# BOOT_SET=matrix (make test-matrix) adds the -smp 300 boot (about 45 s here: SeaBIOS alone
# takes 20 s with 300 CPUs): the firmware hands over in x2APIC mode, every CPU of the MADT
# comes online, every test passes or SKIPs with its reason, the APIC test's ID check holds
# with 32-bit IDs, and the default log stays within 16 KB (docs/smp.md "Log budget").
# Every case SKIPs with the reason where QEMU 10 cannot be had.
set -u
cd "$(dirname "$0")/../.." || exit 1
t=$(mktemp -d "${TMPDIR:-/tmp}/qemu10-t.XXXXXX")
trap 'rm -rf "$t"' EXIT
n=0 fails=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fails=$((fails + 1)); fi; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
has() { tr -d '\r' <"$1" | grep -qE -- "$2"; }
iso=build/pebs-kernel.iso

qemu=$(scripts/qemu10.sh 2>"$t/why") || qemu=""
why=$(tr '\n' ' ' <"$t/why")
[ -f "$iso" ] || { qemu=""; why="no $iso (make iso)"; }

# boot NAME SMP MEM KERNEL-OPTIONS...: rc in $t/NAME.rc, log in $t/NAME.log
boot() {
	local name=$1 smp=$2 mem=$3; shift 3
	tests/boot/qemu-run.sh "$iso" --qemu "$qemu" --accel tcg --smp "$smp" --mem "$mem" \
		--timeout 600 --log "$t/$name.log" -- "$@" >/dev/null 2>"$t/$name.err"
	echo $? >"$t/$name.rc"
}
# every top-level test line is ok (a SKIP names its reason)
all_pass() { ! tr -d '\r' <"$1" | grep -E '^not ok|^ok [0-9]+ [^#]*# SKIP *$' | grep -q .; }

if [ -z "$qemu" ]; then
	for c in "x2APIC on 4 CPUs" "default log on 1 CPU" "300 CPUs in x2APIC mode"; do
		skip "$c" "QEMU 10: $why"
	done
	echo "1..$n"
	exit 0
fi

boot x4 4 256M tests=apic,smp apic=x2apic log=full
ok "$(cat "$t/x4.rc")" "4 CPUs, apic=x2apic: passes (rc $(cat "$t/x4.rc"))"
has "$t/x4.log" "^  # mode x2APIC, id 0, CPUID (0BH|1FH) x2APIC id 0"; ok $? "4 CPUs: x2APIC mode, the ID from CPUID 0BH/1FH"
has "$t/x4.log" "^# smp: 4 CPUs online of 4 in the MADT: 1 packages x 4 cores x 1 threads; node 0;"
ok $? "4 CPUs: the compact smp line"
has "$t/x4.log" "^  ok [0-9]+ aps_online # 3 of 3$"; ok $? "4 CPUs: every AP online"

boot d1 1 512M
ok "$(cat "$t/d1.rc")" "default tests on 1 CPU: pass (rc $(cat "$t/d1.rc"))"
d1=$(tests/boot/log-bytes.sh "$t/d1.log") || d1=999999
echo "# default log on 1 CPU: $d1 bytes (QEMU 10, TCG; tests/boot/log-bytes.sh)"

if [ "${BOOT_SET:-fast}" != matrix ]; then
	skip "300 CPUs in x2APIC mode" "a 300-CPU boot takes about 45 s under TCG: make test-matrix runs it"
	echo "1..$n"
	exit $((fails > 0))
fi
boot x300 300 4G
rc=$(cat "$t/x300.rc")
ok "$rc" "300 CPUs: the default run passes (rc $rc)"
all_pass "$t/x300.log"; ok $? "300 CPUs: every test passes or SKIPs with a reason"
has "$t/x300.log" "^# smp: 300 CPUs online of 300 in the MADT: "; ok $? "300 CPUs: all online"
has "$t/x300.log" "^# acpi: MADT lapic 0x[0-9a-f]+, 300 cpus"; ok $? "300 CPUs: the MADT lists 300"
has "$t/x300.log" "^# apic: x2APIC id 0 "; ok $? "300 CPUs: firmware handed over x2APIC"
has "$t/x300.log" "^  ok [0-9]+ mode_and_id$"; ok $? "300 CPUs: mode_and_id from CPUID 0BH/1FH"
! has "$t/x300.log" "^# smp: .*(left out|not unmapped)"; ok $? "300 CPUs: nothing left out, every guard page unmapped"
has "$t/x300.log" "^  ok [0-9]+ every_enabled_madt_cpu_accounted_for # 300 started, 0 left out of 300$"; ok $? "300 CPUs: every MADT CPU started"
bytes=$(tests/boot/log-bytes.sh "$t/x300.log") || bytes=999999
echo "# default log on 300 CPUs: $bytes bytes; $(tr -d '\r' <"$t/x300.log" | grep -m1 '^# startup:')"
ok $((bytes > 16384)) "300 CPUs: default log $bytes bytes <= 16384"
echo "1..$n"
exit $((fails > 0))
