#!/usr/bin/env python3
# ibs.t: the AMD IBS path end to end on the host (issue 17). build/host/model-log on the
# modelled Zen 3 and Zen 4 parts (the kernel's IBS driver, decoder, printing and verdicts over
# tests/model/ibs_model.h) writes logs that tools/pebs-report reads: the `# pmu: amd` header
# lines, every verdict passing on the clean mix and failing where a mix breaks it (both
# directions), the raw dump decoded again by build/host/pebs-decode --vendor amd into the
# table the log printed, the same seed giving the same log. Then pebs-decode --vendor amd on
# hand-built samples in the dump layout of docs/ibs.md: levels per family, latency only on
# data-cache misses, a truncated tail, an unknown family, bad options.
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taplib  # noqa: E402
from taplib import done, ok  # noqa: E402

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
ML, DEC, REP = "build/host/model-log", "build/host/pebs-decode", "tools/pebs-report"
tmp = tempfile.mkdtemp(prefix="ibs-t.")


def model_log(*args):
    p = subprocess.run([ML] + list(args), capture_output=True, timeout=120)
    path = os.path.join(tmp, "_".join(a.strip("-") for a in args) + ".log")
    with open(path, "wb") as f:
        f.write(p.stdout)
    return p.returncode, p.stdout.decode(), path, p.stderr.decode()


def report(path):
    p = subprocess.run([REP, "--json", path], capture_output=True, timeout=120)
    return p.returncode, json.loads(p.stdout.decode())


def results(text):
    """top-level and subtest results: {'load_dram': 'not ok', 'load_dram/ibs_source': ...}"""
    out, cur = {}, None
    for line in text.splitlines():
        s = line.strip()
        if line.startswith("  # Subtest: "):
            cur = line.split(": ", 1)[1]
        for st in ("ok", "not ok"):
            if s.startswith(st + " ") and s.split()[1 + (st == "not ok")].isdigit():
                name = s.split(" ", 3 if st == "not ok" else 2)[-1].split(" #")[0]
                out[name if line == s else "%s/%s" % (cur, name)] = st
    return out


# issue 31: Zen 5 and Zen 6 end to end; load_dram through the IBS load-latency filter (128
# cycles; Zen 5 with erratum 1606's L3MissOnly, else the model flags it), L1-L3 unfiltered
for cpu in ("zen5", "zen6"):
    rc, text, path, err = model_log("--cpu", cpu, "--mix", "mixed")
    r = results(text)
    ok(rc == 0 and not err and [r.get(k) for k in ("load_l1", "load_l2", "load_l3",
                                                  "load_dram")] == ["ok"] * 4,
       "%s: model-log exit 0, no model violation, every kernel passes" % cpu, (err, r))
    ok(all("# load_%s: pebs event=load ldlat=- " % k in text for k in ("l1", "l2", "l3")) and
       "# load_dram: pebs event=load ldlat=128 " in text and
       re.search(r"# load_dram: lvl RAM hit \d+ 100\.0% 180 ", text),
       "%s mixed: load_dram filtered at 128 cycles samples DRAM only, L1-L3 unfiltered" % cpu)
    ok(report(path)[0] == 0, "%s: pebs-report exit 0" % cpu)

for cpu in ("zen3", "zen4"):
    rc, text, path, err = model_log("--cpu", cpu, "--seed", "3")
    ok(rc == 0 and not err, "%s: model-log exit 0, no model violation" % cpu, err)
    ok("# pmu: amd path: IBS op sampling" in text and "# pmu: amd ibs usable" in text,
       "%s: the header's pmu lines name the AMD path" % cpu)
    # issue 31: the header says what runs on AMD (no Intel-PMU lines), the core clock is
    # PMCx076, and the sampling subtests are IBS-named (docs/output.md "Subtest names")
    ok("only the Intel PMU" not in text and "# pmu: uarch" not in text and
       "# core clock: PerfCtr3 (PMCx076 CPU clocks not halted)" in text,
       "%s: header without Intel-PMU lines, core clock PMCx076" % cpu)
    r = results(text)
    ok(all(r.get("load_%s/ibs_%s" % (k, s)) == "ok" for k in ("l1", "l2", "l3", "dram")
           for s in ("source", "overhead")) and not any("/pebs_" in k for k in r),
       "%s: ibs_source, ibs_overhead in every load kernel, no pebs_ subtest" % cpu, r)
    ok([r.get(k) for k in ("load_l1", "load_l2", "load_l3", "load_dram")] == ["ok"] * 4,
       "%s clean: every load kernel passes" % cpu, r)
    ok("IbsDcMissLat counts data-cache misses only" in text,
       "%s: L1 latency SKIP states the IBS rule" % cpu)
    rrc, doc = report(path)
    ok(rrc == 0 and len(doc["kernels"]) == 4 and not doc["problems"],
       "%s: pebs-report reads the log (4 kernels, no problems)" % cpu, doc.get("problems"))
    tops = {k["kernel"]: k["levels"][0]["id"] if k["levels"] else None for k in doc["kernels"]}
    ok(doc["kernels"][1]["pebs"]["target"] == "L2" and "L2" in
       [lv["id"] for lv in doc["kernels"][1]["levels"]], "%s: load_l2 L2 row in JSON" % cpu, tops)
    rc2, text2, _, _ = model_log("--cpu", cpu, "--seed", "3")
    ok(text2 == text, "%s: same seed, same log" % cpu)
    # a log from before issue 31 (pebs_* on AMD) compares with no verdict change
    old = path + ".old"
    with open(old, "w") as f:
        f.write(re.sub(r" ibs_(source|overhead|latency|rises)", r" pebs_\1", text))
    p = subprocess.run([REP, old, path], capture_output=True, timeout=120)
    ok(p.returncode == 0 and b"no verdict changes" in p.stdout,
       "%s: compare matches ibs_<x> with an older log's pebs_<x>" % cpu, p.stdout[-400:])

    rc, text, path, err = model_log("--cpu", cpu, "--mix", "mixed")
    r = results(text)
    ok(rc == 0 and r.get("load_dram") == "not ok" and r.get("load_dram/ibs_source") ==
       "not ok" and r.get("load_l3") == "ok", "%s mixed: load_dram fails ibs_source" % cpu, r)
    ok(report(path)[0] == 1, "%s mixed: pebs-report exit 1" % cpu)
    rc, text, path, err = model_log("--cpu", cpu, "--mix", "l1")
    r = results(text)
    ok(all(r.get(k) == "not ok" for k in ("load_l2", "load_l3", "load_dram")) and
       r.get("load_l1") == "ok", "%s l1: load_l2..load_dram fail, load_l1 passes" % cpu, r)

    rc, text, path, err = model_log("--cpu", cpu, "--dump", "raw", "--seed", "9")
    p = subprocess.run([REP, path], capture_output=True, timeout=120)
    out = p.stdout.decode()
    ok(out.count("decoded table matches the printed table") == 4 and "MISMATCH" not in out,
       "%s: raw dumps decode (pebs-decode --vendor amd) into the printed tables" % cpu,
       out[-1500:])

