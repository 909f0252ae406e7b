#!/usr/bin/env bash
# qemu10.t: boots under QEMU 10 (scripts/qemu10.sh: Debian bookworm-backports, unpacked for the
# tests only), whose TCG has x2APIC and takes more than 255 CPUs (QEMU 7.2 refuses -smp 288).
# Cheap boots here in `make test`: 4 CPUs with apic=x2apic (the firmware's xAPIC switched to
# x2APIC), a default log on 1 CPU (its size is printed; tests/scripts/log_budget.t asserts the
# 1-CPU budget under QEMU 7.2, this file the 300-CPU one), a memory-only node with an HMAT
# (-machine hmat=on, -numa hmat-lb), 2 sockets x 2 nodes with SMT (SNC-like).
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

# boot NAME SMP MEM KERNEL-OPTIONS...: rc in $t/NAME.rc, log in $t/NAME.log ($extra: more
# QEMU arguments)
extra=""
boot() {
	local name=$1 smp=$2 mem=$3; shift 3
	tests/boot/qemu-run.sh "$iso" --qemu "$qemu" --accel tcg --smp "$smp" --mem "$mem" \
		--timeout 600 --log "$t/$name.log" --extra "$extra" -- "$@" >/dev/null 2>"$t/$name.err"
	echo $? >"$t/$name.rc"
}
# -numa arguments: node N with memory SIZE and `cpus=` (none: a memory-only node) and its
# initiator (every node needs one under hmat=on, none may have one without)
node() { echo "-object memory-backend-ram,id=m$1,size=$2 -numa node,nodeid=$1,memdev=m$1${3:+,cpus=$3}${4:+,initiator=$4}"; }
lb() { echo "-numa hmat-lb,initiator=$1,target=$2,hierarchy=memory,data-type=$3"; }
# every top-level test line is ok (a SKIP names its reason)
all_pass() { ! tr -d '\r' <"$1" | grep -E '^not ok|^ok [0-9]+ [^#]*# SKIP *$' | grep -q .; }

if [ -z "$qemu" ]; then
	for c in "x2APIC on 4 CPUs" "NMIs to each AP through the x2APIC ICR" "default log on 1 CPU" "memory-only node with an HMAT" \
		 "2 sockets x 2 nodes with SMT (SNC-like)" "300 CPUs in x2APIC mode"; do
		skip "$c" "QEMU 10: $why"
	done
	echo "1..$n"
	exit 0
fi

boot x4 4 256M tests=apic,smp,inject inject=nmi_ipi apic=x2apic log=full
ok "$(cat "$t/x4.rc")" "4 CPUs, apic=x2apic: passes (rc $(cat "$t/x4.rc"))"
has "$t/x4.log" "^  # mode x2APIC, id 0, CPUID (0BH|1FH) x2APIC id 0"; ok $? "4 CPUs: x2APIC mode, the ID from CPUID 0BH/1FH"
has "$t/x4.log" "^# smp: 4 CPUs online of 4 in the MADT: 1 packages x 4 cores x 1 threads; node 0;"
ok $? "4 CPUs: the compact smp line"
has "$t/x4.log" "^  ok [0-9]+ aps_online # 3 of 3$"; ok $? "4 CPUs: every AP online"
has "$t/x4.log" "^  ok [0-9]+ nmi_ipi_counted # 3 CPUs x 4 NMIs, each counted on its CPU$" &&
	has "$t/x4.log" "^# nmi: 12 unknown NMIs in this run \\(cpu1 4, cpu2 4, cpu3 4\\)"
ok $? "4 CPUs: an NMI through the x2APIC ICR reaches each AP and is counted there"

boot d1 1 512M
ok "$(cat "$t/d1.rc")" "default tests on 1 CPU: pass (rc $(cat "$t/d1.rc"))"
d1=$(tests/boot/log-bytes.sh "$t/d1.log") || d1=999999
echo "# default log on 1 CPU: $d1 bytes (QEMU 10, TCG; tests/boot/log-bytes.sh)"

# A memory-only node with an HMAT (ACPI 6.5 5.2.28; QEMU hw/acpi/hmat.c): 2 sockets of 2
# CPUs on nodes 0 and 1, node 2 memory only; latencies in ns (QEMU writes ps), bandwidths
# in MB/s. A few seconds: in make test.
extra="-machine hmat=on $(node 0 128M 0-1 0) $(node 1 128M 2-3 1) $(node 2 256M "" 0)"
extra+=" -numa dist,src=0,dst=1,val=21 -numa dist,src=0,dst=2,val=31 -numa dist,src=1,dst=2,val=41"
for c in "0 0 90" "0 1 140" "0 2 250" "1 0 140" "1 1 90" "1 2 300"; do
	set -- $c
	extra+=" $(lb "$1" "$2" access-latency),latency=$3"
done
extra+=" $(lb 0 0 access-bandwidth),bandwidth=20G $(lb 0 2 access-bandwidth),bandwidth=5G"
boot hmat 4,sockets=2 512M tests=boot verbose
ok "$(cat "$t/hmat.rc")" "memory-only node with an HMAT: passes (rc $(cat "$t/hmat.rc"))"
has "$t/hmat.log" "^# numa: 3 nodes, distances 21..41 \\(SLIT\\); 1 memory-only \\(node 2: no flags \\(HBM or CXL\\?\\)\\); HMAT 2x3 latency\\+bandwidth$"
ok $? "memory-only node with an HMAT: the numa header line"
has "$t/hmat.log" "^# numa-node: 2 pxm 2: 0 CPUs, 256 MiB, memory-only: .*; distances 31 41 10$"; ok $? "memory-only node with an HMAT: node 2 has no CPU, 256 MiB, its SLIT row"
has "$t/hmat.log" "^# numa-hmat: node 0 -> node 2: read 250000 ps, write 250000 ps, read 5120 MB/s, write 5120 MB/s$"
ok $? "memory-only node with an HMAT: node 0 -> node 2 latency and bandwidth"
has "$t/hmat.log" "^# numa-hmat: node 1 -> node 2: read 300000 ps, write 300000 ps, read 0 MB/s, write 0 MB/s$"
ok $? "memory-only node with an HMAT: node 1 -> node 2 latency"
! has "$t/hmat.log" "^# acpi: HMAT"; ok $? "memory-only node with an HMAT: no HMAT warning"

# 2 sockets x 2 nodes with SMT (Sub-NUMA Clustering as Granite Rapids has it by default):
# 2 packages x 2 cores x 2 threads, a node per core. A few seconds: in make test.
extra="$(node 0 128M 0-1) $(node 1 128M 2-3) $(node 2 128M 4-5) $(node 3 128M 6-7)"
boot snc 8,sockets=2,cores=2,threads=2 512M tests=boot
ok "$(cat "$t/snc.rc")" "2 sockets x 2 nodes with SMT: passes (rc $(cat "$t/snc.rc"))"
has "$t/snc.log" "^# numa: 4 nodes \\(2 per package: SNC2\\), distances 20..20 \\(no SLIT"; ok $? "2 sockets x 2 nodes with SMT: SNC2 in the numa line"
has "$t/snc.log" "^# smp: 8 CPUs online of 8 in the MADT: 2 packages x 2 cores x 2 threads; nodes 0: cpus 0-1, 1: cpus 2-3, 2: cpus 4-5, 3: cpus 6-7 \\(SNC2\\);"
ok $? "2 sockets x 2 nodes with SMT: the smp line"
extra=""
for c in hmat snc; do echo "# $c: $(tr -d '\r' <"$t/$c.log" | grep -m1 '^# numa:')"; done

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
