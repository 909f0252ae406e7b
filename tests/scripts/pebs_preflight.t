#!/usr/bin/env bash
# pebs_preflight.t: build/host/pebs-preflight as a user runs it: on a saved dump with the
# capability MSRs given, without them (undecided, named), on a hybrid part (one block per core
# type), on every AMD fixture (the IBS plan and Zen generation, or a SKIP naming the CPUID
# bit), on broken input (exit 2, the line named), and live on this machine.
set -u
cd "$(dirname "$0")/../.." || exit 1
pf=build/host/pebs-preflight
fx=tests/fixtures/cpuid
t=$(mktemp -d "${TMPDIR:-/tmp}/preflight-t.XXXXXX")
trap 'rm -rf "$t"' EXIT
n=0 fails=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fails=$((fails + 1)); fi; }
has() { grep -qxF -- "$2" "$1" || { echo "# missing in $1: $2"; return 1; }; }

# 1-6: Skylake-S with IA32_PERF_CAPABILITIES format 3 given: the kernel's header and plan
$pf --cpuid $fx/skylake.txt --msr IA32_PERF_CAPABILITIES=0x2300 --msr MSR_PEBS_LD_LAT_THRESHOLD=3 >"$t/skl" 2>&1
ok $? "skylake: exit 0"
has "$t/skl" '# cpu: GenuineIntel 06_5EH stepping 3 "Intel(R) Core(TM) i5-6400T CPU @ 2.20GHz"'; ok $? "skylake: cpu line"
has "$t/skl" '# cache: L3 6M 12-way 64 B line (CPUID 04H)'; ok $? "skylake: L3 line"
has "$t/skl" '# pmu: pebs usable, load latency usable'; ok $? "skylake: PEBS verdict line"
has "$t/skl" '# core clock: fixed counter 1 (CPU_CLK_UNHALTED.CORE)'; ok $? "skylake: core clock line"
has "$t/skl" '# plan: load_l2: runs; timing judged; PEBS load-latency steps run (format 3)'; ok $? "skylake: plan for load_l2"

# 7-8: the same dump without IA32_PERF_CAPABILITIES: named as not given, PEBS undecided
$pf --cpuid $fx/skylake.txt >"$t/skl0" 2>&1
has "$t/skl0" '# not given: IA32_PERF_CAPABILITIES (0x345): PEBS record format, adaptive PEBS, full-width writes; give it with --msr IA32_PERF_CAPABILITIES=VALUE'
ok $? "no MSR: says what is not given and what it decides"
has "$t/skl0" '# plan: pmu: runs; PEBS steps undecided: IA32_PERF_CAPABILITIES not given'; ok $? "no MSR: PEBS undecided"

# README's offline example (issue 29 item 4): it decides. MSR_PEBS_LD_LAT_THRESHOLD, not given,
# is assumed present (a bare-metal Skylake has it) and says so; no "vector -1" anywhere
$pf --cpuid $fx/skylake.txt --msr IA32_PERF_CAPABILITIES=0x33c4 >"$t/readme" 2>&1
has "$t/readme" '# pmu: pebs usable, load latency usable' &&
	has "$t/readme" '# plan: load_l1: runs; timing judged; PEBS load-latency steps run (format 3)'
ok $? "README example: load latency usable, load-latency plan shown"
has "$t/readme" '# assumed: MSR_PEBS_LD_LAT_THRESHOLD (0x3f6) present, as on every model whose table row has a load-latency event, outside a hypervisor; give it with --msr MSR_PEBS_LD_LAT_THRESHOLD=VALUE'
ok $? "README example: the assumption is printed"
! grep -q "undecided\|vector -1" "$t/readme"; ok $? "README example: nothing undecided, no 'vector -1'"
$pf --cpuid $fx/alderlake.txt >"$t/adl0" 2>&1
! grep -q "vector -1" "$t/adl0" && has "$t/adl0" '# pmu: pebs: IA32_MISC_ENABLE: not given'
ok $? "MSRs not given: 'not given', not 'rdmsr fault (vector -1)'"
# the same dump marked as a guest (CPUID.1:ECX[31]): the MSR may fault there, so undecided,
# and the PEBS line says why load latency is not known
sed 's/^CPUID 00000001: 000506E3-00100800-7FFAFBFF/CPUID 00000001: 000506E3-00100800-FFFAFBFF/' \
	$fx/skylake.txt >"$t/sklhv.txt"
