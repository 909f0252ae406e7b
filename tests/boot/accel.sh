#!/usr/bin/env bash
# accel.sh: which QEMU accelerator a run can use, and why.
#   accel.sh auto|kvm|tcg
# Prints two lines on stdout: the accelerator (kvm or tcg), then the reason in one sentence.
# Exit 0; with `kvm` asked for and KVM unusable: the reason on stdout and exit 3 (a run must
# fail at once, never fall back to TCG silently); a bad mode: exit 2.
# KVM is usable when the device opens read-write AND the host CPU can run a guest under hardware
# virtualisation: CPUID.1:ECX.VMX[5] (Intel VT-x) or CPUID.80000001H:ECX.SVM[2] (AMD-V), seen
# by Linux as the `vmx` / `svm` flags in /proc/cpuinfo. A /dev/kvm without them is either a
# paravirtual KVM (kvm_pvm: it cannot run our ISO, `-cpu host` aborts on MSR 0x10a) or a VM
# whose hypervisor does not offer nested virtualisation.
# For tests, the inputs can be replaced: PEBS_KVM_DEV (/dev/kvm), PEBS_CPUINFO (/proc/cpuinfo),
# PEBS_SYSMODULE (/sys/module, where the loaded KVM modules show).
set -u
mode=${1:-auto}
dev=${PEBS_KVM_DEV:-/dev/kvm}
cpuinfo=${PEBS_CPUINFO:-/proc/cpuinfo}
sysmod=${PEBS_SYSMODULE:-/sys/module}

# kvm_why: empty when KVM is usable, else the reason
kvm_why() {
	local flags mods="" m
	if [ ! -e "$dev" ]; then
		echo "$dev does not exist (no KVM module loaded: modprobe kvm_intel or kvm_amd; in a VM, nested virtualisation is off)"
		return
	fi
	if [ ! -r "$dev" ] || [ ! -w "$dev" ]; then
		echo "$dev cannot be opened read-write by $(id -un) (add the user to group $(stat -c %G "$dev" 2>/dev/null || echo kvm), then log in again)"
		return
	fi
	for m in kvm_intel kvm_amd kvm_pvm; do
		[ -d "$sysmod/$m" ] && mods+=" $m"
	done
	flags=$(grep -m1 '^flags' "$cpuinfo" 2>/dev/null)
	if [ -z "$flags" ]; then
		echo "$cpuinfo has no 'flags' line: cannot tell whether the CPU has VMX or SVM"
		return
	fi
	if ! grep -qwE 'vmx|svm' <<<"$flags"; then
		if [[ " $mods " == *" kvm_pvm "* ]]; then
			echo "$dev is a paravirtual KVM (module kvm_pvm) and the CPU flags in $cpuinfo have neither vmx nor svm: it cannot run the ISO"
		elif grep -qw hypervisor <<<"$flags"; then
			echo "the CPU flags in $cpuinfo have neither vmx nor svm: this is a VM whose hypervisor does not offer nested virtualisation"
		else
			echo "the CPU flags in $cpuinfo have neither vmx nor svm: VT-x / AMD-V is off in the firmware setup"
		fi
		return
	fi
}

case $mode in
tcg) printf 'tcg\nasked for (ACCEL=tcg)\n'; exit 0 ;;
auto | kvm) ;;
*) echo "accel.sh: accelerator must be auto, kvm or tcg, not '$mode'" >&2; exit 2 ;;
esac
why=$(kvm_why)
if [ -z "$why" ]; then
	printf 'kvm\n%s opens read-write and the CPU has %s\n' "$dev" \
		"$(grep -m1 '^flags' "$cpuinfo" | grep -owE 'vmx|svm' | head -1)"
	exit 0
fi
if [ "$mode" = kvm ]; then
	printf 'kvm\nunusable: %s\n' "$why"
	exit 3
fi
printf 'tcg\nKVM unusable: %s\n' "$why"
