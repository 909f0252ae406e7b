#!/usr/bin/env bash
# qemu10.sh: QEMU 10 for the tests only (x2APIC under TCG, more than 255 CPUs, newer CPU
# models); `make run` never calls it and the system's QEMU (7.2 on Debian 12) stays what users
# run. Debian 12 has QEMU 10.0 in bookworm-backports: the three packages qemu-system-x86,
# qemu-system-common and qemu-system-data are fetched with `apt-get download` through an apt
# source list of our own under build/qemu10 (the user's /etc/apt is read for nothing but the
# archive keyring), unpacked with `dpkg-deb -x` into build/qemu10/root, never installed. The
# binary finds its data files (option ROMs, keymaps) through -L: the unpacked
# usr/share/qemu first, then the system's SeaBIOS (/usr/share/seabios); OVMF is given by
# path as for QEMU 7.2.
# Prints the path of build/qemu10/qemu-system-x86_64, a wrapper that runs the unpacked binary
# with those -L options, and exits 0; or prints why QEMU 10 is not there on stderr and exits
# 1 (a test then SKIPs with that reason). QEMU10_OFFLINE=1: use what is unpacked, fetch
# nothing.
set -u
cd "$(dirname "$0")/.."
dir=$PWD/build/qemu10
bin=$dir/root/usr/bin/qemu-system-x86_64
wrap=$dir/qemu-system-x86_64
suite=bookworm-backports
pkgs="qemu-system-x86/$suite qemu-system-common/$suite qemu-system-data/$suite"
fail() { echo "qemu10: $*" >&2; exit 1; }

# the wrapper names absolute paths: written again each time (the tree may have moved)
wrapper() {
	cat >"$wrap" <<SH
#!/bin/sh
# scripts/qemu10.sh: the unpacked QEMU 10 with its data files and the system's SeaBIOS
exec "$bin" -L "$dir/root/usr/share/qemu" -L /usr/share/seabios "\$@"
SH
	chmod +x "$wrap"
}

check() {
	[ -x "$bin" ] && [ -x "$wrap" ] || return 1
	ver=$("$wrap" --version 2>&1 | head -1) || { echo "$ver"; return 2; }
	case $ver in *"version 10."*|*"version 1"[1-9]"."*) return 0 ;; esac
	echo "$ver"
	return 2
}

[ -x "$bin" ] && wrapper
if out=$(check); then echo "$wrap"; exit 0; fi
[ -n "${out:-}" ] && fail "$bin does not run: $out"
[ "${QEMU10_OFFLINE:-0}" = 1 ] && fail "not unpacked in $dir (QEMU10_OFFLINE=1: nothing fetched)"
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
	fail "needs apt-get and dpkg-deb (Debian or Ubuntu) to fetch $suite's qemu-system-x86"
[ "$(dpkg --print-architecture 2>/dev/null)" = amd64 ] ||
	fail "the $suite packages are fetched for amd64 only"
grep -qs '^VERSION_CODENAME=bookworm' /etc/os-release ||
	fail "the $suite packages are built for Debian 12 (bookworm); this is $(. /etc/os-release 2>/dev/null; echo "${PRETTY_NAME:-unknown}")"
key=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$key" ] || fail "no Debian archive keyring at $key"

rm -rf "$dir" && mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/debs"
printf 'deb [signed-by=%s] http://deb.debian.org/debian %s main\n' "$key" "$suite" >"$dir/apt/sources.list"
opts=(-o "Dir::Etc::SourceList=$dir/apt/sources.list" -o "Dir::Etc::SourceParts=-"
      -o "Dir::State::Lists=$dir/apt/lists" -o "Dir::Cache=$dir/apt/cache"
      -o "Dir::State::Status=/var/lib/dpkg/status" -o "APT::Get::List-Cleanup=0"
      -o "Debug::NoLocking=1")
apt-get "${opts[@]}" update >"$dir/update.log" 2>&1 ||
	fail "apt-get update of $suite failed: $(grep -E '^(E|Err):' "$dir/update.log" | head -2 | tr '\n' ' ')"
# shellcheck disable=SC2086  # $pkgs: three package names
( cd "$dir/debs" && apt-get "${opts[@]}" download $pkgs ) >"$dir/download.log" 2>&1 ||
	fail "apt-get download $pkgs failed: $(grep -E '^(E|Err):' "$dir/download.log" | head -2 | tr '\n' ' ')"
for d in "$dir"/debs/*.deb; do dpkg-deb -x "$d" "$dir/root" || fail "dpkg-deb -x $d failed"; done
wrapper
if out=$(check); then echo "$wrap"; exit 0; fi
fail "the unpacked $bin does not run: ${out:-missing}"
