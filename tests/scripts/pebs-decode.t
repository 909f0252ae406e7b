#!/usr/bin/env python3
# pebs-decode.t: TAP tests of the host CLI build/host/pebs-decode (issue 5 spec: arguments,
# JSON keys, exit status 0/1/2) on record files this script builds byte by byte at the
# offsets of docs/hardware.md §4.2 (legacy) and §4.3 (adaptive).
import json
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taplib  # noqa: E402
from taplib import done, ok  # noqa: E402

TOOL = os.environ.get("PEBS_DECODE", "build/host/pebs-decode")
KEYS = ["index", "offset", "format", "size", "ip", "eventing_ip", "applicable_counters",
        "tsc", "addr", "aux", "latency", "instr_latency", "level", "hit", "remote", "snoop",
        "stlb_miss", "locked", "error"]
tmp = tempfile.mkdtemp(prefix="pebs-decode-t.")


def legacy(fmt, ip=0x401000, status=0x1, dla=0x7f0000001000, dse=0x1, lat=7,
           real_ip=0x400ffe, tsx=0, tsc=0x123456789):
    size = {0: 144, 1: 176, 2: 192, 3: 200}[fmt]
    q = [0] * 25
    q[1] = ip
    q[0x90 // 8], q[0x98 // 8], q[0xA0 // 8], q[0xA8 // 8] = status, dla, dse, lat
    q[0xB0 // 8], q[0xB8 // 8], q[0xC0 // 8] = real_ip, tsx, tsc
    return struct.pack("<25Q", *q)[:size]


def adaptive(grp=1, ip=0x401000, counters=0x2, tsc=0xabc, addr=0x7f00, aux=0x1, lat=0,
             size=None, gpr_ip=0x401004):
    body = struct.pack("<3Q", ip, counters, tsc)
    if grp & 1:
        body += struct.pack("<4Q", addr, aux, lat, 0)
    if grp & 2:
        body += struct.pack("<18Q", 0x246, gpr_ip, *([0] * 16))
    real = 8 + len(body)
    if size is None:
        size = real
    return struct.pack("<Q", (size << 48) | grp) + body


def run(args, data=None, stdin=None):
    path = None
    if data is not None:
        path = os.path.join(tmp, "rec%d.bin" % taplib.n)
        with open(path, "wb") as f:
            f.write(data)
        args = args + [path]
    p = subprocess.run([TOOL] + args, input=stdin, capture_output=True)
    recs = []
    for line in p.stdout.decode().splitlines():
        try:
            recs.append(json.loads(line))
        except ValueError:
            recs.append({"_bad": line})
    return p.returncode, recs, p.stderr.decode()


def fields(r, **want):
    bad = {k: (r.get(k), v) for k, v in want.items() if r.get(k) != v}
    return not bad, bad


# 1. Skylake fmt 3, two records: every key, in order, hex strings, exit 0.
rc, recs, err = run(["--cpu", "06_5E"], legacy(3) + legacy(3, dse=0x3 | 0x10, lat=14))
ok(rc == 0 and len(recs) == 2, "fmt3: two records, exit 0", (rc, recs, err))
ok(all(list(r.keys()) == KEYS for r in recs), "fmt3: exactly the specified keys in order",
   recs[:1])
good, bad = fields(recs[0], index=0, offset=0, format=3, size=200, ip="0x401000",
                   eventing_ip="0x400ffe", applicable_counters="0x1", tsc="0x123456789",
                   addr="0x7f0000001000", aux="0x1", latency=7, instr_latency=None,
                   level="L1", hit=True, remote=False, snoop="NONE", stlb_miss=False,
                   locked=False, error=None)
ok(good, "fmt3: record 0 fields", bad)
good, bad = fields(recs[1], index=1, offset=200, level="L2", stlb_miss=True, latency=14)
ok(good, "fmt3: record 1 L2 with STLB miss", bad)

# 2. Nehalem fmt 1: no eventing IP/TSC, STLB/lock unknown, code 07 reserved except 06_2E.
rc, recs, err = run(["--cpu", "06_1A"], legacy(1, dse=0x30 | 0x5) + legacy(1, dse=0x7))
good, bad = fields(recs[0], format=1, size=176, eventing_ip=None, tsc=None, level="L3",
                   snoop="HIT", stlb_miss=None, locked=None)
ok(rc == 0 and good, "NHM fmt1: SDM meaning of 05, TLB/lock null", (rc, bad))
good, bad = fields(recs[1], level="NA", snoop="NA", hit=None, aux="0x7", error=None)
ok(good, "NHM 06_1A: code 07 reserved -> NA, raw kept", bad)
rc, recs, err = run(["--cpu", "06_2e"], legacy(1, dse=0x7))
ok(rc == 0 and fields(recs[0], level="L3", snoop="HITM")[0], "NHM 06_2E: code 07 HitM",
   recs)

# 3. Haswell fmt 2 and Skylake-X (PMEM) / Skylake client (L4) code 08.
rc, recs, err = run(["--cpu", "06_3C"], legacy(2, dse=0xD))
ok(rc == 0 and fields(recs[0], size=192, tsc=None, eventing_ip="0x400ffe", level="RAM",
                      remote=True, snoop="MISS")[0], "HSW fmt2: remote DRAM", recs)
rc, recs, err = run(["--cpu", "06_55"], legacy(3, dse=0x8))
ok(fields(recs[0], level="PMEM")[0], "SKX: 08 is PMEM", recs)
rc, recs, err = run(["--cpu", "06_4E"], legacy(3, dse=0x8))
ok(fields(recs[0], level="L4")[0], "SKL client: 08 is L4", recs)

# 4. Alder Lake adaptive: split latency word on P, Gracemont bit order on E.
lat = (0x1f4 << 32) | 0x2a
data = adaptive(grp=3, aux=0x3, lat=lat) + adaptive(grp=1, aux=0x10 | 0x5, lat=lat)
rc, recs, err = run(["--cpu", "06_97"], data)
good, bad = fields(recs[0], format=4, size=208, ip="0x401004", eventing_ip="0x401000",
                   applicable_counters="0x2", tsc="0xabc", addr="0x7f00", latency=500,
                   instr_latency=42, level="L2", error=None)
ok(rc == 0 and good, "ADL P adaptive: GPR ip, eventing ip, split latency", (rc, bad))
ok(fields(recs[1], ip=None, size=64, level="L3", snoop="MISS", stlb_miss=True)[0],
   "ADL P: Table A 05 + STLB bit 4", recs[1])
rc, recs, err = run(["--cpu", "06_97", "--core", "e"], data)
ok(fields(recs[1], level="L3", snoop="HIT", locked=True, stlb_miss=False)[0],
   "ADL E (Gracemont): 05 snoop Hit, bit 4 = locked", recs[1])

# 5. Ice Lake adaptive: no split word; Lunar Lake default fmt 6 with Table B.
rc, recs, err = run(["--cpu", "06_7E"], adaptive(lat=lat))
ok(fields(recs[0], latency=0x2a, instr_latency=None)[0], "ICL: latency = bits 31:0", recs)
rc, recs, err = run(["--cpu", "06_BD"], adaptive(aux=0x11 | 0x400) + adaptive(aux=0x9))
ok(rc == 0 and fields(recs[0], format=6, level="RAM", stlb_miss=True, locked=False)[0] and
   fields(recs[1], level="NA", aux="0x9")[0], "LNL P: Table B 0x11 RAM, 0x09 reserved",
   recs)
rc, recs, err = run(["--cpu", "06_BD", "--core", "e"], adaptive(aux=0x7 | 0x40))
ok(fields(recs[0], level="L3", snoop="FWD", stlb_miss=True)[0], "LNL E (Skymont): cmt 07 Fwd",
   recs)

# 5b. Wildcat Lake 06_D5 (Panther Lake cores; rows from perfmon's PTL files, docs/tables.md):
# P-core Table B, --core e the Crestmont/Skymont table. Its default format is 0xF (arch PEBS),
# so the tables are exercised with format-6 adaptive records.
rc, recs, err = run(["--cpu", "06_D5", "--format", "6"], adaptive(aux=0x11 | 0x400))
ok(rc == 0 and fields(recs[0], level="RAM", stlb_miss=True)[0], "WCL P: Table B 0x11 RAM",
   (rc, recs, err))
rc, recs, err = run(["--cpu", "06_D5", "--core", "e", "--format", "6"],
                    adaptive(aux=0x7 | 0x40))
ok(rc == 0 and fields(recs[0], level="L3", snoop="FWD", stlb_miss=True)[0],
   "WCL E (Darkmont): cmt 07 Fwd", (rc, recs, err))
rc, recs, err = run(["--cpu", "06_d5"], adaptive())
ok(rc == 1 and "record 0 at offset 0" in err and "unknown" not in err,
   "WCL default format 0xF: a known model, an adaptive record refused by the arch walker", err)

# 6. Store events: SNB precise store, HSW DataLA.
rc, recs, err = run(["--cpu", "06_2A", "--event", "store"], legacy(1, dse=0x20, lat=0))
ok(fields(recs[0], level="L1", hit=False, locked=True, stlb_miss=False)[0],
   "SNB precise store: L1 miss, locked", recs)
rc, recs, err = run(["--cpu", "06_3F", "--event", "store"], legacy(2, dse=0x31, lat=0))
ok(fields(recs[0], level="L1", hit=True, stlb_miss=None, locked=None)[0],
   "HSW DataLA store: only bit 0", recs)

# 7. stdin, --format override, empty input.
p = subprocess.run([TOOL, "--cpu", "06_3C", "--format", "3", "-"], input=legacy(3),
                   capture_output=True)
ok(p.returncode == 0 and json.loads(p.stdout)["size"] == 200, "stdin with --format 3",
   p.stdout + p.stderr)
rc, recs, err = run(["--cpu", "06_3C"], b"")
ok(rc == 0 and recs == [], "empty file: no records, exit 0", (rc, recs))

# 7b. --summary --json: the records on stdout, the per-level table on stderr (pebs-report).
rc, recs, err = run(["--cpu", "06_5E", "--summary", "--json"],
                    legacy(3, lat=7) + legacy(3, dse=0x3, lat=20))
ok(rc == 0 and len(recs) == 2 and "pebs: 2 records, 0 errors" in err and
   any(l.split()[:3] == ["L1", "hit", "1"] for l in err.splitlines()) and
   any(l.split()[:3] == ["L2", "hit", "1"] for l in err.splitlines()),
   "--summary --json: records on stdout, the per-level table on stderr", err)
# issue 29 item 8: --summary alone prints only the summary (stdout), no JSON line; --help
two = legacy(3, lat=7) + legacy(3, dse=0x3, lat=20)
with open(os.path.join(tmp, "two.bin"), "wb") as f_:
    f_.write(two)
p = subprocess.run([TOOL, "--cpu", "06_5E", "--summary", os.path.join(tmp, "two.bin")],
                   capture_output=True)
out_ = p.stdout.decode()
ok(p.returncode == 0 and out_.startswith("pebs: 2 records, 0 errors") and "{" not in out_ and
   any(l.split()[:3] == ["L1", "hit", "1"] for l in out_.splitlines()) and not p.stderr,
   "--summary: only the per-level table, on stdout", (out_, p.stderr))
p = subprocess.run([TOOL, "--help"], capture_output=True)
ok(p.returncode == 0 and p.stdout.decode().startswith("usage: pebs-decode ") and
   "--summary" in p.stdout.decode() and "--extract" in p.stdout.decode() and not p.stderr,
   "--help: usage on stdout, exit 0", (p.returncode, p.stdout, p.stderr))

# 8. Malformed records: exit 1, error set, the others still printed.
rc, recs, err = run(["--cpu", "06_5E"], legacy(3) + legacy(3)[:150])
ok(rc == 1 and len(recs) == 2 and recs[0]["error"] is None and recs[1]["error"],
   "truncated legacy tail: exit 1", (rc, recs))
rc, recs, err = run(["--cpu", "06_7E"], adaptive(size=96) + b"\0" * 32 + adaptive() +
                    b"\0" * 64)
ok(rc == 1 and len(recs) == 3 and "match" in recs[0]["error"] and recs[1]["error"] is None
   and recs[1]["offset"] == 96 and "zero" in recs[2]["error"],
   "size mismatch then good then zero size: exit 1", (rc, recs))
rc, recs, err = run(["--cpu", "06_7E"], adaptive(size=500))
ok(rc == 1 and len(recs) == 1 and "past the end" in recs[0]["error"],
   "adaptive size past buffer end", recs)
rc, recs, err = run(["--cpu", "06_7E"], adaptive(grp=0x11))
ok(rc == 1 and "format_group" in recs[0]["error"], "fmt4 with counter-group bit", recs)

# 9. The JSON contract (docs/decoder.md): a data-source field the record or its layout does
# not carry is null; "NA" only where the model's table says "not available" for the code.
rc, recs, err = run(["--cpu", "06_7E"], adaptive(grp=0))
ok(rc == 0 and fields(recs[0], size=32, addr=None, aux=None, latency=None, level=None,
                      snoop=None, hit=None, remote=None, stlb_miss=None, locked=None)[0],
   "ICL basic-only record: no aux -> level/snoop null", recs)
rc, recs, err = run(["--cpu", "06_17"], legacy(0))
ok(rc == 0 and fields(recs[0], format=0, size=144, aux=None, level=None, snoop=None)[0],
   "Penryn fmt 0: no data-source field -> level/snoop null", recs)
rc, recs, err = run(["--cpu", "06_86"], adaptive(aux=0x1))
ok(rc == 0 and fields(recs[0], aux="0x1", level=None, snoop=None, hit=None)[0],
   "Tremont: aux present, no data-source encoding -> level/snoop null", recs)
rc, recs, err = run(["--cpu", "06_1A", "--event", "store"], legacy(1, dse=0x1, lat=0))
ok(rc == 0 and fields(recs[0], aux="0x1", level=None, snoop=None, hit=None)[0],
   "NHM store event: no store status -> level/snoop null", recs)
rc, recs, err = run(["--cpu", "06_3F", "--event", "store"], legacy(2, dse=0x1, lat=0))
ok(rc == 0 and fields(recs[0], level="L1", hit=True, snoop=None)[0],
   "HSW DataLA store: level L1, no snoop field -> snoop null", recs)
rc, recs, err = run(["--cpu", "06_5E"], legacy(3, dse=0x0) + legacy(3, dse=0x1))
ok(rc == 0 and fields(recs[0], level="L3", hit=False, snoop="NA")[0] and
   fields(recs[1], level="L1", snoop="NONE")[0],
   "SKL code 00: table says snoop not available -> \"NA\"", recs)
rc, recs, err = run(["--cpu", "06_BD"], adaptive(aux=0x04) + adaptive(aux=0x40))
ok(rc == 0 and all(fields(r, level="NA", snoop="NA", hit=None)[0] for r in recs),
   "LNL P: reserved codes 0x04 and 0x40 -> \"NA\"", recs)

# 10. Architectural PEBS (format 0xF, docs/arch-pebs.md "Records"): 16-B header (size 15:0,
# CONT 31, AUX 62, basic 63), basic 48 B, AUX 64 B (aux at +40, latency word at +48).
def arch(aux=0x104, lat=40, ip=0x401000, groups=(1 << 63) | (1 << 62), cont=False, tsc=0xabc):
    body = b""
    if groups & (1 << 63):
        body += struct.pack("<6Q", ip, 0x4, tsc, 0, 0, 0)
    if groups & (1 << 62):
        body += struct.pack("<8Q", 0x7f0000001000, 0, 0, 0, 0, aux, (lat << 32) | 3, 0)
    size = 16 + len(body)
    return struct.pack("<2Q", size | (1 << 30) | (cont << 31) | groups, 0) + body


rc, recs, err = run(["--cpu", "13_01", "--format", "arch"],
                    arch(aux=0x0804) + arch(aux=0x1118, lat=300) + arch(aux=0x0002, lat=5))
ok(rc == 0 and len(recs) == 3 and list(recs[0].keys()) == KEYS and
   fields(recs[0], format=15, size=128, level="L2", snoop="NONE", latency=40, instr_latency=3,
          addr="0x7f0000001000", stlb_miss=True, locked=False, eventing_ip="0x401000")[0] and
   fields(recs[1], level="RAM", remote=True, latency=300, locked=True, stlb_miss=False)[0] and
   fields(recs[2], level="L1", offset=256)[0], "DMR --format arch: basic+AUX, Panther Cove table", recs)
rc, recs, err = run(["--cpu", "13_01"], arch(aux=0x001))
ok(rc == 0 and fields(recs[0], format=15, level="L0")[0], "DMR: format 0xF implied by --cpu", recs)
rc, recs, err = run(["--cpu", "06_CC"], arch(aux=0x0001, lat=4))
ok(rc == 0 and fields(recs[0], format=15, level="L1", latency=4)[0],
   "PTL P-core: arch format implied, Lion Cove table", recs)
rc, recs, err = run(["--cpu", "06_DD"], arch(aux=0x0003, lat=12))
ok(rc == 0 and fields(recs[0], format=15, level="L2", latency=12)[0],
   "CWF: arch format implied, Crestmont table", recs)
rc, recs, err = run(["--cpu", "06_D5"], arch(aux=0x0011, lat=300))
ok(rc == 0 and fields(recs[0], format=15, level="RAM", latency=300)[0],
   "WCL P-core (06_D5): arch format implied, Lion Cove table B 0x11 RAM", recs)
rc, recs, err = run(["--cpu", "06_D5", "--core", "e"], arch(aux=0x7 | 0x40))
ok(rc == 0 and fields(recs[0], format=15, level="L3", snoop="FWD", stlb_miss=True)[0],
   "WCL E-core (06_D5 --core e): arch format implied, Crestmont table 07 Fwd", recs)
two = arch(groups=1 << 63, cont=True) + arch(groups=1 << 62, aux=0x0804)
rc, recs, err = run(["--cpu", "13_01"], two + arch())
ok(rc == 0 and len(recs) == 2 and fields(recs[0], size=len(two), level="L2", latency=40,
                                         eventing_ip="0x401000")[0] and
   fields(recs[1], offset=len(two))[0], "fragments joined into one record", recs)
rc, recs, err = run(["--cpu", "13_01"], arch() + b"\0" * 32)
ok(rc == 1 and len(recs) == 2 and "zero" in recs[1]["error"] and recs[1]["offset"] == 128 and
   "offset 128" in err, "zero-size header: exit 1 naming the offset", (rc, recs, err))
rc, recs, err = run(["--cpu", "13_01"], arch() + arch(cont=True))
ok(rc == 1 and "past the end" in recs[1]["error"] and "offset 128" in err,
   "record continued past the end: exit 1", (rc, recs, err))
rc, recs, err = run(["--cpu", "13_01"], arch()[:100])
ok(rc == 1 and len(recs) == 1 and recs[0]["offset"] == 0 and "offset 0" in err,
   "truncated arch record: exit 1", (rc, recs, err))

# counter group (header bits 39:35): GP 2, fixed 1; --summary gives cycles per window
def arch_cntr(cycles):
    cn = struct.pack("<4I", 0x4, 0x2, 0, 0) + struct.pack("<2Q", 0, cycles)
    rec = arch()
    size = len(rec) + len(cn)
    hdr = struct.unpack("<Q", rec[:8])[0]
    return struct.pack("<Q", (hdr & ~0xffff) | (1 << 35) | size) + rec[8:] + cn


rc, recs, err = run(["--cpu", "13_01", "--summary", "--json"],
                    arch_cntr(1000) + arch_cntr(1686) + arch_cntr(2372))
ok(rc == 0 and len(recs) == 3 and all(r["error"] is None for r in recs) and
   "pebs: counters L3 windows=2 cycles/window=686" in err,
   "counter snapshots: core cycles per window per level on --summary", (rc, recs, err))

# 11. Bad arguments: exit 2 with one line on stderr.
rec = legacy(3)
for name, args, data in [
        ("no --cpu", [], rec), ("unknown model", ["--cpu", "06_99"], rec),
        ("bad cpu syntax", ["--cpu", "063C"], rec), ("bad --core", ["--cpu", "06_97", "--core", "x"], rec),
        ("E core on non-hybrid", ["--cpu", "06_3C", "--core", "e"], rec),
        ("format 16", ["--cpu", "06_3C", "--format", "16"], rec),
        ("format 7", ["--cpu", "06_3C", "--format", "7"], rec),
        ("format arc", ["--cpu", "06_CC", "--format", "arc"], rec),
        ("bad --event", ["--cpu", "06_3C", "--event", "foo"], rec),
        ("unknown option", ["--cpu", "06_3C", "--bogus"], rec),
        ("missing value", ["--cpu"], None), ("no file", ["--cpu", "06_3C"], None),
        ("missing file", ["--cpu", "06_3C", os.path.join(tmp, "nope")], None)]:
    rc, recs, err = run(args, data)
    ok(rc == 2 and recs == [] and len(err.strip().splitlines()) == 1,
       "bad arguments: %s -> exit 2" % name, (rc, err))

done()
