#!/usr/bin/env bash
# qemu_accel.t: the accelerator choice of tests/boot/qemu-run.sh (tests/boot/accel.sh) over
# fake inputs (PEBS_KVM_DEV, PEBS_CPUINFO, PEBS_SYSMODULE), and the exact QEMU command lines
# it builds for KVM and TCG (--dry-run). Nothing here opens the real /dev/kvm or starts QEMU.
set -u
cd "$(dirname "$0")/../.." || exit 1
t=$(mktemp -d "${TMPDIR:-/tmp}/accel-t.XXXXXX")
trap 'rm -rf "$t"' EXIT
n=0 fails=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fails=$((fails + 1)); fi; }

printf 'processor\t: 0\nflags\t\t: fpu tsc msr vmx sse2 hypervisor\n' >"$t/vmx"
printf 'processor\t: 0\nflags\t\t: fpu tsc msr svm sse2\n' >"$t/svm"
printf 'processor\t: 0\nflags\t\t: fpu tsc msr sse2 hypervisor\n' >"$t/vm"
printf 'processor\t: 0\nflags\t\t: fpu tsc msr sse2\n' >"$t/bare"
mkdir -p "$t/mod-pvm/kvm_pvm" "$t/mod-intel/kvm_intel"
: >"$t/kvm"
chmod 600 "$t/kvm"

# run ENV... -- ARGS: qemu-run.sh with the fake inputs; stdout in $t/out, stderr in $t/err
run() {
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	env PEBS_KVM_DEV="$t/kvm" PEBS_SYSMODULE="$t/mod-intel" "${envs[@]}" \
		tests/boot/qemu-run.sh build/x.iso --dry-run "$@" >"$t/out" 2>"$t/err"
}
has() { grep -qF -- "$2" "$t/$1"; }

tail='-m 512M -smp 1 -no-reboot -display none -device isa-debug-exit,iobase=0xf4,iosize=0x04 -cdrom build/x.iso -boot d -nic none -serial stdio -monitor none'

# 1-2: auto without a device runs TCG and says why
run PEBS_KVM_DEV="$t/none" PEBS_CPUINFO="$t/vmx" -- --accel auto; rc=$?
ok $(( rc != 0 )) "auto, no device: exit 0 (rc $rc)"
has err "qemu-run.sh: accelerator tcg: KVM unusable: $t/none does not exist"; ok $? "auto, no device: TCG with the reason"
has out "qemu-system-x86_64 -machine q35 -accel tcg -cpu max $tail"; ok $? "auto, no device: the TCG command line"

# 4-5: kvm without a device fails at once, without a command line
run PEBS_KVM_DEV="$t/none" PEBS_CPUINFO="$t/vmx" -- --accel kvm; rc=$?
ok $(( rc != 2 )) "kvm, no device: exit 2 (rc $rc)"
has err "qemu-run.sh: --accel kvm: unusable: $t/none does not exist"; ok $? "kvm, no device: the reason"
ok $(( $(wc -c <"$t/out") != 0 )) "kvm, no device: nothing run"

# 7-8: kvm on a paravirtual KVM (kvm_pvm, no vmx/svm): this machine's case
run PEBS_CPUINFO="$t/vm" PEBS_SYSMODULE="$t/mod-pvm" -- --accel kvm; rc=$?
ok $(( rc != 2 )) "kvm, kvm_pvm: exit 2 (rc $rc)"
has err "paravirtual KVM (module kvm_pvm) and the CPU flags in $t/vm have neither vmx nor svm"; ok $? "kvm, kvm_pvm: the reason"

# 9-10: no vmx/svm in a VM: nested virtualisation off; on bare metal: firmware
run PEBS_CPUINFO="$t/vm" -- --accel kvm
has err "a VM whose hypervisor does not offer nested virtualisation"; ok $? "kvm, VM without vmx: nested virtualisation off"
run PEBS_CPUINFO="$t/bare" -- --accel auto
has err "accelerator tcg: KVM unusable: the CPU flags in $t/bare have neither vmx nor svm: VT-x / AMD-V is off in the firmware setup"; ok $? "auto, bare metal without vmx: TCG, firmware setting"

# 11-12: the KVM command line: the host's CPU with its PMU and cache topology
run PEBS_CPUINFO="$t/vmx" -- --accel auto; rc=$?
has err "qemu-run.sh: accelerator kvm: $t/kvm opens read-write and the CPU has vmx"; ok $? "auto, usable KVM: says kvm and why"
has out "qemu-system-x86_64 -machine q35 -accel kvm -cpu host,pmu=on,host-cache-info=on,migratable=off $tail"; ok $? "KVM command line (host CPU, PMU, host cache info)"
run PEBS_CPUINFO="$t/svm" -- --accel kvm --cpu Skylake-Client
has out "-accel kvm -cpu Skylake-Client,pmu=on -m"; ok $? "KVM with a named CPU model keeps the PMU"

