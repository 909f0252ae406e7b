#!/usr/bin/env python3
# perf_dsrc.t: tools/perf_dsrc.c against the real consumer, Linux perf itself. perf records
# page faults here with PERF_SAMPLE_DATA_SRC (`perf record -d -W`), the test rewrites the
# data_src word of each sample in perf.data with data-source words of the shapes Linux
# writes (arch/x86/events/intel/ds.c: a mem_lvl bit with its mem_lvl_num, hit/miss, snoop,
# remote; older kernels: mem_lvl only; AMD IBS / newer: mem_lvl_num only, hops), and
# `perf script -F data_src` prints perf's own words for them ("LVL L1 or L1 hit", "SNP HitM").
# build/host/perf-dsrc must put every word in the kernel's row for perf's level and say
# perf's snoop. perf's level phrase differs across versions (6.1: "L1 or L1 hit", later
# "L1 hit"): the level words are compared, not the phrase. SKIP without perf or permission.
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TOOL = "build/host/perf-dsrc"
n = 0


def ok(cond, name, diag=""):
    global n
    n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (n, name))
    if not cond:
        for line in str(diag).splitlines()[:25]:
            print("# " + line)


def skip_all(why, count=4):
    print("1..%d" % count)
    for i in range(count):
        print("ok %d # SKIP %s" % (i + 1, why))
    sys.exit(0)


# perf's level words -> the kernel's `lvl` rows (docs/output.md §3), by hand
ROW = {"L1": "L1 hit", "LFB": "LFB/MAB hit", "LFB/MAB": "LFB/MAB hit", "L2": "L2 hit",
       "L2 MHB": "L2 MHB hit", "L3": "L3", "L4": "L4 hit", "Memory-side Cache": "Memory-side Cache hit",
       "RAM": "RAM hit", "Local RAM": "RAM hit", "Remote RAM (1 hop)": "RAM hit",
       "Remote RAM (2 hops)": "RAM hit", "Remote Cache (1 hop)": "L3",
       "Remote Cache (2 hops)": "L3", "PMEM": "PMEM", "CXL": "CXL", "I/O": "I/O",
       "Uncached": "Uncached", "Any cache": "Any cache hit", "N/A": "N/A",
       "L0": "L0 hit",
       # perf without a name for a level number prints "L%d" (before the 2024 fix that
       # named PERF_MEM_LVLNUM_L2_MHB 5 and _MSC 6; Debian 12's perf 6.1 also for _UNC 8,
       # and every perf before its PERF_MEM_LVLNUM_L0 support for 7)
       "L5": "L2 MHB hit", "L6": "Memory-side Cache hit", "L7": "L0 hit", "L8": "Uncached"}
HOPS = ("core, same node ", "node, same socket ", "socket, same board ", "board ")


def word(op=2, lvl=0, snoop=0, lock=0, tlb=0, num=0, remote=0, snoopx=0, blk=0, hops=0):
    return (op | lvl << 5 | snoop << 19 | lock << 24 | tlb << 26 | num << 33 | remote << 37 |
            snoopx << 38 | blk << 40 | hops << 43)


def words():
    out = []
    # Intel PEBS shapes: one level bit + its level number, hit or miss, a snoop
    pairs = [(0x08, 1), (0x10, 0xc), (0x20, 2), (0x40, 3), (0x80, 0xd), (0x100, 0xd),
             (0x200, 0xd), (0x400, 3), (0x800, 3), (0x1000, 0xa), (0x2000, 8)]
    for lvl, num in pairs:
        for hm in (0x02, 0x04):
            for snp in (0x01, 0x02, 0x04, 0x08, 0x10):
                rem = 1 if lvl in (0x100, 0x200, 0x400, 0x800) else 0
                out.append(word(lvl=lvl | hm, snoop=snp, num=num, remote=rem, tlb=0x0a, lock=1))
                out.append(word(lvl=lvl | hm, snoop=snp))          # mem_lvl only (old kernels)
    # level number only (with the NA level bit, as AMD IBS and newer code write it), hops
    for num in range(1, 16):
        for rem, hops in ((0, 0), (1, 0), (1, 2)):
            out.append(word(lvl=0x01 | 0x02, num=num, remote=rem, hops=hops, snoop=0x01))
    out.append(word(lvl=0x08 | 0x20 | 0x02))                        # "L1 or L2 hit"
    out.append(word(lvl=0x01))                                       # N/A
    out.append(word(lvl=0x02, num=1, snoopx=1))                      # Fwd
    out.append(word(lvl=0x02, num=3, snoopx=2, snoop=0x04))          # Peer
    return out


