#!/usr/bin/env python3
# matrix_report.t (issue 30): tools/pebs-report on the latency matrices of load_matrix and
# load_c2c (tools/pebsreport/matrix.py): from a build/host/model-log --kernels matrix log, the
# --json document carries every matrix with its columns, packages, rows, ns and data sources;
# --csv writes matrices.csv, one row per cell; --plots draws one heat map per matrix (PNG
# 800x500 and SVG); a cut row is a named problem, never a crash; --fleet compares the matrices
# of machines of one CPU model cell by cell and flags the machine whose node 1 -> node 0 cell
# is 30 % faster than the others' (model-log --remote-faster 30), and only that one.
import csv
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, "tests/scripts")
from taplib import done, ok  # noqa: E402

TOOL = "tools/pebs-report"
tmp = tempfile.mkdtemp(prefix="matrix-t.")


def run(args):
    p = subprocess.run([TOOL] + args, capture_output=True, timeout=300)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def model(path, args, simulated=True):
    p = subprocess.run(["build/host/model-log", "--cpu", "sapphire_rapids", "--kernels",
                        "matrix"] + args, capture_output=True, timeout=120)
    if p.returncode:
        sys.exit(print("Bail out! model-log %s: %s" % (args, p.stderr)) or 1)
    out = p.stdout if simulated else re.sub(rb"(?m)^# simulated: .*\n", b"", p.stdout)
    with open(path, "wb") as f:
        f.write(out)
    return out.decode()


log = tmp + "/m.log"
text = model(log, ["--seed", "5"])
rc, js, err = run([log, "--json"])
doc = json.loads(js) if rc == 0 else {}
mats = {m["name"]: m for m in doc.get("matrices", [])}
ok(rc == 0 and sorted(mats) == ["load_c2c/hitm", "load_c2c/snoop", "load_matrix"],
   "--json: the three matrices", (rc, sorted(mats), err[-300:]))
lm = mats.get("load_matrix", {})
ok(lm.get("cols") == [0, 1, 2, 3, 4] and lm.get("package") == [0, 0, 1, 1, None] and
   [r["id"] for r in lm.get("rows", [])] == [0, 1, 2, 3] and
   lm["rows"][0]["dsrc"][:3] == ["L-DRAM", "SNC-DRAM", "R-DRAM"] and
   lm["rows"][2]["dsrc"][:2] == ["R-DRAM", "R-DRAM"],
   "load_matrix: columns, packages (memory-only '-'), rows, data sources", lm)
first = re.search(r"# load_matrix: from node 0 \(cpu 0\):((?: \d+)+) ns", text).group(1)
ok(lm and lm["rows"][0]["ns"] == [int(v) for v in first.split()], "cells as printed", first)
hm = mats.get("load_c2c/hitm", {})
ok(len(hm.get("rows", [])) == 16 and hm["rows"][0]["ns"][0] is None and
   hm.get("node") and hm.get("core") and hm["rows"][0]["dsrc"][1] == "L3/HitM",
   "load_c2c/hitm: 16 x 16, no diagonal, nodes and cores of the columns", hm.get("cols"))
rc, out, err = run([log])
ok(rc == 0 and re.search(r"^load_matrix: 4 x 5 \(columns: node 0 1 2 3 4", out, re.M) and
   re.search(r"^  from node 0 +%s$" % " +".join(first.split()), out, re.M),
   "text summary: one line per row", out[-600:])
rc, _, err = run([log, "--csv", tmp + "/csv", "--plots", tmp + "/plots"])
with open(tmp + "/csv/matrices.csv") as f:
    rows = list(csv.reader(f))
ok(rc == 0 and rows[0] == ["matrix", "unit", "row", "row_cpu", "column", "column_package",
                           "ns", "dsrc"] and len(rows) == 1 + 20 + 2 * 256 and
   rows[2][:8] == ["load_matrix", "node", "0", "0", "1", "0", rows[2][6], "SNC-DRAM"],
   "matrices.csv: one row per cell (20 + 2 x 256)", (rc, rows[:3], err[-300:]))
pngs = ["matrix-load_matrix", "matrix-load_c2c_snoop", "matrix-load_c2c_hitm"]
sizes = []
for b in pngs:
    with open("%s/plots/%s.png" % (tmp, b), "rb") as f:
        sizes.append(struct.unpack(">II", f.read(24)[16:24]))
svg = open(tmp + "/plots/matrix-load_matrix.svg").read()
ok(sizes == [(800, 500)] * 3 and "node x node idle latency" in svg and "CAVEAT" in svg,
   "--plots: a heat map per matrix, 800x500, titled, the simulated caveat", sizes)
# a cut row line: named, skipped, no crash
cut = re.sub(r"(# load_matrix: from node 1 \(cpu 2\): \d+ \d+)[^\n]*", r"\1", text)
with open(tmp + "/cut.log", "w") as f:
    f.write(cut)
rc, js, err = run([tmp + "/cut.log", "--json"])
d2 = json.loads(js) if js else {}
m2 = {m["name"]: m for m in d2.get("matrices", [])}.get("load_matrix", {})
ok("Traceback" not in err and [r["id"] for r in m2.get("rows", [])] == [0, 2, 3] and
   any("matrix line cut or malformed" in p["message"] for p in d2.get("problems", [])),
   "a cut row: skipped and named, the others kept", (err[-300:], d2.get("problems")))
# --fleet: four machines of one model, one with node 1 -> node 0 30 % faster
fd = tmp + "/fleet"
os.makedirs(fd)
for i in range(4):
    model("%s/spr-%02d.log" % (fd, i + 1), ["--seed", str(60 + i)] +
          (["--remote-faster", "30"] if i == 3 else []), simulated=False)
rc, js, err = run(["--fleet", fd, "--json"])
fl = json.loads(js) if js else {}
outl = [(r["machine"], o["level"]) for r in fl.get("machines", []) for o in r["outliers"]]
ok("Traceback" not in err and outl == [("spr-04", "load_matrix node 1 -> 0")],
   "--fleet: the one planted matrix cell is the one outlier", (outl, err[-300:]))
g = fl.get("models", [{}])[0].get("matrices", {})
ok(sorted(g) == ["load_c2c/hitm", "load_c2c/snoop", "load_matrix"] and
   g["load_matrix"]["machines"] == ["spr-01", "spr-02", "spr-03", "spr-04"],
   "--fleet: each matrix compared across the model's machines", sorted(g))
rc, out, err = run(["--fleet", fd, "--csv", tmp + "/fcsv"])
ok(rc == 1 and re.search(r"OUTLIER spr-04: load_matrix node 1 -> 0: \d+ ns, median", out) and
   "load_matrix: 4 x 5 compared cell by cell across 4 machines" in out and
   os.path.exists(tmp + "/fcsv/fleet-matrices.csv"),
   "--fleet text and fleet-matrices.csv", out[-800:])
done()
