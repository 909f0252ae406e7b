#!/usr/bin/env bash
# qemu-run.sh: boot the ISO under QEMU (KVM or TCG: tests/boot/accel.sh) with the serial port
# on stdout and map QEMU's exit status to the run's verdict: 0 = all passed/skipped, 1 = a test
# failed, 2 = QEMU or the kernel ended without a verdict (no isa-debug-exit write), 124 = timeout.
#   qemu-run.sh ISO [--machine q35|pc] [--fw bios|ovmf|ovmf-bios] [--cpu MODEL] [--mem SIZE]
#               [--smp N] [--numa K] [--timeout S] [--log FILE] [--extra "QEMU ARGS"]
#               [--accel auto|kvm|tcg] [--netboot DIR] [--qemu BIN] [--dry-run] [-- KERNEL OPTIONS...]
# --qemu BIN: the QEMU binary (default qemu-system-x86_64 from PATH; scripts/qemu10.sh prints
# the path of QEMU 10 for the tests that need it).
# --fw: bios = SeaBIOS, ovmf = OVMF code + variables as pflash, ovmf-bios = OVMF_CODE.fd given
# as -bios (no variable store, as on QEMU's default `pc` command line).
# --accel (default auto) prints one line on stderr naming the accelerator and why; `kvm` where
# KVM is unusable exits 2 at once with the reason. Under KVM the CPU is the host's with its
# PMU and cache topology (-cpu host,pmu=on,host-cache-info=on: CPUID 04H from the host;
# migratable=off keeps host-only CPUID bits such as the invariant TSC).
# --numa K (K >= 2) splits the memory and the --smp CPUs into K NUMA nodes (QEMU writes the
# ACPI SRAT; the last node takes the CPUs left over) with distance 21 between any two (SLIT).
# --dry-run prints the QEMU command line instead of running it.
set -u
iso=""
case ${1:-} in -*) ;; *) iso=${1:-}; shift ;; esac
qemu_bin=qemu-system-x86_64 machine=q35 fw=bios cpu="" mem=512M smp=1 numa="" timeout=120 log="" extra="" accel=auto dry="" net=""
while [ $# -gt 0 ]; do
	case $1 in
	--netboot) net=$2; shift 2 ;;
	--qemu) qemu_bin=$2; shift 2 ;;
	--machine) machine=$2; shift 2 ;;
	--fw) fw=$2; shift 2 ;;
	--cpu) cpu=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--numa) numa=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--extra) extra=$2; shift 2 ;;
	--accel) accel=$2; shift 2 ;;
	--dry-run) dry=1; shift ;;
	--) shift; break ;;
	*) echo "qemu-run.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
args="$*"

sel=$("$(dirname "$0")/accel.sh" "$accel" 2>&1) arc=$? acc=${sel%%$'\n'*} why=${sel#*$'\n'}
[ "$arc" = 0 ] || { echo "qemu-run.sh: --accel $accel: $why" >&2; exit 2; }
echo "qemu-run.sh: accelerator $acc: $why" >&2
if [ "$acc" = kvm ]; then
	case ${cpu:-host} in
	host) cpuargs=(-accel kvm -cpu "host,pmu=on,host-cache-info=on,migratable=off") ;;
	*) cpuargs=(-accel kvm -cpu "$cpu,pmu=on") ;;
	esac
