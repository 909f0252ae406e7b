#!/usr/bin/env python3
# pebs-report.t: TAP tests of tools/pebs-report on serial logs from real QEMU boots
# (tests/fixtures/pebs-report/) and model logs with PEBS lines generated here by
# build/host/model-log (the kernel's own printing and verdict code fed by the PMU model, fixed
# seeds; `make host` builds it): damaged copies of them (truncated, garbage bytes, CRLF/CR,
# ANSI), golden summary/JSON/CSV outputs, plots (PNG/SVG of the expected size), comparison
# mode, exit statuses, raw-dump round trip through build/host/pebs-decode on an adaptive
# (Ice Lake-SP, format 4) and a legacy (Haswell, format 2) CPU, the JSON export's levels and
# counts against the log's own lvl lines, and a bounded random-mutation robustness loop.
# PEBS_REPORT_UPDATE=1 rewrites the goldens.
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, "tools")
sys.path.insert(0, "tests/scripts")
from taplib import done, ok  # noqa: E402
from pebsreport import report  # noqa: E402
sys.path.insert(0, "tests/fuzz")
from log_fuzz import mutate  # noqa: E402  (the same mutations as make fuzz)

TOOL = "tools/pebs-report"
FIX = "tests/fixtures/pebs-report/"
GOLD = FIX + "golden/"
UPDATE = os.environ.get("PEBS_REPORT_UPDATE") == "1"
tmp = tempfile.mkdtemp(prefix="pebs-report-t.")
# name -> model-log arguments; the logs get CRLF line ends, as on the serial wire
MODELS = {"model-a.log": ["--cpu", "icelake_sp", "--seed", "7", "--dump", "raw"],
          "model-leg.log": ["--cpu", "haswell", "--seed", "11", "--dump", "raw"],
          "model-b.log": ["--cpu", "icelake_sp", "--seed", "8", "--mix", "mixed", "--dump", "raw"],
          # the modelled hybrid part: P-core boot CPU (format 5), load_cpus on the E-core (format 4)
          "model-hybrid.log": ["--cpu", "alderlake", "--seed", "5", "--dump", "raw"]}