# pebs-decode --vendor amd on samples written here (docs/ibs.md "Dump layout").
VAL, EN, LD, ST = 1 << 18, 1 << 17, 1 << 0, 1 << 1
DCMISS, L2MISS, LINV, NOMAB = 1 << 7, 1 << 20, 1 << 17, 1 << 16


def sample(d3, code=0, rmt=0, lat=0, addr=0x1000, rip=0x401000):
    d2 = (code & 7) | ((code >> 3) << 6) | (rmt << 4) | (1 << 5)
    return struct.pack("<8Q", VAL | EN | 0x100, rip, 0, d2, d3 | LINV | (lat << 32), addr, 0, 0)


def dec(args, data):
    path = os.path.join(tmp, "s%d.bin" % taplib.n)
    with open(path, "wb") as f:
        f.write(data)
    p = subprocess.run([DEC, "--vendor", "amd"] + args + [path], capture_output=True)
    recs = [json.loads(x) for x in p.stdout.decode().splitlines() if x.startswith("{")]
    return p.returncode, recs, p.stderr.decode()


buf = (sample(LD) + sample(LD | DCMISS, lat=13) + sample(LD | DCMISS | L2MISS, code=1, lat=50) +
       sample(LD | DCMISS | L2MISS, code=8, rmt=1, lat=600) + sample(ST | DCMISS) + sample(0))
rc, recs, err = dec(["--cpu", "19_11", "--summary", "--json"], buf)  # records + table
lv = [r["level"] for r in recs]
ok(rc == 0 and lv == ["L1", "L2", "L3", "CXL", "L2", None],
   "zen4: L1 L2 L3 CXL, a store that hit L2 (L2Miss clear), a non-memory op",
   (rc, lv, err))
ok([r["latency"] for r in recs[:4]] == [None, 13, 50, 600], "latency only on DC misses",
   [r["latency"] for r in recs])
ok(recs[3]["remote"] is True and recs[0]["addr"] == "0x1000" and recs[0]["ip"] == "0x401000",
   "remote CXL, address and RIP", recs[3])
ok("CXL" in err and "L3" in err, "--summary --json prints the per-level table on stderr", err)
rc, recs, err = dec(["--cpu", "19_21"], sample(LD | DCMISS | L2MISS, code=2, lat=45) +
                    sample(LD | DCMISS | L2MISS, code=4, lat=90) +
                    sample(LD | DCMISS | L2MISS, code=3, rmt=1, lat=400))
ok(rc == 0 and [r["level"] for r in recs] == ["L3", "ANY_CACHE", "RAM"] and recs[2]["remote"],
   "zen3 legacy DataSrc: local cache L3, remote cache, remote DRAM", recs)
rc, recs, err = dec(["--cpu", "19_21", "--dsrc", "ext"], sample(LD | DCMISS | L2MISS, code=2))
ok(rc == 0 and recs[0]["level"] == "ANY_CACHE", "--dsrc ext overrides the row's table", recs)
rc, recs, err = dec(["--cpu", "19_01"], sample(LD | DCMISS | NOMAB | L2MISS, code=3))
ok(rc == 0 and recs[0]["level"] == "LFB", "erratum 1293 row: DATA2 dropped, MAB hit", recs)
rc, recs, err = dec(["--cpu", "19_11"], sample(LD) + b"\x01\x02\x03")
ok(rc == 1 and "past the end" in (recs[-1]["error"] or "") and len(recs) == 2 and
   recs[-1]["hit"] is None, "truncated tail: error, unknowns null, exit 1", (rc, recs))
rc, recs, err = dec(["--cpu", "15_01"], sample(LD))
ok(rc == 2 and "no IBS family row" in err, "unknown family: exit 2 with the reason", err)
rc, recs, err = dec(["--cpu", "19_11", "--dsrc", "zen"], sample(LD))
ok(rc == 2 and "--dsrc must be legacy or ext" in err, "bad --dsrc: exit 2", err)
rc, recs, err = dec(["--cpu", "19_11"], b"")
ok(rc == 0 and recs == [], "empty input: no records, exit 0", (rc, recs, err))

done()
