#!/usr/bin/env bash
# platform_boot.t: QEMU boots for issue 8 (needs build/pebs-kernel.iso: `make iso`).
#  1-2 COM2 only (-serial none + an ISA 16550 at 0x2f8), SeaBIOS and OVMF: the whole KTAP
#      log arrives on COM2 (BIOS: found through the BDA; UEFI: by probing the legacy ports).
#  3   OVMF with a framebuffer: a screendump through the QEMU monitor, read back cell by cell
#      against the font (tests/scripts/fbcheck.py): the screen shows the serial log from its
#      first line and the verdict banner. 4: that serial log is complete KTAP.
# Logs and the screendump (also as PNG) stay in build/platform-boot/.
set -u
cd "$(dirname "$0")/../.." || exit 1
iso=build/pebs-kernel.iso
out=build/platform-boot
if [ ! -f "$iso" ] || ! command -v qemu-system-x86_64 >/dev/null; then
	echo "1..0 # SKIP no ISO or no QEMU"; exit 0
fi
rm -rf "$out"; mkdir -p "$out/opts/pebs-kernel"
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; shift; printf '%s\n' "$@" | sed 's/^/# /'; }

ovmf() {
	local code=/usr/share/OVMF/OVMF_CODE_4M.fd vars=/usr/share/OVMF/OVMF_VARS_4M.fd
	[ -f "$code" ] || { code=/usr/share/OVMF/OVMF_CODE.fd vars=/usr/share/OVMF/OVMF_VARS.fd; }
	cp "$vars" "$out/vars.fd"
	echo "-drive if=pflash,format=raw,unit=0,readonly=on,file=$code -drive if=pflash,format=raw,unit=1,file=$out/vars.fd"
}

# qemu FW ARGS -- EXTRA QEMU ARGS (kernel options through the FAT drive, as qemu-run.sh does)
qemu() {
	local fw=$1 args=$2; shift 2
	printf 'set pebs_args="%s"\n' "$args" >"$out/opts/pebs-kernel/cmdline.cfg"
	# shellcheck disable=SC2046
	timeout -k 5 150 qemu-system-x86_64 -machine q35 -accel tcg -cpu max -m 512M \
		-no-reboot -display none -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		$([ "$fw" = ovmf ] && ovmf) \
		-drive "file=fat:ro:$out/opts,format=raw,if=ide,index=0,snapshot=on" \
		-cdrom "$iso" -boot d "$@" </dev/null
}

# ktap_ok LOG: the first problem with a serial log, nothing when it is a complete run
ktap_ok() {
	local l; l=$(tr -d '\r' <"$1")
	grep -q '^KTAP version 1$' <<<"$l" || { echo "no KTAP version line"; return; }
	grep -qE '^1\.\.[0-9]+$' <<<"$l" || { echo "no plan"; return; }
	grep -qE '^# Totals: pass:[0-9]+ fail:0 ' <<<"$l" || { echo "no totals / failures"; return; }
	grep -q '^# EXIT: STATUS=0$' <<<"$l" || { echo "no EXIT line"; return; }
}

echo "1..4"
for fw in bios ovmf; do
	log=$out/com2-$fw.log
	qemu $fw "" -serial none -chardev "file,id=com2,path=$log" \
		-device isa-serial,iobase=0x2f8,irq=3,chardev=com2 -monitor none >/dev/null 2>&1
	rc=$?
	p=$(ktap_ok "$log")
	if [ $rc = 1 ] && [ -z "$p" ] && grep -aq '^# console: serial io 0x2f8' "$log"; then
		ok "COM2-only boot ($fw): full log on COM2 ($(grep -a '^# console' "$log" | tr -d '\r'))"
	else
		notok "COM2-only boot ($fw): status $rc ${p:-}" \
			"$(grep -a '^ *not ok' "$log" 2>/dev/null | tr -d '\r')" "$(tail -3 "$log" 2>/dev/null)"
	fi
done

# 3: framebuffer under OVMF. exit=halt keeps QEMU alive after the run for the screendump.
log=$out/ovmf-fb.log mon=$out/mon.sock
qemu ovmf "exit=halt tests=boot" -serial "file:$log" -monitor "unix:$mon,server,nowait" \
	>/dev/null 2>&1 &
qpid=$!
for _ in $(seq 300); do
	grep -aq '^# halted' "$log" 2>/dev/null && break
	kill -0 $qpid 2>/dev/null || break
	sleep 0.5
done
python3 - "$mon" "$PWD/$out/screen.ppm" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
def cmd(c):
    s.sendall((c + "\n").encode()); time.sleep(1.0)
    try: s.recv(65536)
    except Exception: pass
s.settimeout(2); cmd(""); cmd("screendump " + sys.argv[2]); cmd("quit")
PY
wait $qpid 2>/dev/null
if [ ! -s "$out/screen.ppm" ]; then
	notok "OVMF framebuffer: no screendump" "$(tail -3 "$log" 2>/dev/null)"
elif r=$(python3 tests/scripts/fbcheck.py "$out/screen.ppm" "$log" --png "$out/screen.png"); then
	ok "OVMF framebuffer: ${r#fbcheck: }"
else
	notok "OVMF framebuffer: ${r#fbcheck: }" "screen: $out/screen.png"
fi
p=$(tr -d '\r' <"$log" | sed 's/^# halted.*//' | ktap_ok /dev/stdin)
if [ -z "$p" ]; then ok "OVMF framebuffer boot: serial log is complete KTAP"; else notok "OVMF serial log: $p"; fi
