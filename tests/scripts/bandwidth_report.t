#!/usr/bin/env python3
# bandwidth_report.t: tools/pebs-report on the bandwidth test's lines (ktests/bandwidth.c,
# tools/pebsreport/bandwidth.py), from a QEMU log (tests/fixtures/pebs-report/
# qemu-bandwidth.log: 4 CPUs, two CPU nodes and a memory-only one): every level x mode point
# and every node line in the text, JSON and bandwidth.csv; the per-level bars drawn with the
# emulation caveat; a cut line named as a problem; --fleet: the machine whose DRAM read is
# half the others' is the one outlier (the logs stand in for real machines: no hypervisor line).
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
LOG = "tests/fixtures/pebs-report/qemu-bandwidth.log"
tmp = tempfile.mkdtemp(prefix="bandwidth_t.")


def run(args):
    p = subprocess.run([TOOL] + args, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


text = open(LOG).read()
want = len(re.findall(r"# bandwidth: (?:L1|L2|L3|DRAM) \S+ ws \d+K: 1 cpu ", text))
nodes = len(re.findall(r"# bandwidth: DRAM read node \d+ ws ", text))
rc, js, err = run(["--json", LOG])
doc = json.loads(js) if js.startswith("{") else {}
pts = doc.get("bandwidth", [])
ok(rc == 0 and want == 24 and nodes == 3 and len(pts) == want + nodes and
   all(p["gbps_1"] > 0 for p in pts) and
   all(p["cpus"] == 4 and p["gbps_all"] for p in pts if p["node"] is None),
   "JSON: 24 level x mode points with 1-CPU and 4-CPU figures, 3 node points", (rc, err[-300:]))
rc, out, err = run([LOG])
ok(rc == 0 and "Bandwidth (GB/s = 10^9 B/s" in out and
   len(re.findall(r"^  (?:L1|L2|L3|DRAM) +\S+ +\d+K +\d+\.\d+ +\d+\.\d+ \(4\)$", out, re.M)) == 24
   and len(re.findall(r"^  node \d memory, read from node 0: \d+\.\d+ GB/s", out, re.M)) == 3,
   "text: the bandwidth table and one line per node", out[-900:])
rc, out, err = run(["--csv", os.path.join(tmp, "csv"), LOG])
rows = list(csv.DictReader(open(os.path.join(tmp, "csv", "bandwidth.csv"))))
ok(rc == 0 and len(rows) == 27 and [r["node"] for r in rows[-3:]] == ["0", "1", "2"],
   "bandwidth.csv: every point, the node rows last", rows[-3:])
rc, out, err = run(["--plots", os.path.join(tmp, "plots"), LOG])
ok(rc == 0 and os.path.exists(os.path.join(tmp, "plots", "bandwidth.png")) and
   "emulat" in open(os.path.join(tmp, "plots", "bandwidth.svg")).read(),
   "--plots: bandwidth.png/.svg drawn, with the emulation caveat", (rc, out[-300:], err[-300:]))
cut = os.path.join(tmp, "cut.log")
with open(cut, "w") as f:
    f.write(re.sub(r"(# bandwidth: L2 read ws \d+K: 1 cpu )\d+\.\d+ GB/s.*", r"\1", text, 1))
rc, js, err = run(["--json", cut])
doc = json.loads(js) if js.startswith("{") else {}
ok(len(doc.get("bandwidth", [])) == want + nodes - 1 and
   any("cut bandwidth line" in p["message"] for p in doc.get("problems", [])),
   "a cut bandwidth line: named as a problem and left out", doc.get("problems"))

# --fleet: four machines of one model; the fourth's DRAM read (all CPUs) is half the others'
real = re.sub(r"(?m)^# (?:hypervisor|timing): .*\n", "", text)
fl = os.path.join(tmp, "fleet")
os.makedirs(fl)
for i in range(1, 5):
    body = real
    if i == 4:
        body = re.sub(r"(# bandwidth: DRAM read ws \d+K: 1 cpu \S+ GB/s \([^)]*\); 4 cpus )"
                      r"(\d+\.\d+)", lambda m: m.group(1) + "%.2f" % (float(m.group(2)) / 2),
                      body)
    with open(os.path.join(fl, "m%d.log" % i), "w") as f:
        f.write(body)
rc, js, err = run(["--fleet", fl, "--json"])
doc = json.loads(js) if js.startswith("{") else {}
ms = {r["machine"]: r for r in doc.get("machines", [])}
bw = {m: [o for o in ms[m]["outliers"] if o["level"] == "bandwidth"] for m in ms}
ok(len(ms) == 4 and all(ms[m]["bw_dram_gbps"] for m in ms) and len(bw.get("m4", [])) == 1 and
   not any(bw[m] for m in ("m1", "m2", "m3")),
   "--fleet: the machine with half the DRAM read bandwidth is the one outlier",
   [(m, ms[m].get("bw_dram_gbps"), bw[m]) for m in ms])
rc, out, err = run(["--fleet", fl, "--csv", os.path.join(tmp, "fcsv")])
frows = list(csv.DictReader(open(os.path.join(tmp, "fcsv", "fleet.csv"))))
ok("OUTLIER m4: bandwidth test's DRAM read" in out and
   all(r["bandwidth_dram_gbps"] for r in frows),
   "--fleet: the outlier line and fleet.csv's bandwidth column", out[-600:])
shutil.rmtree(tmp)
done()
