#!/usr/bin/env bash
# lava-local.sh: a LAVA dispatcher that runs here, for tests/scripts/lava.t. Debian 12's
# lava-dispatcher 2023.01 installed the ordinary way pulls 143 packages (systemd, udev, linux
# headers for bpfcc, libguestfs, ...; about 42 MiB to download with --no-install-recommends),
# none of which a QEMU job needs. So this takes only the three pure-Python packages
# (lava-dispatcher, lava-common, lava-dispatcher-host: apt-get download, no dependencies)
# unpacked into build/lava/root, with their small Python dependencies from
# scripts/install-deps.sh, and a stand-in for `guestfs` (lava_dispatcher/utils/filesystem.py
# imports it at load; only image-modifying actions use it, and these jobs use none: calling it
# raises). Prints the directory; build/lava/lava-run runs the dispatcher.
# Exit 0 ready; 1 with the reason when the packages cannot be had (no network, no such
# package in this distribution).
set -eu
cd "$(dirname "$0")/.."
dir=build/lava
[ -x $dir/lava-run ] && { echo $dir; exit 0; }
rm -rf $dir && mkdir -p $dir/debs $dir/shim
( cd $dir/debs && apt-get download lava-dispatcher lava-common lava-dispatcher-host ) >$dir/download.log 2>&1 \
	|| { echo "lava-local: apt-get download lava-dispatcher lava-common lava-dispatcher-host failed:" >&2
	     grep -v '^W:' $dir/download.log | tail -3 >&2; exit 1; }
for d in $dir/debs/*.deb; do dpkg-deb -x "$d" $dir/root; done
cat >$dir/shim/guestfs.py <<'PY'
"""Stand-in for python3-guestfs (scripts/lava-local.sh): importable, unusable."""


class GuestFS:
    def __init__(self, *args, **kwargs):
        raise RuntimeError("guestfs is not installed (scripts/lava-local.sh)")
PY
cat >$dir/lava-run <<'SH'
#!/bin/sh
here=$(cd "$(dirname "$0")" && pwd)
PYTHONPATH="$here/shim:$here/root/usr/lib/python3/dist-packages" exec /usr/bin/python3 "$here/root/usr/bin/lava-run" "$@"
SH
chmod +x $dir/lava-run
$dir/lava-run --help >/dev/null 2>$dir/import.log || { echo "lava-local: lava-run does not start:" >&2; tail -3 $dir/import.log >&2; exit 1; }
echo $dir
