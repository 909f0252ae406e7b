#!/usr/bin/env bash
# install-deps.sh [--test]: install the Debian/Ubuntu packages the build and the tests need,
# and only those that are missing. Used by `make run`, `make test` and .ci/run. Idempotent.
# --test adds what only the tests use (TEST_PKGS: `make test`, `make test-repeat`,
# `make test-bochs`): Bochs with SeaBIOS as its ROM (tests/scripts/bochs.t), a PostgreSQL
# server and client library (tests/scripts/history_pg.t starts its own server), JSON Schema
# validation of the KCIDB export (tests/scripts/kcidb.t), headless Chromium for the dashboard
# (tests/scripts/dashboard.t), dmidecode as the reference decoder of real SMBIOS dumps
# (tests/scripts/smbios_dumps.t). `make run` and `make hwcheck` never install them (hwcheck
# installs nothing at all); the tests that need them SKIP with the reason when they are absent.
set -eu
TEST_PKGS="bochs bochsbios vgabios seabios postgresql python3-psycopg2 python3-jsonschema chromium dmidecode"
with_test=0
case ${1:-} in
"") ;;
--test) with_test=1 ;;
*) echo "install-deps.sh: unknown argument '$1' (install-deps.sh [--test])" >&2; exit 2 ;;
esac

PKGS="gcc make nasm binutils grub-common grub-pc-bin grub-efi-amd64-bin xorriso mtools
qemu-system-x86 ipxe-qemu ovmf libcmocka-dev pkg-config perl python3 python3-matplotlib clang
python3-yaml python3-jinja2 python3-voluptuous python3-pexpect python3-requests python3-setproctitle
python3-configobj python3-netifaces python3-magic python3-pyudev python3-tz"
# (the python3-* after clang: what lava-dispatcher's Python code imports; scripts/lava-local.sh
# unpacks lava-dispatcher itself without its system dependencies, for tests/scripts/lava.t)
# Linux's KTAP parser (kunit.py) for tests/scripts/ktap_conformance.t comes from the kernel
# source packages: Debian 12 has the 6.1 tree (older parser) and the 6.12 tree (current);
# where those names do not exist (Ubuntu) the distribution's default `linux-source`.
for p in linux-source-6.1 linux-source-6.12; do
    if apt-cache show "$p" >/dev/null 2>&1; then PKGS="$PKGS $p"; else PKGS="$PKGS linux-source"; fi
done

[ "$with_test" = 1 ] && PKGS="$PKGS $TEST_PKGS"

missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
        || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing:$missing" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
# tests run side by side may call this at once: one apt at a time, and wait for another's lock
exec 9>"${TMPDIR:-/tmp}/pebs-install-deps.lock"
flock 9
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq >&2
# shellcheck disable=SC2086
$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $missing >&2
