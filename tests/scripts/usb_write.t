#!/bin/sh
# usb_write.t: scripts/usb-write.sh refuses what it must, before asking anything and
# without writing: wrong usage, missing image, a plain file, a character device, the disk
# holding / (when / is on a block device here). Run without a terminal (setsid, stdin
# /dev/null), so even a wrong "yes" path could never reach dd.
cd "$(dirname "$0")/../.." || exit 1
S=scripts/usb-write.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
: >"$tmp/img.iso"
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; }
# refuses: expect exit != 0 and the message fragment
refuses() {
	desc=$1 frag=$2; shift 2
	out=$(setsid "$S" "$@" </dev/null 2>&1); rc=$?
	if [ $rc -ne 0 ] && echo "$out" | grep -q "$frag"; then ok "$desc"; else
		notok "$desc"; echo "# rc=$rc out: $out"; fi
}
echo "1..7"
refuses "usage without arguments" "usage"
refuses "missing image" "no such image" "$tmp/none.iso" /dev/null
refuses "plain file as device" "not a block device" "$tmp/img.iso" "$tmp/img.iso"
refuses "character device" "not a block device" "$tmp/img.iso" /dev/null
if [ -b /dev/loop0 ] && ! losetup /dev/loop0 >/dev/null 2>&1; then
	refuses "unattached loop device" "knows nothing" "$tmp/img.iso" /dev/loop0
else
	skip "no unattached /dev/loop0"
fi
root=$(findmnt -no SOURCE / 2>/dev/null)
if [ -b "$root" ]; then
	disk=/dev/$(lsblk -no PKNAME "$root" 2>/dev/null | head -1)
	[ "$disk" = /dev/ ] && disk=$root
	refuses "disk holding / ($disk)" "running system\|mounted" "$tmp/img.iso" "$disk"
else
	skip "/ is not on a block device here"
fi
if [ -b "$root" ] && [ "$(lsblk -dno TYPE "$root")" = part ]; then
	refuses "partition instead of disk" "not a whole disk" "$tmp/img.iso" "$root"
else
	skip "no partition to name here"
fi
