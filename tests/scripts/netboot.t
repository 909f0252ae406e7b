#!/usr/bin/env bash
# netboot.t: `make netboot` (docs/netboot.md) as TAP: the tree holds both GRUB boot files, the
# project's grub.cfg and the kernel; tests/boot/qemu-run.sh --netboot builds the QEMU command
# line from it (TFTP root, boot file per firmware, no disc) and refuses a tree without boot
# file; and one OVMF boot in which GRUB finds a subnet's file grub.cfg-<IP prefix in hex> on
# QEMU's TFTP server: its options reach the kernel (`# cmdline:`) and the run reaches a
# verdict. The default-tests boots over the network are boot cases (tests/boot/cases).
set -u
cd "$(dirname "$0")/../.." || exit 1
nb=build/netboot
n=0 failed=0
ok() {	# ok COND-STATUS NAME [DIAG]
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); [ -n "${3:-}" ] && sed 's/^/# /' <<<"$3" | head -20; fi
}
[ -f $nb/boot/pebs-kernel.elf ] || { echo "Bail out! $nb missing (make netboot)"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/netboot-t.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

[ -s $nb/boot/grub/i386-pc/core.0 ] && [ -f $nb/boot/grub/i386-pc/multiboot2.mod ]; ok $? "BIOS PXE boot file and modules"
[ -s $nb/boot/grub/x86_64-efi/core.efi ] && [ -f $nb/boot/grub/x86_64-efi/multiboot2.mod ]; ok $? "UEFI boot file and modules"
head -c 2 $nb/boot/grub/x86_64-efi/core.efi | grep -q MZ; ok $? "core.efi is a PE image"
cmp -s $nb/boot/grub/grub.cfg iso/grub.cfg; ok $? "grub.cfg is iso/grub.cfg"
cmp -s $nb/boot/pebs-kernel.elf build/pebs-kernel.elf; ok $? "the kernel is build/pebs-kernel.elf"

for fw in bios ovmf; do
	want=boot/grub/i386-pc/core.0
	[ $fw = ovmf ] && want=boot/grub/x86_64-efi/core.efi
	cmd=$(tests/boot/qemu-run.sh --netboot $nb --fw $fw --accel tcg --dry-run 2>/dev/null)
	[[ $cmd == *"user,id=n0,tftp=$nb,bootfile=$want"* && $cmd != *-cdrom* ]]
	ok $? "--netboot --fw $fw: TFTP root, $want, no disc" "$cmd"
done
mkdir -p "$tmp/empty"
err=$(tests/boot/qemu-run.sh --netboot "$tmp/empty" --accel tcg 2>&1 >/dev/null); rc=$?
[ $rc = 2 ] && [[ $err == *"no boot/grub/i386-pc/core.0 (make netboot)"* ]]
ok $? "--netboot of a tree without boot file exits 2 with the reason" "$rc $err"

# a subnet file (10.0.2.15 = 0A00020F; GRUB tries 0A00020F, 0A00020, ...) under OVMF
cp -a $nb "$tmp/tree"
printf 'set pebs_args="tests=boot,pmu"\nsource $prefix/grub.cfg\n' >"$tmp/tree/boot/grub/grub.cfg-0A00020"
tests/boot/qemu-run.sh --netboot "$tmp/tree" --fw ovmf --accel tcg --timeout 170 \
	--log "$tmp/ovmf.log" >/dev/null 2>"$tmp/err"
rc=$?
tr -d '\r' <"$tmp/ovmf.log" >"$tmp/clean.log"
[ $rc = 0 ] && grep -q '^# cmdline: tests=boot,pmu$' "$tmp/clean.log" && grep -q '(UEFI)$' "$tmp/clean.log" \
	&& grep -q '^# EXIT: STATUS=0$' "$tmp/clean.log"
ok $? "OVMF network boot: grub.cfg-0A00020 (subnet file) gives the options, verdict PASS" \
	"rc $rc $(tail -3 "$tmp/err"; grep -a '^# \(cmdline\|boot loader\|EXIT\)' "$tmp/clean.log")"
echo "1..$n"
[ $failed = 0 ]