else
	# no --cpu: the host's vendor (an Intel host boots an Intel model, so the run takes the
	# Intel paths it would take on that machine; QEMU's `max` under TCG is AuthenticAMD)
	if [ -z "$cpu" ]; then
		case $(grep -m1 '^vendor_id' "${PEBS_CPUINFO:-/proc/cpuinfo}" 2>/dev/null) in
		*GenuineIntel*) cpu=Skylake-Client
			echo "qemu-run.sh: TCG on an Intel host: -cpu $cpu (--cpu MODEL for another; qemu-system-x86_64 -cpu help lists them)" >&2 ;;
		*) cpu=max ;;
		esac
	fi
	cpuargs=(-accel tcg -cpu "$cpu")
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/pebs-run.XXXXXX")
trap 'rm -rf "$work"' EXIT
fwargs=()
case $fw in
bios) ;;
ovmf)
	code=/usr/share/OVMF/OVMF_CODE_4M.fd vars=/usr/share/OVMF/OVMF_VARS_4M.fd
	[ -f "$code" ] || { code=/usr/share/OVMF/OVMF_CODE.fd vars=/usr/share/OVMF/OVMF_VARS.fd; }
	cp "$vars" "$work/vars.fd"
	fwargs=(-drive "if=pflash,format=raw,unit=0,readonly=on,file=$code"
		-drive "if=pflash,format=raw,unit=1,file=$work/vars.fd") ;;
ovmf-bios)	# the 2 MB image: QEMU 7.2 boots nothing from OVMF_CODE_4M.fd given as -bios
	code=/usr/share/OVMF/OVMF_CODE.fd
	[ -f "$code" ] || { echo "qemu-run.sh: --fw ovmf-bios needs $code" >&2; exit 2; }
	fwargs=(-bios "$code") ;;
*) echo "qemu-run.sh: --fw must be bios, ovmf or ovmf-bios" >&2; exit 2 ;;
esac
case $machine in q35|pc) ;; *) echo "qemu-run.sh: --machine must be q35 or pc" >&2; exit 2 ;; esac

numaargs=()
if [ -n "$numa" ] && [ "$numa" != 1 ]; then
	case $mem in
	*[Gg]) mib=$(( ${mem%[Gg]} * 1024 )) ;;
	*[Mm]) mib=${mem%[Mm]} ;;
	*) mib="" ;;
	esac
	[[ $numa =~ ^[0-9]+$ && $smp =~ ^[0-9]+$ && $mib =~ ^[0-9]+$ ]] ||
		{ echo "qemu-run.sh: --numa K needs a number K, --smp N and --mem in M or G" >&2; exit 2; }
	[ "$smp" -ge "$numa" ] && [ $((mib % numa)) = 0 ] ||
		{ echo "qemu-run.sh: --numa $numa needs --smp >= $numa and --mem divisible by $numa" >&2; exit 2; }
	per=$((smp / numa))
	for ((i = 0; i < numa; i++)); do
		hi=$(( i == numa - 1 ? smp - 1 : (i + 1) * per - 1 ))
		numaargs+=(-object "memory-backend-ram,id=numa$i,size=$((mib / numa))M"
			   -numa "node,nodeid=$i,cpus=$((i * per))-$hi,memdev=numa$i")
	done
	for ((i = 0; i < numa; i++)); do
		for ((j = i + 1; j < numa; j++)); do numaargs+=(-numa "dist,src=$i,dst=$j,val=21"); done
	done
fi

# Kernel options reach GRUB through a FAT drive holding /pebs-kernel/cmdline.cfg; on a
# network boot through the per-machine file GRUB looks for first, grub.cfg-01-<MAC>
# (docs/netboot.md), in a copy of DIR.
optargs=()
mac=52:54:00:12:34:56
if [ -n "$args" ] && [ -n "$net" ]; then
	cp -a "$net" "$work/net" && net=$work/net
	printf 'set pebs_args="%s"\nsource $prefix/grub.cfg\n' "${args//\"/}" \
		>"$net/boot/grub/grub.cfg-01-${mac//:/-}"
elif [ -n "$args" ]; then
	mkdir -p "$work/opts/pebs-kernel"
	printf 'set pebs_args="%s"\n' "${args//\"/}" >"$work/opts/pebs-kernel/cmdline.cfg"
	optargs=(-drive "file=fat:ro:$work/opts,format=raw,if=ide,index=0,snapshot=on")
fi

