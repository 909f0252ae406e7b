#!/usr/bin/env python3
# loaded.t (issue 32): test load_loaded's curve through the tools. model-log --kernels loaded
# (the load-dependent DRAM latency model) and a QEMU TCG log of tests=load_loaded
# (tests/fixtures/pebs-report/qemu-loaded.log, SMP 4) are read by pebs-report: every step a
# point in JSON and loaded.csv, the loaded-latency picture drawn from both (PNG and SVG), a
# cut step line named as a problem; `pebs-report A B` compares two curves step by step;
# `--fleet` compares peak bandwidth and knee among machines of one model (an outlier planted:
# fewer injectors); `loadbench --loaded --pebs` here prints the same lines (structure only:
# its timing is this machine's, never asserted).
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, "tests/scripts")
from taplib import done, ok  # noqa: E402

TOOL = "tools/pebs-report"
QEMU = "tests/fixtures/pebs-report/qemu-loaded.log"
STEP = re.compile(r"^\s*# load_loaded: step (\d+) delay=(\S+) bw=\S+GB/s lat=\S+ns core=\S+ "
                  r"p50=\S+ p99=\S+ n=\S+ src \S+\r?$", re.M)
tmp = tempfile.mkdtemp(prefix="loaded_t.")


def run(cmd, timeout=300):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def model(path, args, simulated=True):
    rc, out, err = run(["build/host/model-log", "--kernels", "loaded"] + args)
    if rc:
        sys.exit(print("Bail out! model-log %s: %s" % (args, err)) or 1)
    if not simulated:    # standing in for a real machine's log, as tests/scripts/fleet.t does
        out = re.sub(r"(?m)^# simulated: .*\n", "", out)
    with open(path, "w") as f:
        f.write(out)
    return out


ml = os.path.join(tmp, "model.log")
out = model(ml, ["--cpu", "icelake_sp", "--seed", "7"])
for name, log in (("model log", ml), ("QEMU log", QEMU)):
    text = open(log).read()
    steps = STEP.findall(text)
    rc, js, err = run([TOOL, "--json", log])
    doc = json.loads(js) if rc in (0, 1) and js.startswith("{") else {}
    pts = doc.get("loaded") or []
    ok(len(steps) >= 8 and len(pts) == len(steps) and
       [p["step"] for p in pts] == list(range(len(steps))) and pts[-1]["delay"] is None and
       pts[0]["delay"] == 0 and not doc.get("problems"),
       "%s: every step line a JSON point, delay 0 first and idle last" % name,
       (rc, len(steps), len(pts), err[-300:]))
    f = doc.get("loaded_figures") or {}
    ok(f.get("steps") == len(steps) and f.get("peak_gbps") == max(p["gbps"] for p in pts) and
       f.get("idle_ns") == pts[-1]["ns"], "%s: peak bandwidth and idle latency figures" % name,
       f)
    d = os.path.join(tmp, name.split()[0] + "-csv")
    rc, _, err = run([TOOL, "--csv", d, log])
    rows = list(csv.DictReader(open(os.path.join(d, "loaded.csv")))) \
        if os.path.exists(os.path.join(d, "loaded.csv")) else []
    ok(len(rows) == len(steps) and rows[-1]["delay"] == "idle" and
       all(float(r["gbps"]) == p["gbps"] and float(r["ns"]) == p["ns"]
           for r, p in zip(rows, pts)), "%s: loaded.csv carries every point" % name, err)
    d = os.path.join(tmp, name.split()[0] + "-plots")
    rc, _, err = run([TOOL, "--plots", d, log])
    files = {n: os.path.getsize(os.path.join(d, n)) for n in os.listdir(d)} \
        if os.path.isdir(d) else {}
    ok(rc in (0, 1) and files.get("loaded-latency.png", 0) > 10000 and
       files.get("loaded-latency.svg", 0) > 10000,
       "%s: --plots draws loaded-latency.png and .svg" % name, (rc, files, err[-300:]))
    if name == "model log":
        ok(all(p["samples"] and p["shares"].get("RAM", 0) > 50 for p in pts) and
           pts[0]["p99"] > pts[-1]["p99"] and f.get("knee_gbps") and
           0 < f["knee_gbps"] < f["peak_gbps"],
           "model log: samples, RAM shares, p99 rising under load, a knee below the peak", f)
    else:
        ok(all(p["samples"] is None and p["shares"] is None for p in pts) and
           re.search(r"ok \d+ curve_monotone # SKIP software emulation", text) and
           re.search(r"ok \d+ injectors_ran # 3 injectors x \d+ steps, 0 steps short", text),
           "QEMU log: no sampler under TCG, timing verdicts SKIP, 3 injectors ran", pts[:2])

