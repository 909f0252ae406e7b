#!/usr/bin/env python3
# log_fuzz.py: a time-bounded mutation fuzzer for the serial-log parser of tools/pebs-report
# (Python, so libFuzzer does not apply). Seeds: the real boot logs in
# tests/fixtures/pebs-report/ and tests/fuzz/corpus/log_fuzz/. Each round mutates a seed
# (cut, insert random bytes, flip bits, truncate, splice KTAP/ANSI fragments, duplicate a
# stretch), parses it and builds the summary and JSON; any exception or a status outside
# {0, 1, 2} is a crash: the input is saved under build/fuzz/log_fuzz-crashes/ and the run fails.
#   tests/fuzz/log_fuzz.py [SECONDS] [SEED]
import glob
import json
import os
import random
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tools"))
from pebsreport import report  # noqa: E402

FRAGS = [b"\r", b"\n", b"\x1b[2J", b"\x1b[1;1H", b"  ", b"# ", b"ok 9 x\n", b"not ok 1 y\n",
         b"  KTAP version 1\n", b"1..3\n", b"# Totals: pass:1 fail:0 skip:0 total:1\n",
         b"  # load_l1: time unit=load tsc=", b"# EXIT: STATUS=", b"\xff\xfe", b"raw "]


def mutate(rng, d):
    d = bytearray(d)
    for _ in range(rng.randint(1, 8)):
        pos = rng.randrange(len(d) + 1)
        op = rng.randrange(6)
        if op == 0:
            d[pos:pos + rng.randint(1, 200)] = b""
        elif op == 1:
            d[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        elif op == 2 and d:
            d[min(pos, len(d) - 1)] ^= 1 << rng.randrange(8)
        elif op == 3:
            d = d[:pos]
        elif op == 4:
            d[pos:pos] = rng.choice(FRAGS)
        else:
            a = rng.randrange(len(d) + 1)
            d[pos:pos] = d[a:a + rng.randint(1, 300)]
    return bytes(d)


def main():
    os.chdir(ROOT)
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 30
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    seeds = [open(p, "rb").read() for p in sorted(glob.glob("tests/fixtures/pebs-report/*.log")
                                                  + glob.glob("tests/fuzz/corpus/log_fuzz/*"))]
    if not seeds:
        sys.exit("log_fuzz: no seed logs")
    crashdir = "build/fuzz/log_fuzz-crashes"
    fd, path = tempfile.mkstemp(prefix="log_fuzz.")
    os.close(fd)
    runs = crashes = 0
    t0 = time.time()
    while time.time() - t0 < seconds:
        data = mutate(rng, rng.choice(seeds))
        with open(path, "wb") as f:
            f.write(data)
        try:
            doc, _ = report.load(path, decode_raw=False)
            report.summary(doc, True)
            json.dumps(doc)
            if doc["status"] not in (0, 1, 2):
                raise ValueError("status %r" % doc["status"])
        except Exception as e:  # noqa: BLE001 - every exception is a finding
            os.makedirs(crashdir, exist_ok=True)
            out = os.path.join(crashdir, "crash-%d" % runs)
            with open(out, "wb") as f:
                f.write(data)
            print("log_fuzz: %r on %s" % (e, out))
            crashes += 1
        runs += 1
    os.unlink(path)
    dt = time.time() - t0
    print("log_fuzz: %d runs in %.0f s (%.0f exec/s), %d seeds, %d crashes"
          % (runs, dt, runs / dt, len(seeds), crashes))
    sys.exit(1 if crashes else 0)


if __name__ == "__main__":
    main()