def perf_row(lvl):
    s = re.sub(r" (hit|miss)$", "", lvl.strip())
    found = set()
    for w in s.split(" or "):
        w = w.strip()
        if w.startswith("Remote ") and w not in ROW:
            w = w[len("Remote "):]
        for h in HOPS:
            if w.startswith(h):
                w = w[len(h):]
        found.add(ROW.get(w, "?" + w))
    if len(found) > 1:
        found.discard("N/A")
    return found.pop() if len(found) == 1 else "N/A"


perf = shutil.which("perf")
if not perf or not os.access(TOOL, os.X_OK):
    skip_all("no perf binary" if not perf else TOOL + " not built")
tmp = tempfile.mkdtemp(prefix="perf_dsrc_t.")
data = os.path.join(tmp, "pf.data")
ws = words()
# enough page faults: a child that touches fresh pages
prog = "import mmap\nm = mmap.mmap(-1, %d)\nfor i in range(0, len(m), 4096): m[i] = 1\n" % (4096 * (len(ws) + 64))
r = subprocess.run([perf, "record", "-q", "-e", "page-faults", "-c", "1", "-d", "-W", "-o", data,
                    "--", sys.executable, "-c", prog], capture_output=True, timeout=120)
if r.returncode or not os.path.exists(data):
    skip_all("perf record refused here: " + r.stderr.decode("utf-8", "replace").strip()[:160])
raw = bytearray(open(data, "rb").read())
probe = subprocess.run([perf, "script", "-i", data, "-F", "data_src"], capture_output=True,
                       timeout=120).stdout.decode()
m = re.search(r"^\s*([0-9a-f]+) \|", probe, re.M)
if not m:
    skip_all("perf script printed no data_src column")
na = struct.pack("<Q", int(m.group(1), 16))
at = [i for i in range(len(raw)) if raw.startswith(na, i)]
print("1..4")
ok(len(at) >= len(ws), "perf.data has a data_src word per sample (%d samples, %d words)" % (len(at), len(ws)))
for i, pos in enumerate(at):
    raw[pos:pos + 8] = struct.pack("<Q", ws[i % len(ws)])
open(data, "wb").write(raw)
out = subprocess.run([perf, "script", "-i", data, "-F", "data_src"], capture_output=True,
                     timeout=120).stdout.decode()
perf_says = {}
for line in out.splitlines():
    mm = re.match(r"^\s*([0-9a-f]+) \|OP [^|]*\|LVL ([^|]*)\|SNP ([^|]*)\|", line)
    if mm:
        perf_says[int(mm.group(1), 16)] = (mm.group(2), mm.group(3).strip())
ok(all(w in perf_says for w in ws), "perf script printed every rewritten word",
   [hex(w) for w in ws if w not in perf_says][:10])
ours = {}
for line in subprocess.run([TOOL] + [hex(w) for w in ws], capture_output=True,
                           timeout=60).stdout.decode().splitlines():
    f = line.split("\t")
    ours[int(f[0], 16)] = (f[1], f[2])
bad = ["%s: perf LVL '%s' -> %s, perf-dsrc %s" % (hex(w), perf_says[w][0], perf_row(perf_says[w][0]),
                                                  ours[w][0])
       for w in ws if w in perf_says and perf_row(perf_says[w][0]) != ours[w][0]]
ok(not bad, "every word in the row perf's level words name (%d words)" % len(ws), "\n".join(bad))
bad = ["%s: perf SNP '%s', perf-dsrc %s" % (hex(w), perf_says[w][1], ours[w][1])
       for w in ws if w in perf_says and " or " not in perf_says[w][1] and perf_says[w][1] != ours[w][1]]
ok(not bad, "the snoop in perf's words", "\n".join(bad))
shutil.rmtree(tmp)
