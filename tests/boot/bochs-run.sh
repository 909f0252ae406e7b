#!/usr/bin/env bash
# bochs-run.sh: boot the ISO under Bochs (an x86 implementation independent of QEMU) with COM1
# written to a log, and give the same exit status as qemu-run.sh: 0 = all passed/skipped,
# 1 = a test failed, 2 = no verdict (Bochs missing or failed to start, the kernel died),
# 124 = timeout.
#   bochs-run.sh ISO [--cpu MODEL] [--ignore-bad-msrs 0|1] [--ips N] [--mem MIB] [--timeout S]
#                [--log FILE] [--dry-run] [-- KERNEL OPTIONS...]
# --cpu: one of `bochs --help cpu` (default: Bochs's bx_generic); --ignore-bad-msrs: Bochs's
# own `cpu: ignore_bad_msrs=` (its default 1: an unknown MSR reads 0 and a write is dropped,
# no #GP); --ips: Bochs's emulated instructions per second, which is also its TSC rate (default
# Bochs's 4000000: below the kernel's 100 MHz floor for a PIT calibration, so the kernel assumes
# 1 GHz and says so on its `# tsc:` line; --ips 200000000 calibrates, but firmware and kernel
# waits then take 50 times the instructions: a boot ~2.5 times as long); --mem: guest memory in
# MiB (default 256); --timeout: seconds (default 300: Bochs interprets every instruction, a
# boot with tests=boot,exceptions takes 30-45 s here).
# How Bochs is driven (Debian's `bochs` 2.7):
# - ROM: SeaBIOS's bios-256k.bin (package seabios) and its VGA BIOS (seabios or vgabios);
#   Bochs's own BIOS-bochs-latest breaks GRUB's heap. BOCHS_ROM / BOCHS_VGAROM override.
# - no PC speaker (plugin_ctrl: speaker=0): its sound mixer thread aborts Bochs 2.7 at start-up
#   ("buffer overflow detected", in mixer_thread) on a host without a sound card.
# - display: rfb with timeout=0 (no client awaited); the `term` display panics on GRUB's
#   32 bpp mode and `nogui` is not built.
# - Debian builds the debugger in: Bochs stops at its prompt before the first instruction.
#   The `c` (continue) comes from a debugger command file (-rc); stdin is kept open by a
#   `c` fed through a pipe as well, for builds that read the prompt before the file.
# - no isa-debug-exit: the runner watches the serial log for the kernel's `# EXIT: STATUS=n`
#   line (the kernel halts after it) and then ends Bochs.
# - kernel options reach GRUB as in qemu-run.sh: /pebs-kernel/cmdline.cfg on a FAT disk
#   (mtools: an unpartitioned FAT image as the ATA slave disk, GRUB's (hd0)).
# --dry-run prints the bochsrc instead of running it. BOCHS overrides the command (`bochs`).
set -u
iso=""
case ${1:-} in -*) ;; *) iso=${1:-}; shift ;; esac
cpu="" ibm="" ips="" mem=256 timeout=300 log="" dry=""
die() { echo "bochs-run.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--cpu) cpu=${2:-}; shift 2 || die "--cpu needs a model" ;;
	--ignore-bad-msrs) ibm=${2:-}; shift 2 || die "--ignore-bad-msrs needs 0 or 1" ;;
	--ips) ips=${2:-}; shift 2 || die "--ips needs a number" ;;
	--mem) mem=${2:-}; shift 2 || die "--mem needs MiB" ;;
	--timeout) timeout=${2:-}; shift 2 || die "--timeout needs seconds" ;;
	--log) log=${2:-}; shift 2 || die "--log needs a file" ;;
	--dry-run) dry=1; shift ;;
	--) shift; break ;;
	*) die "unknown argument $1" ;;
	esac
done
args="$*"
[ -n "$iso" ] || die "usage: bochs-run.sh ISO [--cpu MODEL] [--ignore-bad-msrs 0|1] [--ips N] [--mem MIB] [--timeout S] [--log FILE] [--dry-run] [-- OPTIONS]"
[ -f "$iso" ] || die "$iso: no such file (make iso)"
case $ibm in "" | 0 | 1) ;; *) die "--ignore-bad-msrs must be 0 or 1, not '$ibm'" ;; esac
[[ $mem =~ ^[0-9]+$ ]] && [ "$mem" -ge 32 ] || die "--mem must be a number of MiB >= 32, not '$mem'"
[[ $timeout =~ ^[0-9]+$ ]] && [ "$timeout" -ge 1 ] || die "--timeout must be seconds >= 1, not '$timeout'"
[[ -z $ips || ( $ips =~ ^[0-9]+$ && $ips -ge 1000000 ) ]] || die "--ips must be instructions per second >= 1000000, not '$ips'"
[[ -z $cpu || $cpu =~ ^[a-z0-9_]+$ ]] || die "--cpu '$cpu': not a Bochs model name (bochs --help cpu)"

