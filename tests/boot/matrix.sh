#!/usr/bin/env bash
# matrix.sh: prints the full QEMU boot matrix as rows of tests/boot/cases format (set
# "matrix"): firmware x CPU model x memory x CPUs on q35, and a smaller set on QEMU's `pc`
# machine (SeaBIOS, and OVMF given as -bios). Used by `make test-matrix`.
# CPU models are those this QEMU offers among the ones the issue lists, plus any newer Intel
# server/client model it knows.
set -u
want="qemu64 Nehalem SandyBridge Haswell Skylake-Client Skylake-Server Icelake-Server
Cascadelake-Server Cooperlake SapphireRapids GraniteRapids SierraForest max"
have=$(qemu-system-x86_64 -cpu help 2>/dev/null | awk '{print $2}')
for fw in bios ovmf; do
	for cpu in $want; do
		grep -qx -- "$cpu" <<<"$have" || continue
		for mem in 64M 512M 4G 16G; do
			for smp in 1 4 8; do
				[ "$smp" = 8 ] && [ "$mem" != 512M ] && continue
				printf 'matrix   %s-%s-%s-smp%s  q35  %s  %s  %s  %s  pass  -\n' \
					"$fw" "$cpu" "$mem" "$smp" "$fw" "$cpu" "$mem" "$smp"
			done
		done
	done
done
# pc: the framebuffer and the PCI hole move with the firmware and the memory size
for fw in bios ovmf-bios; do
	for cpu in qemu64 Skylake-Client max; do
		grep -qx -- "$cpu" <<<"$have" || continue
		for mem in 128M 512M 3G 4G; do
			printf 'matrix   pc-%s-%s-%s  pc  %s  %s  %s  1  pass  -\n' \
				"$fw" "$cpu" "$mem" "$fw" "$cpu" "$mem"
		done
	done
done
# bochs-display instead of the VGA: another framebuffer size, format and (on SeaBIOS) BAR
for fw in bios ovmf; do
	printf 'matrix   q35-%s-bochs-display  q35  %s  max  512M  1  pass~ok_2_paging  %s\n' \
		"$fw" "$fw" "tests=boot,paging qemu=-vga_none_-device_bochs-display"
done