# a cut step line is a problem, never a crash
cut = os.path.join(tmp, "cut.log")
with open(cut, "w") as f:
    f.write(re.sub(r"(# load_loaded: step 4 delay=\S+ bw=)\S+", r"\1", open(QEMU).read()))
rc, js, err = run([TOOL, "--json", cut])
doc = json.loads(js) if js.startswith("{") else {}
ok("Traceback" not in err and len(doc.get("loaded", [])) == len(STEP.findall(open(QEMU).read())) - 1
   and any("cut load_loaded step line" in p["message"] for p in doc.get("problems", [])),
   "a cut step line: named as a problem, the other steps kept", err[-300:])

# A B: two curves step by step
rc, text, err = run([TOOL, QEMU, ml])
rows = re.findall(r"^ +(\d+) +(\d+|idle)  GB/s \S+->\S+  ns \S+->\S+  p50 \S+->\S+  p99 \S+->\S+$",
                  text, re.M)
ok(len(rows) == len(STEP.findall(open(QEMU).read())) and "peak " in text and "Traceback" not in err,
   "pebs-report A B: the loaded-latency curves compared step by step", text[-600:])

# --fleet: peak bandwidth and knee among machines of one model; one with 4 injectors
fl = os.path.join(tmp, "fleet")
os.makedirs(fl)
for i in range(1, 5):
    model(os.path.join(fl, "spr-%02d.log" % i), ["--cpu", "sapphire_rapids", "--seed", str(i)] +
          (["--injectors", "4"] if i == 4 else []), simulated=False)
rc, js, err = run([TOOL, "--fleet", fl, "--json"])
doc = json.loads(js) if js.startswith("{") else {}
ms = {r["machine"]: r for r in doc.get("machines", [])}
out4 = [o for o in ms.get("spr-04", {}).get("outliers", []) if o["level"] == "loaded"]
ok(len(ms) == 4 and all(ms[m]["loaded"]["peak_gbps"] for m in ms) and
   [o["metric"] for o in out4] == ["peak_gbps"] and
   not any(o["level"] == "loaded" for m in ("spr-01", "spr-02", "spr-03")
           for o in ms[m]["outliers"]), "--fleet: the machine with a quarter of the injectors "
   "is the peak-bandwidth outlier, no other", [(m, ms[m]["loaded"]) for m in ms])
rc, text, err = run([TOOL, "--fleet", fl, "--csv", os.path.join(tmp, "fcsv")])
crow = list(csv.DictReader(open(os.path.join(tmp, "fcsv", "fleet.csv"))))
ok("Loaded latency per CPU model" in text and "OUTLIER spr-04: loaded-latency peak bandwidth"
   in text and all(r["loaded_peak_gbps"] and r["loaded_knee_gbps"] != "" for r in crow[:3]),
   "--fleet: text section and fleet.csv columns for peak and knee", text[-800:])

# loadbench --loaded --pebs here: the same lines (structure only, timing never asserted)
if os.cpu_count() and os.cpu_count() > 1:
    rc, out, err = run(["build/host/loadbench", "--loaded", "--pebs", "--injectors", "1"])
    steps = STEP.findall(out)
    lb = os.path.join(tmp, "lb.log")
    with open(lb, "w") as f:
        f.write(out)
    r2, js, e2 = run([TOOL, "--json", lb])
    doc = json.loads(js) if js.startswith("{") else {}
    ok(rc in (0, 1) and len(steps) >= 8 and steps[-1][1] == "idle" and
       re.search(r"ok \d+ injectors_ran # 1 injectors x", out) and
       re.search(r"ok \d+ samples_accounted( # SKIP \S|)", out) and
       len(doc.get("loaded", [])) == len(steps) and not doc.get("problems"),
       "loadbench --loaded --pebs: a pebs-kernel log with every step, read by pebs-report",
       (rc, out[-800:], err[-300:]))
else:
    ok(True, "loadbench --loaded: one CPU here, not run # SKIP one CPU")
shutil.rmtree(tmp)
done()