$pf --cpuid "$t/sklhv.txt" --msr IA32_PERF_CAPABILITIES=0x33c4 >"$t/hv" 2>&1
has "$t/hv" '# pmu: pebs usable; load latency: MSR_PEBS_LD_LAT_THRESHOLD: not given' &&
	has "$t/hv" '# plan: load_l1: runs; timing judged (vCPU: host noise included); PEBS steps undecided: MSR_PEBS_LD_LAT_THRESHOLD not given'
ok $? "guest dump: not assumed, the load-latency reason printed"

# 9-10: Raptor Lake: one block per core type, P-core then E-core
$pf --cpuid $fx/raptorlake.txt --msr IA32_PERF_CAPABILITIES=0x6400 >"$t/rpl" 2>&1
[ "$(grep -c '^# preflight: CPUID from' "$t/rpl")" = 2 ]; ok $? "raptorlake: two blocks"
grep -o '^# preflight: .*, CPU [0-9]*, [PE]-core\|^# pmu: uarch [^(]*' "$t/rpl" | sed 's/.*\(CPU\)/\1/' |
	tr '\n' '|' >"$t/rpl.s"
[ "$(cat "$t/rpl.s")" = 'CPU 0, P-core|# pmu: uarch Golden/Raptor Cove |CPU 16, E-core|# pmu: uarch Gracemont pebs_gp 0x3f ll_event 0x05d0/0x3 store 0x06d0/0x3f aux 0x0000 dsrc grt quirks 0x0|' ]
ok $? "raptorlake: P-core block (Golden/Raptor Cove), E-core block (Gracemont)"

# 11: under a hypervisor: named, and timing judged with the host's noise said
$pf --cpuid $fx/this_vm_epyc_kvm.txt >"$t/vm" 2>&1
has "$t/vm" '# hypervisor: "KVMKVMKVM" (KVM): hardware virtualisation, the host can deschedule this vCPU: timings include host noise' &&
	has "$t/vm" '# plan: load_l1: runs; timing judged (vCPU: host noise included); IBS steps SKIP CPUID 8000_0001H:ECX[10] (IBS) = 0: no Instruction-Based Sampling'
ok $? "KVM guest dump: hypervisor line and plan"

# broken input: exit 2 and the line
head -c 2000 $fx/haswell.txt >"$t/cut.txt"
line=$(wc -l <"$t/cut.txt"); line=$((line + 1))
$pf --cpuid "$t/cut.txt" >"$t/out" 2>"$t/err"; rc=$?
ok $(( rc != 2 )) "truncated dump: exit 2 (rc $rc)"
grep -q "cut.txt: line $line: malformed or truncated CPUID record" "$t/err"; ok $? "truncated dump: names line $line ($(cat "$t/err"))"
$pf --cpuid "$t/none.txt" >/dev/null 2>"$t/err"; rc=$?
ok $(( rc != 2 )) "missing dump: exit 2 (rc $rc: $(cat "$t/err"))"
$pf --msr IA32_PERF_CAPABILITIES=zz >/dev/null 2>"$t/err"; rc=$?
grep -q "bad value 'zz'" "$t/err"; ok $(( $? || rc != 2 )) "bad --msr value: exit 2 (rc $rc)"

