#!/usr/bin/env python3
"""nmi-inject.py: inject NMIs into a running kernel through QEMU's human monitor (HMP
command `nmi`: QEMU's x86 NMI handler delivers it to every CPU through LINT1, which only the
boot CPU leaves unmasked, as Linux does).

  nmi-inject.py SOCKET LOG COUNT [INTERVAL_S]

Waits for the monitor's UNIX socket (QEMU started with -monitor unix:SOCKET,server=on,
wait=off), then for the serial LOG to show the top-level plan (`1..N`: the kernel is running
its tests), then sends `nmi` COUNT times, INTERVAL_S apart (default 0.25), stopping early at
the log's `# EXIT:` line. Prints `nmi-inject: sent K` on stdout; exit 0 when at least one was
sent, 1 otherwise (bounded: 120 s for the socket and the plan).
"""
import os
import re
import socket
import sys
import time


def wait_for(pred, limit):
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.05)
    return False


def log_has(path, pattern):
    try:
        with open(path, "rb") as f:
            return re.search(pattern, f.read().decode("ascii", "replace"), re.M) is not None
    except OSError:
        return False


def main():
    if len(sys.argv) < 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    sock_path, log, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    interval = float(sys.argv[4]) if len(sys.argv) > 4 else 0.25
    sent = 0
    if not wait_for(lambda: os.path.exists(sock_path), 120):
        print("nmi-inject: no monitor socket %s" % sock_path, file=sys.stderr)
    elif not wait_for(lambda: log_has(log, r"^1\.\.\d+\r?$"), 120):
        print("nmi-inject: the kernel never printed its plan", file=sys.stderr)
    else:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(sock_path)
        s.settimeout(0.2)
        for _ in range(count):
            if log_has(log, r"^# EXIT:"):
                break
            try:
                s.sendall(b"nmi\n")
                sent += 1
                s.recv(4096)    # the monitor's echo and prompt
            except OSError:
                pass
            time.sleep(interval)
        s.close()
    print("nmi-inject: sent %d" % sent)
    return 0 if sent else 1


if __name__ == "__main__":
    sys.exit(main())