bochs=${BOCHS:-bochs}
command -v "$bochs" >/dev/null || die "no '$bochs' on PATH (Debian package bochs; scripts/install-deps.sh --test)"
first() { local f; for f in "$@"; do [ -f "$f" ] && { echo "$f"; return 0; }; done; return 1; }
rom=${BOCHS_ROM:-$(first /usr/share/seabios/bios-256k.bin)} ||
	die "no SeaBIOS ROM /usr/share/seabios/bios-256k.bin (package seabios)"
vgarom=${BOCHS_VGAROM:-$(first /usr/share/seabios/vgabios-stdvga.bin /usr/share/vgabios/vgabios.bin)} ||
	die "no VGA BIOS: /usr/share/seabios/vgabios-stdvga.bin or /usr/share/vgabios/vgabios.bin (package seabios or vgabios)"
[ -f "$rom" ] || die "BOCHS_ROM=$rom: no such file"
[ -f "$vgarom" ] || die "BOCHS_VGAROM=$vgarom: no such file"

work=$(mktemp -d "${TMPDIR:-/tmp}/pebs-bochs.XXXXXX")
pid=""
cleanup() {
	[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
out=${log:-$work/serial.log}
: >"$out" || die "cannot write $out"

# the options disk: 4 cylinders x 16 heads x 63 sectors (2 MiB), FAT, no partition table
disk=""
if [ -n "$args" ]; then
	command -v mformat >/dev/null && command -v mcopy >/dev/null ||
		die "kernel options need mtools (mformat, mcopy) for the FAT disk GRUB reads them from"
	printf 'set pebs_args="%s"\n' "${args//\"/}" >"$work/cmdline.cfg"
	mformat -C -t 4 -h 16 -s 63 -v PEBSOPTS -i "$work/opts.img" :: >"$work/mtools.log" 2>&1 &&
		mmd -i "$work/opts.img" ::/pebs-kernel >>"$work/mtools.log" 2>&1 &&
		mcopy -i "$work/opts.img" "$work/cmdline.cfg" ::/pebs-kernel/cmdline.cfg >>"$work/mtools.log" 2>&1 ||
		die "cannot build the options disk: $(tail -1 "$work/mtools.log")"
	disk="ata0-slave: type=disk, path=\"$work/opts.img\", mode=flat, cylinders=4, heads=16, spt=63"
fi

cpuline="cpu: ${cpu:+model=$cpu, }${ibm:+ignore_bad_msrs=$ibm, }${ips:+ips=$ips, }"
cpuline=${cpuline%, }
[ "$cpuline" = "cpu: " ] && cpuline=""
cat >"$work/bochsrc" <<EOF
# bochsrc written by tests/boot/bochs-run.sh
megs: $mem
${cpuline}
romimage: file="$rom"
vgaromimage: file="$vgarom"
ata0: enabled=1, ioaddr1=0x1f0, ioaddr2=0x3f0, irq=14
ata0-master: type=cdrom, path="$iso", status=inserted
${disk}
boot: cdrom
com1: enabled=1, mode=file, dev="$out"
display_library: rfb, options="timeout=0"
mouse: enabled=0
plugin_ctrl: speaker=0
log: "$work/bochs.log"
panic: action=fatal
error: action=report
info: action=ignore
debugger_log: -
EOF
if [ -n "$dry" ]; then
	grep -v '^$' "$work/bochsrc"
	exit 0
fi
printf 'c\n' >"$work/debugger.rc"

# Bochs, its stdin a pipe that holds a `c` and stays open (EOF at the debugger prompt quits)
mkfifo "$work/stdin"
"$bochs" -q -f "$work/bochsrc" -rc "$work/debugger.rc" <"$work/stdin" >"$work/bochs.out" 2>&1 &
pid=$!
exec 3>"$work/stdin"
printf 'c\n' >&3

verdict="" rc="" start=$SECONDS
while :; do
	verdict=$(tr -d '\r' <"$out" | sed -n 's/^# EXIT: STATUS=\([0-9]*\)$/\1/p' | tail -1)
	[ -n "$verdict" ] && break
	if ! kill -0 "$pid" 2>/dev/null; then
		wait "$pid"; rc=$?
		verdict=$(tr -d '\r' <"$out" | sed -n 's/^# EXIT: STATUS=\([0-9]*\)$/\1/p' | tail -1)
		break
	fi
	[ $((SECONDS - start)) -ge "$timeout" ] && break
	sleep 0.5
done
if [ -z "$rc" ]; then
	kill -TERM "$pid" 2>/dev/null
	for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
fi
pid=""
exec 3>&-
# the log on stdout, as qemu-run.sh gives it
cat "$out"
case $verdict in
0) exit 0 ;;
1) exit 1 ;;
esac
if [ -z "$rc" ] && [ -z "$verdict" ]; then
	echo "bochs-run.sh: timed out after ${timeout}s" >&2
	exit 124
fi
echo "bochs-run.sh: Bochs ended with status $rc and kernel verdict '${verdict:-none}'" >&2
grep -ahE '^[0-9]+[ep]\[|\*\*\*|PANIC|rror' "$work/bochs.log" "$work/bochs.out" 2>/dev/null | tail -3 |
	sed 's/^/bochs-run.sh: /' >&2
exit 2