# 16-21: AMD: every AMD fixture gets the IBS probe's lines (ibs/ibs_caps.c, as the kernel
# prints them on AMD), its Zen generation, and the IBS plan, or a SKIP naming the CPUID bit
amd_fixtures=$(ls $fx/*zen*.txt $fx/*epyc*.txt)
for f in $amd_fixtures; do
	b=$(basename "$f" .txt)
	$pf --cpuid "$f" --msr IBS_CTL=0x100 >"$t/$b" 2>&1 || echo "# $b: exit $?"
	grep -q '^# pmu: amd core Zen [1-6] (family ' "$t/$b" || echo "# $b: no Zen generation line"
	grep -q '^# pmu: amd path: IBS op sampling' "$t/$b" || echo "# $b: no IBS probe line"
	if grep -q '^# pmu: amd ibs usable' "$t/$b"; then
		want='IBS op-sampling steps run (Zen '
	else
		want='IBS steps SKIP CPUID 8000_0001H:ECX\[10\] (IBS) = 0'
	fi
	[ "$(grep -c "^# plan: load_[a-z0-9]*: runs.*; $want" "$t/$b")" = "$(grep -c '^# plan: load_' "$t/$b")" ] &&
		grep -q "^# plan: pmu: runs; $want" "$t/$b" || echo "# $b: plan lines do not say '$want'"
	grep -q 'PEBS steps' "$t/$b" && echo "# $b: a PEBS step planned on AMD"
	grep -q 'only the Intel PMU\|^# pmu: uarch' "$t/$b" && echo "# $b: Intel-PMU lines on AMD"
	grep -q '^# core clock: decided at boot: PMCx076' "$t/$b" || echo "# $b: no AMD core clock"
done >"$t/amd.miss"
[ -n "$amd_fixtures" ] && [ ! -s "$t/amd.miss" ]
ok $? "AMD fixtures ($(echo $amd_fixtures | wc -w)): Zen line, IBS lines, IBS plan or SKIP with the bit $(cat "$t/amd.miss")"
has "$t/zen4_raphael" '# pmu: amd core Zen 4 (family 19H model 61H; Linux v6.12.117 amd.c bsp_init_amd (ZEN4); PPR 19h M61h (Raphael)/M70h/MA0h)' &&
	has "$t/zen4_raphael" '# plan: load_dram: runs; timing judged; IBS op-sampling steps run (Zen 4, decoder row Zen 4, dsrc ibs-ext)'
ok $? "zen4_raphael: Zen 4, IBS steps run with the extended DataSrc table"
has "$t/zen3_vermeer" '# plan: load_l2: runs; timing judged; IBS op-sampling steps run (Zen 3, decoder row Zen 3, dsrc ibs-legacy)'
ok $? "zen3_vermeer: Zen 3, legacy DataSrc"
grep -q '^# pmu: amd core Zen 5 (family 1AH model 02H' "$t/zen5_turin" && grep -q 'IBS op-sampling steps run (Zen 5,' "$t/zen5_turin"
ok $? "zen5_turin: Zen 5"
has "$t/this_vm_epyc_kvm" '# plan: load_l1: runs; timing judged (vCPU: host noise included); IBS steps SKIP CPUID 8000_0001H:ECX[10] (IBS) = 0: no Instruction-Based Sampling'
ok $? "KVM EPYC guest without IBS: SKIP names CPUID 8000_0001H:ECX[10]"
$pf --cpuid $fx/zen4_raphael.txt >"$t/zen4u" 2>&1
has "$t/zen4u" '# not given: IBS_CTL (0xc001103a): whether firmware assigned the IBS interrupt an APIC LVT offset (LvtOffsetVal[8]); give it with --msr IBS_CTL=VALUE' &&
	has "$t/zen4u" '# plan: pmu: runs; IBS steps undecided: IBS_CTL not given' &&
	! grep -q 'vector -1' "$t/zen4u"
ok $? "zen4 without IBS_CTL: undecided, the MSR named"

# live, on this machine: every block has the kernel's header lines and a plan line per test
$pf >"$t/live" 2>&1; rc=$?
ok $rc "live: exit 0"
ntests=$(grep -c '^	{ \.name = "' ktests/table.c)
blocks=$(grep -c '^# preflight: CPUID executed on CPU' "$t/live")
for l in '# cpu: ' '# tsc: ' '# pmu: ' '# cache: L1d ' '# cache: L3 ' '# core clock: '; do
	grep -q "^$l" "$t/live" || echo "# live: no '$l' line"
done >"$t/miss"
[ ! -s "$t/miss" ] && [ "$blocks" -ge 1 ] && [ "$(grep -c '^# plan: ' "$t/live")" = $((ntests * blocks)) ]
ok $? "live: header lines and $ntests plan lines per block ($blocks blocks) $(cat "$t/miss")"

echo "1..$n"
exit $((fails > 0))