# 14: tcg asked for: TCG even where KVM works
run PEBS_CPUINFO="$t/vmx" -- --accel tcg
has err "accelerator tcg: asked for (ACCEL=tcg)" && has out "-accel tcg -cpu max"; ok $? "tcg asked for"

# 15: a device that does not open read-write for this user
if [ "$(id -u)" = 0 ]; then
	# root opens anything: ask as an unprivileged user (the file stays root's, mode 0600)
	chmod 755 "$t"
	runuser -u nobody -- env PEBS_KVM_DEV="$t/kvm" PEBS_CPUINFO="$t/vmx" \
		PEBS_SYSMODULE="$t/mod-intel" tests/boot/accel.sh kvm >"$t/out" 2>&1; rc=$?
else
	chmod 000 "$t/kvm"
	env PEBS_KVM_DEV="$t/kvm" PEBS_CPUINFO="$t/vmx" PEBS_SYSMODULE="$t/mod-intel" \
		tests/boot/accel.sh kvm >"$t/out" 2>&1; rc=$?
fi
has out "$t/kvm cannot be opened read-write by"; ok $(( $? || rc != 3 )) "kvm, no permission: exit 3 and the reason (rc $rc: $(tail -1 "$t/out"))"

# 16: a bad value
run PEBS_CPUINFO="$t/vmx" -- --accel fast; rc=$?
ok $(( rc != 2 )) "bad --accel: exit 2 (rc $rc)"

# 17: make run passes ACCEL (default auto)
make -n run ACCEL=kvm 2>/dev/null | grep -q -- '--accel kvm' && make -n run 2>/dev/null | grep -q -- '--accel auto'
ok $? "make run: ACCEL=kvm reaches qemu-run.sh, default auto"

# 18-19: under TCG with no --cpu the host's vendor picks the model: Intel boots an Intel model
# (QEMU's max is AuthenticAMD under TCG) and says which; AMD keeps max
printf 'processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: fpu tsc msr sse2 hypervisor\n' >"$t/intel"
printf 'processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu tsc msr sse2 hypervisor\n' >"$t/amd"
run PEBS_KVM_DEV="$t/none" PEBS_CPUINFO="$t/intel" -- --accel auto
has out "-accel tcg -cpu Skylake-Client -m" && has err "TCG on an Intel host: -cpu Skylake-Client"
ok $? "TCG on an Intel host: an Intel model, said"
run PEBS_KVM_DEV="$t/none" PEBS_CPUINFO="$t/amd" -- --accel auto
has out "-accel tcg -cpu max -m" && ! has err "Intel host"; ok $? "TCG on an AMD host: max"

# 20-21: a stand-in QEMU that prints what QEMU 7.2 prints: the "TCG doesn't support" lines
# folded into one; an unknown model named with where to look
mkdir -p "$t/bin"
cat >"$t/bin/qemu-system-x86_64" <<'QEMU'
#!/bin/sh
case "$*" in *"-cpu Foo"*) echo "qemu-system-x86_64: unable to find CPU model 'Foo'" >&2; exit 1 ;; esac
for b in pcid x2apic tsc-deadline; do
	echo "qemu-system-x86_64: warning: TCG doesn't support requested feature: CPUID.01H:ECX.$b" >&2
done
printf '# EXIT: STATUS=0\n'
exit 1
QEMU
chmod +x "$t/bin/qemu-system-x86_64"
: >"$t/x.iso"
PATH="$t/bin:$PATH" PEBS_KVM_DEV="$t/none" tests/boot/qemu-run.sh "$t/x.iso" --cpu Skylake-Client \
	>"$t/out" 2>"$t/err"; rc=$?
[ "$rc" = 0 ] && has err "-cpu Skylake-Client: 3 CPUID feature(s) of the model left out by TCG" &&
	[ "$(grep -c "doesn't support" "$t/err")" = 1 ]
ok $? "TCG's unsupported-feature lines folded into one (rc $rc)"
PATH="$t/bin:$PATH" PEBS_KVM_DEV="$t/none" tests/boot/qemu-run.sh "$t/x.iso" --cpu Foo \
	>"$t/out" 2>"$t/err"; rc=$?
[ "$rc" = 2 ] && has err "--cpu Foo: QEMU has no such CPU model; qemu-system-x86_64 -cpu help lists them"
ok $? "an unknown CPU model: exit 2 and where the models are listed (rc $rc)"

echo "1..$n"
exit $((fails > 0))