# --netboot DIR (make netboot): no disc; the firmware boots GRUB from QEMU's built-in TFTP
# server (user networking, DIR as its root) through the NIC's iPXE option ROM (Debian
# ipxe-qemu: its legacy PXE part under SeaBIOS, its UEFI driver under OVMF); GRUB then loads
# grub.cfg and the kernel over TFTP. Otherwise the ISO as a CD-ROM.
if [ -n "$net" ]; then
	case $fw in bios) bootfile=boot/grub/i386-pc/core.0 ;; *) bootfile=boot/grub/x86_64-efi/core.efi ;; esac
	[ -f "$net/$bootfile" ] || { echo "qemu-run.sh: --netboot $net: no $bootfile (make netboot)" >&2; exit 2; }
	bootargs=(-netdev "user,id=n0,tftp=$net,bootfile=$bootfile" -device "virtio-net-pci,netdev=n0,mac=$mac,bootindex=0")
else
	[ -n "$iso" ] || { echo "qemu-run.sh: an ISO or --netboot DIR" >&2; exit 2; }
	# -nic none: no default NIC, so no iPXE option ROM for the firmware to load (the kernel
	# uses none): OVMF reaches GRUB ~550 ms sooner under TCG, SeaBIOS ~40 ms
	bootargs=(-cdrom "$iso" -boot d -nic none)
fi

out=${log:-$work/serial.log}
# shellcheck disable=SC2206  # $extra: QEMU arguments, split on purpose
qemu=("$qemu_bin" -machine "$machine" "${cpuargs[@]}" -m "$mem" -smp "$smp" -no-reboot
	-display none -device "isa-debug-exit,iobase=0xf4,iosize=0x04"
	"${numaargs[@]}" "${fwargs[@]}" "${optargs[@]}" "${bootargs[@]}" -serial stdio -monitor none
	$extra)
if [ -n "$dry" ]; then
	for a in "${qemu[@]}"; do	# shell-quoted only where needed
		[[ $a =~ ^[[:alnum:]_./:=,@+-]+$ ]] && printf '%s ' "$a" || printf '%q ' "$a"
	done | sed 's/ $/\n/'
	exit 0
fi
# QEMU's stderr: its "TCG doesn't support requested feature" lines (one per CPUID bit the
# model names and TCG lacks) folded into one; the serial log kept raw in $out, shown without
# the firmware's and GRUB's terminal escapes
timeout --foreground -k 5 "$timeout" "${qemu[@]}" </dev/null 2>"$work/qemu.err" | tee "$out" |
	sed -u 's/\x1b\[[0-9;?]*[A-Za-z]//g'
rc=${PIPESTATUS[0]}
nfeat=$(grep -c "doesn't support requested feature" "$work/qemu.err")
grep -v "doesn't support requested feature" "$work/qemu.err" >&2
[ "$nfeat" = 0 ] || echo "qemu-run.sh: -cpu ${cpu:-host}: $nfeat CPUID feature(s) of the model left out by TCG (QEMU's 'TCG doesn't support requested feature' lines)" >&2
if grep -q "unable to find CPU model" "$work/qemu.err"; then
	echo "qemu-run.sh: --cpu $cpu: QEMU has no such CPU model; qemu-system-x86_64 -cpu help lists them" >&2
	exit 2
fi
# QEMU also exits 1 when it fails to start: trust status 1/3 only with the kernel's own line
verdict=$(tr -d '\r' <"$out" | sed -n 's/^# EXIT: STATUS=\([0-9]*\)$/\1/p' | tail -1)
case $rc in
1) [ "$verdict" = 0 ] && exit 0 ;;    # kernel wrote 0 to isa-debug-exit: passed
3) [ "$verdict" = 1 ] && exit 1 ;;    # kernel wrote 1: a test failed
124|137) echo "qemu-run.sh: timed out after ${timeout}s" >&2; exit 124 ;;
esac
echo "qemu-run.sh: QEMU ended with status $rc and kernel verdict '${verdict:-none}'" >&2
exit 2
