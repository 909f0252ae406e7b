#!/usr/bin/env bash
# matrix.sh: prints the full QEMU boot matrix as rows of tests/boot/cases format (set
# "matrix"): firmware x CPU model x memory x CPUs. Used by `make test-matrix`.
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
			for smp in 1 4; do
				printf 'matrix   %s-%s-%s-smp%s  %s  %s  %s  %s  pass  -\n' \
					"$fw" "$cpu" "$mem" "$smp" "$fw" "$cpu" "$mem" "$smp"
			done
		done
	done
done
