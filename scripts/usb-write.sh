#!/bin/sh
# usb-write.sh: write the hybrid BIOS/UEFI ISO to a USB stick (`make usb DEV=/dev/sdX`).
# Refuses anything that is not a whole, unmounted, removable/USB disk that does not hold
# the running system, shows what it is about to overwrite, and asks for the device name
# to be typed back before running dd. USB_FORCE=1 allows a non-USB, non-removable disk
# (e.g. an SD card reader on an internal bus); nothing skips the confirmation.
set -eu

die() { echo "usb-write: $*" >&2; exit 1; }

[ $# -eq 2 ] || die "usage: $0 IMAGE.iso /dev/sdX   (or: make usb DEV=/dev/sdX)"
iso=$1
dev=$2
[ -f "$iso" ] || die "$iso: no such image (run 'make iso' first)"
[ -b "$dev" ] || die "$dev: not a block device"
command -v lsblk >/dev/null || die "lsblk not found (util-linux)"

type=$(lsblk -dno TYPE "$dev" 2>/dev/null || true)
[ -n "$type" ] || die "$dev: lsblk knows nothing about it (no medium?)"
[ "$type" = disk ] || die "$dev is a $type, not a whole disk: name the disk (e.g. /dev/sdb, not /dev/sdb1)"

# Mounted or swap anywhere on the disk (partitions included)?
mounts=$(lsblk -nro MOUNTPOINT "$dev" | grep -v '^$' || true)
[ -z "$mounts" ] || die "$dev has mounted filesystems or swap ($(echo $mounts)): unmount them first"

# The disk(s) holding /, /boot, /boot/efi and /usr are never written.
name=$(basename "$(readlink -f "$dev")")
for m in / /boot /boot/efi /usr; do
	src=$(findmnt -no SOURCE "$m" 2>/dev/null || true)
	case "$src" in /dev/*) ;; *) continue ;; esac
	for d in $(lsblk -nso NAME "$src" 2>/dev/null | sed 's/^[^a-zA-Z0-9]*//'); do
		[ "$d" = "$name" ] && die "$dev holds $m of the running system: refusing"
	done
done
grep -q "^/dev/$name" /proc/swaps 2>/dev/null && die "$dev is used as swap: refusing"

rm_flag=$(lsblk -dno RM "$dev" | tr -d ' ')
tran=$(lsblk -dno TRAN "$dev" | tr -d ' ')
if [ "$rm_flag" != 1 ] && [ "$tran" != usb ] && [ "${USB_FORCE:-0}" != 1 ]; then
	die "$dev is neither removable nor on USB (transport '${tran:-none}'): set USB_FORCE=1 if you are sure"
fi

size=$(lsblk -dbno SIZE "$dev" | tr -d ' ')
isosize=$(stat -c %s "$iso")
[ "$size" -ge "$isosize" ] || die "$dev ($size bytes) is smaller than $iso ($isosize bytes)"

[ -r /dev/tty ] && [ -w /dev/tty ] && { : </dev/tty; } 2>/dev/null ||
	die "no terminal to ask for confirmation: run this interactively"

echo "About to overwrite $dev with $iso:" >/dev/tty
lsblk -o NAME,SIZE,TYPE,TRAN,RM,MODEL,VENDOR,LABEL "$dev" >/dev/tty
printf 'Everything on %s will be lost. Type the device name (%s) to continue: ' "$dev" "$dev" >/dev/tty
read -r answer </dev/tty
[ "$answer" = "$dev" ] || die "not confirmed: nothing written"

echo "writing..."
dd if="$iso" of="$dev" bs=4M conv=fsync oflag=direct status=progress
sync
echo "done: $dev now boots pebs-kernel on BIOS and UEFI machines (disable Secure Boot)."