for name_, args_ in MODELS.items():
    try:
        p_ = subprocess.run(["build/host/model-log"] + args_, capture_output=True, timeout=120, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(print("Bail out! %s (`make host` builds model-log, pebs-decode)" % e) or 1)
    with open(os.path.join(tmp, name_), "wb") as f_:
        f_.write(p_.stdout.replace(b"\n", b"\r\n"))


def run(args, stdin=None):
    p = subprocess.run([TOOL] + args, input=stdin, capture_output=True, timeout=120)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def write(name, data):
    p = os.path.join(tmp, name)
    with open(p, "wb") as f:
        f.write(data)
    return p


def golden(name, text):
    p = GOLD + name
    if UPDATE:
        os.makedirs(GOLD, exist_ok=True)
        with open(p, "w") as f:
            f.write(text)
    want = open(p).read() if os.path.exists(p) else None
    ok(want == text, "golden " + name, _diff(want or "", text))


def _diff(a, b):
    import difflib
    return "".join(list(difflib.unified_diff(a.splitlines(True), b.splitlines(True)))[:40])


def norm(text, path):
    return text.replace(path, "LOG")


def fx(name):
    """A fixture's path: generated model logs live in tmp, QEMU boot logs in FIX."""
    return os.path.join(tmp, name) if name in MODELS else FIX + name


def rd(name):
    return open(fx(name), "rb").read()


# --- exit statuses on real QEMU boot logs ---
for log, want in [("qemu-default.log", 0), ("qemu-ovmf.log", 0), ("qemu-skl.log", 0),
                  ("qemu-curve.log", 0), ("qemu-format1.log", 0), ("qemu-inject-ud.log", 1),
                  ("qemu-format2.log", 0), ("qemu-format2-inject-ud.log", 1), ("model-a.log", 0),
                  ("model-leg.log", 0), ("model-b.log", 1), ("qemu-cpus.log", 0),
                  ("model-hybrid.log", 0)]:
    rc, out, err = run([fx(log)])
    ok(rc == want, "%s exits %d" % (log, want), "rc %d\n%s%s" % (rc, out[-500:], err))
    ok(err == "", "%s: no unparsed lines reported" % log, err)
rc, out, err = run([os.path.join(tmp, "missing.log")])
ok(rc == 2 and "cannot read" in err, "missing file exits 2", err)
rc, out, err = run(["-"], stdin=b"\x00\xff random bytes\nno ktap here\n")
ok(rc == 2 and "no 'KTAP version' line" in err, "garbage on stdin exits 2", err)
rc, out, err = run(["-"], stdin=b"")
ok(rc == 2, "empty input exits 2")
rc, out, err = run(["-"], stdin=rd("qemu-default.log"))
ok(rc == 0 and "load_dram" in out, "reads stdin", err)

# --- golden outputs ---
for log in ("qemu-default.log", "qemu-inject-ud.log", "qemu-format2-inject-ud.log",
            "model-a.log"):
    rc, out, _ = run(["--subtests", fx(log)])
    golden(log.replace(".log", ".summary"), norm(out, fx(log)))
    rc, out, _ = run(["--json", fx(log)])
    doc = json.loads(out)
    doc["source"] = "LOG"
    golden(log.replace(".log", ".json"), json.dumps(doc, indent=1, sort_keys=True) + "\n")
csvdir = os.path.join(tmp, "csv")
rc, _, _ = run(["--csv", csvdir, fx("model-a.log")])
for f in ("environment.csv", "tests.csv", "timing.csv", "curve.csv", "levels.csv",
          "histogram.csv"):
    got = open(os.path.join(csvdir, f)).read() if os.path.exists(os.path.join(csvdir, f)) else ""
    golden("model-a." + f, got)

# --- content checks independent of the goldens ---
rc, out, _ = run(["--json", FIX + "qemu-default.log"])
doc = json.loads(out)
ok([t["status"] for t in doc["tests"]].count("pass") == doc["totals"]["pass"] and
   [t["status"] for t in doc["tests"]].count("skip") == doc["totals"]["skip"],
   "verdict counts agree with the kernel's Totals line")
ok(len([k for k in doc["kernels"] if k["time"]]) == 10 and
   doc["cache"]["L2"]["size"] == 512 << 10, "10 timed kernels, L2 512K from the header")
rc, out, _ = run(["--json", FIX + "qemu-format1.log"])
doc = json.loads(out)
ok(doc["output_format"] == 1 and len([k for k in doc["kernels"] if k["time"]]) == 10 and
   len([k for k in doc["kernels"] if k["chain"]]) == 8,
   "output-format 1 QEMU log: 10 time lines, 8 chain lines (lfb/store reuse the ref chain)")
# output-format 2 (docs/output.md): header after the plan, values after '#', `# Totals:`
# counting test cases and `# Top-level tests:` the top-level verdicts
rc, out, _ = run(["--json", FIX + "qemu-format2.log"])
doc = json.loads(out)
subs = [u for t in doc["tests"] for u in (t["subtests"] or [t])]
ok(doc["output_format"] == 2 and doc["cpu"] and doc["cache"]["L2"]["size"] == 512 << 10 and
   len([k for k in doc["kernels"] if k["time"]]) == 10,
   "output-format 2 QEMU log: header after the plan read, 10 timed kernels")
ok(doc["totals"]["total"] == len(subs) and
   doc["totals"]["skip"] == [u["status"] for u in subs].count("skip") and
   doc["top_level_totals"]["pass"] == [t["status"] for t in doc["tests"]].count("pass") and
   doc["top_level_totals"]["total"] == doc["plan"],
   "output-format 2: Totals count test cases, Top-level tests the plan's tests",
   (doc["totals"], doc["top_level_totals"]))
ud = [u for t in doc["tests"] if t["name"] == "exceptions" for u in t["subtests"]]
ok(ud and ud[0]["name"] == "ud_caught" and ud[0]["detail"] == "vector 6" and
   ud[0]["reason"] is None, "output-format 2: the value after '#' is the detail", ud[:1])
rc, out, _ = run([FIX + "qemu-default.log", FIX + "qemu-format2.log"])
ok(rc == 0 and "no verdict changes" in out, "compare: a format-1 and a format-2 log", out)
# per-CPU runs (load_cpus, QEMU -smp 2 cpus=all): kernels named <kernel>@cpu<i>, the CPU's
# `# load_cpus: cpu<i> ...` line, the boot CPU's type from `# smp-cpu:`; grouped per CPU
rc, out, _ = run(["--json", FIX + "qemu-cpus.log"])
doc = json.loads(out)
kc = {k["kernel"]: (k["cpu"], k["core_type"]) for k in doc["kernels"]}
ok(kc.get("load_l1") == (0, "-") and kc.get("load_dram@cpu1") == (1, "-") and
   len([k for k in kc if k.endswith("@cpu1")]) == 4 and doc["cpus"]["1"]["model"] == "Skylake"
   and doc["cpus"]["1"]["format"] is None and doc["cpus"]["1"]["apic"] == 1,
   "per-CPU log: each kernel's CPU and core type, the CPU's line", (kc, doc.get("cpus")))
rc, out, _ = run([FIX + "qemu-cpus.log"])
g0 = out.find("Timing per load kernel, cpu0 (core type -, APIC id 0, node 0)")
g1 = out.find("Timing per load kernel, cpu1 (core type -, APIC id 1, node 0, Skylake)")
ok(rc == 0 and 0 <= g0 < g1 and out.find("load_l1@cpu1") > g1 and
   out.find("load_l1 ", g0) < g1, "per-CPU log: one timing table per CPU, boot CPU first", out)
# per-CPU PEBS on the modelled hybrid part: tables grouped by CPU and core type, each CPU's
# raw dump decoded with its own core type (the dump line's core=p|e) and matching its table
rc, out, _ = run(["--json", fx("model-hybrid.log")])
doc = json.loads(out)
ks = {k["kernel"]: k for k in doc["kernels"]}
ok(rc == 0 and [ks[n]["core_type"] for n in ("load_l1", "load_dram", "load_l1@cpu1",
                                             "load_dram@cpu1")] == ["P-core"] * 2 + ["E-core"] * 2
   and ks["load_l1"]["dump"]["core"] == "p" and ks["load_l1@cpu1"]["dump"]["core"] == "e" and
   ks["load_l1"]["dump"]["format"] == 5 and ks["load_l1@cpu1"]["dump"]["format"] == 4 and
   doc["cpus"]["1"]["format"] == 4 and doc["cpus"]["1"]["type"] == "E-core",
   "hybrid model log: P-core and E-core kernels with their own formats", ks.keys())
ok(all(k["decoded"] and k["decoded"]["matches_log"] is True and k["levels"]
       for k in doc["kernels"]) and len(doc["kernels"]) == 8,
   "hybrid model log: all 8 raw dumps decode to their printed tables",
   [(k["kernel"], k["decoded"] and k["decoded"]["matches_log"]) for k in doc["kernels"]])
rc, out, _ = run([fx("model-hybrid.log")])
p0, p1 = out.find("PEBS on cpu0 (P-core"), out.find("PEBS on cpu1 (E-core, APIC id 1, node 0, ")
ok(0 <= p0 < out.find("PEBS load_dram (load_dram)") < p1 < out.find("PEBS load_l1@cpu1") and
   "PEBS format 4" in out[p1:p1 + 120], "hybrid model log: PEBS tables grouped per CPU", out)
rc, out, _ = run([FIX + "qemu-default.log"])
ok("Timing per load kernel\n" in out and ", cpu0" not in out,
   "a log without per-CPU runs keeps one table, no CPU label")
RE_LVL = re.compile(r"^  # (load_\w+): lvl (.+) (\d+) (\d+\.\d)%(?: \S+){5}\r$", re.M)
WANT_LEVELS = {"load_l1": {"L1", "LFB"}, "load_l2": {"L1", "L2", "L3"},
               "load_l3": {"L2", "L3", "RAM"}, "load_dram": {"L2", "L3", "RAM"}}
for log in ("model-a.log", "model-leg.log", "model-b.log"):
    rc, out, _ = run(["--json", fx(log)])
    doc = json.loads(out)
    dec = [k["decoded"] for k in doc["kernels"] if k["decoded"]]
    ok(len(dec) == 4 and all(d["matches_log"] and d["records_ok"] == 280 and not d["crc_bad"]
                             for d in dec),
       "%s: 4 raw dumps decode (pebs-decode) to the printed per-level tables" % log, dec)
    printed = {}    # the log's lvl lines, parsed here independently of the tool
    for m in RE_LVL.finditer(rd(log).decode()):
        printed.setdefault(m.group(1), {})[m.group(2)] = int(m.group(3))
    got = {k["kernel"]: {lv["level"]: lv["count"] for lv in k["levels"]}
           for k in doc["kernels"] if k["levels"]}
    ok(got == printed and sum(map(len, got.values())) >= 10,
       "%s: JSON levels and counts = the log's lvl lines" % log, (got, printed))
    ids = {k["kernel"]: {lv["id"] for lv in k["levels"]} for k in doc["kernels"] if k["levels"]}
    fail = log == "model-b.log"     # --mix mixed: load_dram's loads 55 % L3, 45 % RAM
    want = dict(WANT_LEVELS, load_dram={"L3", "RAM"}) if fail else WANT_LEVELS
    ok(ids == want and all(sum(lv["count"] for lv in k["levels"]) == 280
                           for k in doc["kernels"] if k["levels"]),
       "%s: JSON has the mix's levels, 280 records per kernel" % log, ids)
    st = [t["status"] for t in doc["tests"]]
    ok(st == ["pass"] * 3 + ["fail" if fail else "pass"], "%s: test verdicts %s" % (log, st))

# --- damaged copies ---
base = rd("model-a.log")
lines = base.split(b"\r\n")
# a lvl line altered (a wrong count) -> the decoded dump disagrees -> exit 1
for log in ("model-a.log", "model-leg.log"):
    data = rd(log)
    m = re.search(rb"load_l1: lvl L1 hit (\d+) ", data)
    c1 = int(m.group(1))
    alt = data.replace(m.group(0), b"load_l1: lvl L1 hit %d " % (c1 - 1), 1)
    rc, out, err = run([write("lvl-altered.log", alt)])
    ok(rc == 1 and "MISMATCH L1 count: printed %d, decoded %d" % (c1 - 1, c1) in out,
       "%s: an altered lvl line is caught by the raw-dump round trip" % log, out[-800:])
# one raw line with a flipped hex digit -> CRC error reported with its line number
i = next(j for j, l in enumerate(lines) if b"load_l1: raw 5 " in l)
bad = list(lines)
bad[i] = bad[i].replace(b"crc=", b"crc=")[:40] + (b"0" if bad[i][40:41] != b"0" else b"1") + \
    bad[i][41:]
rc, out, err = run([write("crc.log", b"\r\n".join(bad))])
ok(rc == 0 and ":%d: raw record 5 of load_l1: CRC mismatch" % (i + 1) in err and
   "1 CRC errors" in out, "a damaged raw line is a CRC error with its line number", err)
# truncated mid-run (cut inside a line)
cut = base[:len(base) * 2 // 3]
cut_in = re.findall(rb"# Subtest: (\w+)", cut)[-1].decode()
rc, out, err = run([write("cut.log", cut)])
ok(rc == 1 and "no result: " + cut_in in out, "a log ending mid-run exits 1, test incomplete",
   out[-600:] + err)
# CRLF -> LF, and lone CR; ANSI escapes; garbage bytes
lf = base.replace(b"\r\n", b"\n")
rc1, out1, _ = run([write("lf.log", lf)])
rc2, out2, _ = run([write("cr.log", base.replace(b"\r\n", b"\r"))])
ok(rc1 == 0 and rc2 == 0 and norm(out1, os.path.join(tmp, "lf.log")).split("\n")[2:] ==
   norm(out2, os.path.join(tmp, "cr.log")).split("\n")[2:], "LF-only and CR-only logs read the same")
ansi = base.replace(b"\r\nok 1 load_l1", b"\r\n\x1b[0m\x1b[37m\x1b[40mok 1 load_l1\x1b[2J")
rc, out, err = run(["--json", write("ansi.log", ansi)])
ok(rc == 0 and json.loads(out)["tests"][0]["status"] == "pass", "ANSI escapes stripped", err)
noisy = b"\xff\xfe\x00garbage\x80\r\n" + re.sub(rb"(  ok \d+ chain_cycle\r\n)",
                                                    lambda m_: m_.group(1) + b"\x93\xa7 line noise \xc3\x28\r\n", base, 1)
rc, out, err = run([write("noise.log", noisy)])
ok(rc == 0 and "not KTAP, skipped" in err and "not UTF-8" in err,
   "non-UTF-8 garbage reported with line numbers and skipped", err)
timecut = re.sub(rb"(load_l1: time .* ms=)\d+\r\n", rb"\1\r\n", base, count=1)
rc, out, err = run([write("timecut.log", timecut)])
ok("time line of load_l1 cut or malformed (missing ms)" in err, "a cut time line is reported",
   err)
badnum = re.sub(rb"(load_l2: time .* max=)[\d.]+", rb"\g<1>2:6.35", base, count=1)
rc, out, err = run([write("badnum.log", badnum)])
ok(badnum != base and rc == 0 and "time line of load_l2 malformed (max not a number)" in err,
   "a time line with a non-number field is reported and skipped", err + out[-300:])
qd = rd("qemu-default.log")
rc, out, err = run([write("qcut.log", qd[:qd.index(b"load_l3: 9 reps") + 30])])
ok(rc == 1 and "cut or unknown load-kernel line" in err and "load_l2" in out,
   "a QEMU log cut inside a timing line: reported, rest parsed", err)
ud = rd("qemu-inject-ud.log")
rc, out, _ = run([write("ud-cut.log", ud[:ud.index(b"  1..0")])])
ok(rc == 1 and "INCOMPLETE" in out and "inject" in out, "a log cut in the exception dump",
   out[-400:])

# --- plots ---
pdir = os.path.join(tmp, "plots")
rc, out, err = run(["--plots", pdir, fx("model-a.log")])
rc2, _, err2 = run(["--plots", os.path.join(tmp, "plots2"), FIX + "qemu-curve.log"])


def png_size(p):
    with open(p, "rb") as f:
        h = f.read(24)
    if h[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", h[16:24])


for d, base_ in [(pdir, "hist-load_l1"), (pdir, "hist-load_dram"), (pdir, "latency-curve"),
                 (os.path.join(tmp, "plots2"), "latency-curve")]:
    png, svg = os.path.join(d, base_ + ".png"), os.path.join(d, base_ + ".svg")
    ok(os.path.exists(png) and png_size(png) == (800, 500) and os.path.getsize(png) > 5000,
       "plot %s.png 800x500" % base_, (rc, rc2, err, err2, os.path.exists(png) and png_size(png)))
    s = open(svg).read() if os.path.exists(svg) else ""
    ok('width="576pt" height="360pt"' in s and s.count("<path") > 10,
       "plot %s.svg 576x360 pt with content" % base_)

# issue 29 item 5: --plots says which files it wrote; a line joins only the level kernels
# (load_l1..load_dram, 64-byte stride), every other chase kernel is a point of its own; an
# emulated or simulated run carries the caveat on the figure
ok(re.search(r"^pebs-report: wrote \d+ plot file\(s\): .*hist-load_l1\.png", err, re.M) and
   os.path.join(pdir, "latency-curve.svg") in err, "--plots: the files written, on stderr", err)
from pebsreport import plots  # noqa: E402
dd, _ = report.load(FIX + "qemu-default.log", None, False)
ser = plots.curve_series(dd)
ok([(lb, len(ps), j) for lb, ps, j in ser] == [
    ("load_l1..load_dram", 4, True), ("load_lfb/ref (stride 64, 2M pages)", 1, False),
    ("load_store/ref (stride 64, 2M pages)", 1, False),
    ("load_stlb/2M (stride 4096, 2M pages)", 1, False),
    ("load_stlb (stride 4096, 4K pages)", 1, False)],
   "--plots: one line for load_l1..load_dram, lfb/store/stlb points of their own", ser)
rc3, _, err3 = run(["-q", "--plots", os.path.join(tmp, "plots3"), FIX + "qemu-default.log"])
svg3 = open(os.path.join(tmp, "plots3", "latency-curve.svg")).read()
ok(rc3 == 0 and "CAVEAT: software emulation" in svg3 and "[emulated]" in svg3,
   "--plots: an emulated run's figure says so", err3)
ok("CAVEAT: simulated" in open(os.path.join(pdir, "latency-curve.svg")).read(),
   "--plots: a model-log run's figure says it is simulated")

# --- comparison ---
# issue 29 item 6: working sets that differ are named; emulated runs said so; a log with no
# data is said once (no line per test), exit 2; no PEBS data is said beside the verdict
rc, out, _ = run([FIX + "qemu-default.log", FIX + "qemu-skl.log"])
ok(re.search(r"load_l3 .* 2M/8M DIFFER: not the same measurement", out) and
   "working sets differ for load_l1, load_l2, load_l3" in out,
   "compare: differing working sets named", out)
ok("  A: software emulation" in out and "  B: software emulation" in out and
   "neither run is a machine's measurement" in out, "compare: both runs emulated, said", out)
ok(out.rstrip().endswith("Status: A 0 (nothing was measured by PEBS), B 0 (nothing was "
                         "measured by PEBS)"), "compare: no PEBS data beside the status", out)
empty = write("empty.log", b"")
rc, out, err = run([FIX + "qemu-default.log", empty])
ok(rc == 2 and out.count("\n") < 8 and "absent" not in out and "None" not in out and
   "B (%s) has no results to compare: no 'KTAP version' line" % empty in out,
   "compare against an empty log: said once, exit 2", out)
rc, out, _ = run([FIX + "qemu-default.log"])
ok(re.search(r"^Verdict: PASS \(all passed or skipped\); nothing was measured by PEBS \(no PEBS "
             r"or IBS record in any kernel; 1 of 12 skipped\)$", out, re.M),
   "summary: nothing measured by PEBS, beside the verdict", out[-400:])
rc, out, _ = run([fx("model-a.log")])
ok("nothing was measured" not in out and "CAVEAT: simulated: model-log" in out,
   "summary: a model-log run has PEBS data and is marked simulated", out[-400:])
rc, out, err = run([fx("model-a.log"), fx("model-b.log")])
ok(rc == 1 and re.search(r"load_dram/pebs_source +pass +-> fail", out) and
   not re.search(r"load_l[123]/\S+ +pass +-> fail", out), "compare: verdict change listed, exit 1",
   out)
ns = [float(re.search(rb"load_dram: time .* ns=([\d.]+)", rd(f)).group(1))
      for f in ("model-a.log", "model-b.log")]
ok(re.search(r"load_dram +%s +%s +%s" % tuple(re.escape(x) for x in (
    "%.2f" % ns[0], "%.2f" % ns[1], "%+.2f" % (ns[1] - ns[0]))), out),
   "compare: timing delta", (ns, out))
ok(re.search(r"load_dram +RAM +count 2\d\d->1\d\d", out) and "p50 " in out,
   "compare: per-level latency deltas", out)
rc, out, _ = run([FIX + "qemu-default.log", FIX + "qemu-ovmf.log"])
ok(rc == 0 and "no verdict changes" in out and "load_l1" in out, "compare: two passing boots")
rc, out, _ = run(["--json", FIX + "qemu-default.log", FIX + "qemu-inject-ud.log"])
ok(rc == 1 and any(v["test"] == "inject" for v in json.loads(out)["compare"]["verdicts"]),
   "compare --json lists verdict changes")

# issue 29 item 8: --extract DIR LOG: each kernel's raw records into DIR/<kernel>.bin (README's
# records.bin), the pebs-decode command printed; what it decodes is the log's own table
xdir = os.path.join(tmp, "extract")
rc, out, err = run(["--extract", xdir, fx("model-leg.log")])
cmds = re.findall(r"^  (build/host/pebs-decode .*)$", out, re.M)
ok(rc == 0 and len(cmds) == 4 and re.search(r"^load_l1: \d+ records -> .*/load_l1\.bin$", out,
                                            re.M), "--extract: four record files, their commands",
   (rc, out, err))
dec = subprocess.run(cmds[3].split()[:-1] + ["--summary", os.path.join(xdir, "load_dram.bin")],
                     capture_output=True)
want = re.findall(rb"# load_dram: lvl (\S.*?) (\d+) [\d.]+% ", rd("model-leg.log"))
got = re.findall(r"^  (\S.*?)\s+(\d+)\s+\d+\s+\d+", dec.stdout.decode(), re.M)
ok(dec.returncode == 0 and want and [(a.decode(), int(b)) for a, b in want] ==
   [(a, int(b)) for a, b in got], "--extract: the file decodes to the log's load_dram table",
   (want, got, dec.stderr))
rc, out, err = run(["--extract", xdir, FIX + "qemu-default.log"])
ok(rc == 2 and "no dump=raw lines" in err, "--extract on a log without raw dumps: exit 2", err)

# --- robustness: bounded random mutation (fixed seed), in-process ---
rng = random.Random(1234)
seeds = [rd(f) for f in ("qemu-default.log", "qemu-inject-ud.log", "qemu-curve.log",
                         "model-a.log")]
bad_runs = []
path = os.path.join(tmp, "mut.log")
for it in range(2000):
    d = mutate(rng, rng.choice(seeds))
    with open(path, "wb") as f:
        f.write(d)
    try:
        doc, _ = report.load(path, decode_raw=(it % 50 == 0))
        report.summary(doc, True)
        json.dumps(doc)
        if doc["status"] not in (0, 1, 2):
            bad_runs.append((it, "status %r" % doc["status"]))
    except Exception as e:  # noqa: BLE001 - the point of the test
        bad_runs.append((it, repr(e)))
ok(not bad_runs, "2000 mutated logs: no exception, status in {0,1,2}", bad_runs[:5])

# regression inputs: logs that once crashed the parser (found by mutation fuzzing) stay here
for reg in sorted(os.listdir("tests/fuzz/corpus/log_fuzz")):
    r_ = subprocess.run([TOOL, "-q", "tests/fuzz/corpus/log_fuzz/" + reg], capture_output=True,
                        timeout=60)
    ok(r_.returncode in (0, 1) and b"Traceback" not in r_.stderr,
       "regression input %s: parsed, status %d" % (reg, r_.returncode), r_.stderr[-300:])

# an enormous capture (a serial logger left running: ~16 MB of noise, binary junk and repeated
# runs): the tool must finish in bounded time with a defined status, not hang or die
big = os.path.join(tmp, "enormous.log")
with open(FIX + "qemu-default.log", "rb") as f_:
    one = f_.read()
rng_big = random.Random(99)
junk = bytes(rng_big.randrange(256) for _ in range(4096))
with open(big, "wb") as f_:
    for i_ in range(950):
        f_.write(one)
        f_.write(b"# noise line %d\r\n" % i_ * 200)
        f_.write(junk)
size_mb = os.path.getsize(big) / 1e6
try:
    r_ = subprocess.run([TOOL, "-q", big], capture_output=True, timeout=120)
    ok(r_.returncode in (0, 1, 2) and size_mb > 10,
       "enormous log (%.0f MB): finished with status %d" % (size_mb, r_.returncode),
       r_.stderr[-300:])
except subprocess.TimeoutExpired:
    ok(False, "enormous log (%.0f MB): finished within 120 s" % size_mb)

shutil.rmtree(tmp, ignore_errors=True)
done()
