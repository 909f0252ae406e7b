#!/usr/bin/env python3
# fleet.t: TAP tests of `tools/pebs-report --fleet DIR` on tests/fixtures/fleet/ (26 logs made
# by tests/fixtures/fleet/generate.py: PMU-model machines of four CPU models, QEMU boots as
# three CPU models, damaged captures, one machine with two runs): one row per machine with the
# values of its own log, the planted outliers and only them, the damaged logs named with
# their reason, --json/--csv/--plots, exit statuses, the outlier rule on fresh model logs
# (flags a 30 % slower RAM, not a 5 % one), the committed model logs equal to what
# build/host/model-log prints today, and mutated copies of the fixtures that never crash it.
import csv
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
sys.path.insert(0, "tests/scripts")
from taplib import done, ok  # noqa: E402
sys.path.insert(0, "tests/fuzz")
from log_fuzz import mutate  # noqa: E402  (the same mutations as make fuzz)

TOOL = "tools/pebs-report"
FIX = "tests/fixtures/fleet"
tmp = tempfile.mkdtemp(prefix="fleet-t.")



def run(args):
    p = subprocess.run([TOOL] + args, capture_output=True, timeout=300)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def model(path, args, simulated=False):
    """A model-log log standing in for a real machine's (as generate.py writes them): its
    `# simulated:` line removed, unless `simulated` keeps it."""
    p = subprocess.run(["build/host/model-log"] + args, capture_output=True, timeout=120)
    if p.returncode:
        sys.exit(print("Bail out! model-log %s: %s (`make host` builds it)" % (args, p.stderr))
                 or 1)
    out = p.stdout if simulated else re.sub(rb"(?m)^# simulated: .*\n", b"", p.stdout)
    with open(path, "wb") as f:
        f.write(out.replace(b"\n", b"\r\n"))


def time_ns(path, kernel):
    m = re.search(r"# %s: time unit=load \S+ \S+ \S+ ns=([0-9.]+)" % kernel,
                  open(path, "rb").read().decode("utf-8", "replace"))
    return float(m.group(1)) if m else None


files = sorted(f for f in os.listdir(FIX) if f.endswith(".log"))
ok(len(files) >= 20, "fixture has >= 20 logs (%d)" % len(files))
rc, text, err = run(["--fleet", FIX])
ok(rc == 1 and "Traceback" not in err, "--fleet on the fixture exits 1 (failures, damage, "
   "outliers)", (rc, err))
rc, js, err = run(["--fleet", FIX, "--json"])
doc = json.loads(js)
rows = {r["machine"]: r for r in doc["machines"]}
want = {re.sub(r"-\d{8}T\d{6}Z$", "", f[:-4]) for f in files}
ok(set(rows) == want and len(doc["machines"]) == len(want),
   "one row per machine (%d machines from %d logs)" % (len(want), len(files)),
   sorted(set(rows) ^ want))
for m in want:
    ok(re.search(r"^%s\s" % re.escape(m), text, re.M), "table has a row for %s" % m)

# rows carry the values of their own log
for m in ("hsw-01", "skl-04", "icx-01", "spr-02", "qemu-skl-01"):
    path = os.path.join(FIX, rows[m]["file"])
    got = [rows[m]["latency_ns"].get(lv) for lv in ("L1", "L2", "L3", "DRAM")]
    exp = [time_ns(path, k) for k in ("load_l1", "load_l2", "load_l3", "load_dram")]
    ok(got == exp and None not in exp, "%s: latency ns per level from its time lines" % m,
       (got, exp))
    _, one, _ = run(["--json", path])
    one = json.loads(one)
    ok(rows[m]["counts"] == {k: one["totals"][k] for k in ("pass", "fail", "skip", "total")},
       "%s: verdict counts equal its Totals line" % m, (rows[m]["counts"], one["totals"]))
r = rows["skl-01"]
ok(r["microcode"] == "0xf0" and r["bios"] == "1.4.2" and r["cpu"].startswith("GenuineIntel "
   "06_5EH stepping 3") and r["purity"]["DRAM"] > 80, "skl-01: microcode, BIOS (metadata "
   "line), CPU and DRAM purity", r)
ok(rows["qemu-skl-01"]["microcode"] == "0x1" and rows["qemu-skl-01"]["emulated"] and
   rows["qemu-skl-01"]["purity"] == {}, "QEMU row: microcode, emulated, no PEBS purity",
   rows["qemu-skl-01"])
ok(rows["icx-02"]["runs"] == 2 and rows["icx-02"]["file"] == "icx-02-20261123T090000Z.log" and
   rows["icx-02"]["status"] == "pass", "icx-02: two runs, the row is the newer (passing) one",
   rows["icx-02"])

# the planted outliers, and only they
outl = sorted((r["machine"], o["metric"], o["level"]) for r in doc["machines"]
              for o in r["outliers"])
ok(outl == [("icx-03", "purity", "DRAM"), ("skl-04", "latency", "DRAM")],
   "outliers: skl-04 DRAM latency (slow RAM) and icx-03 DRAM purity, nothing else", outl)
ok(re.search(r"^skl-04 .*\d\*", text, re.M) and "OUTLIER skl-04: DRAM latency" in text,
   "the text table marks skl-04", text[-2500:])
ok(not any(g["judged"] for g in doc["models"] if "QEMU" in g["model"] or "Intel Core" in
           g["model"] or "Intel Xeon" in g["model"]),
   "groups of emulated runs are not judged", doc["models"])

# damaged logs named with their reason
dmg = {}
for d in doc["damaged"]:
    dmg.setdefault(d["file"], []).append(d["reason"])
for f, what in (("hsw-04.log", "garbled:"), ("spr-04.log", "truncated:"),
                ("skl-06.log", "restarted:"), ("rack2-node09.log", "unreadable:"),
                ("rack2-node10.log", "unreadable:")):
    ok(any(x.startswith(what) for x in dmg.get(f, [])) and
       re.search(r"DAMAGED %s: %s" % (re.escape(f), what), text),
       "damaged %s: %s" % (f, what), dmg.get(f))
ok(set(dmg) == {"hsw-04.log", "spr-04.log", "skl-06.log", "rack2-node09.log",
                "rack2-node10.log"}, "no intact log is called damaged", sorted(dmg))
ok(rows["spr-04"]["status"] == "incomplete" and rows["icx-03"]["status"] == "fail" and
   rows["rack2-node10"]["status"] == "unreadable", "statuses: incomplete, fail, unreadable")

# --csv and --plots
rc, _, err = run(["--fleet", FIX, "--csv", tmp + "/csv", "--plots", tmp + "/plots"])
with open(tmp + "/csv/fleet.csv") as f:
    crow = list(csv.DictReader(f))
ok(len(crow) == len(want) and {c["machine"] for c in crow} == want and
   [c for c in crow if c["machine"] == "skl-04"][0]["outliers"] == "DRAM latency",
   "fleet.csv: one row per machine, outlier column", err)


def png_size(p):
    with open(p, "rb") as f:
        h = f.read(24)
    return struct.unpack(">II", h[16:24]) if h[:8] == b"\x89PNG\r\n\x1a\n" else None


png, svg = tmp + "/plots/fleet-latency.png", tmp + "/plots/fleet-latency.svg"
ok(os.path.exists(png) and png_size(png) == (800, 500) and os.path.getsize(png) > 5000,
   "fleet-latency.png 800x500", (rc, err))
ok(os.path.exists(svg) and "outlier skl-04" in open(svg).read(),
   "fleet-latency.svg marks the outlier")

# exit statuses
ok(run(["--fleet", tmp + "/none"])[0] == 2, "missing directory exits 2")
os.makedirs(tmp + "/empty")
rc, out, _ = run(["--fleet", tmp + "/empty"])
ok(rc == 2 and "no log files" in out, "empty directory exits 2", out)
os.makedirs(tmp + "/good")
for m in ("skl-01", "skl-02", "skl-03"):
    shutil.copy(os.path.join(FIX, m + ".log"), tmp + "/good")
rc, out, _ = run(["--fleet", tmp + "/good"])
ok(rc == 0 and "Outliers (*): 0" in out and "Damaged logs: 0" in out,
   "three passing machines of one model exit 0", out)
ok(run(["--fleet", FIX, FIX + "/skl-01.log"])[0] == 2, "--fleet with a LOG is a usage error")

# the rule, not the fixture: fresh model logs, RAM 30 % slower is flagged, 5 % is not
for pct, flagged in (("130", True), ("105", False)):
    d = tmp + "/rule" + pct
    os.makedirs(d)
    for s in ("1", "2", "3", "4"):
        model("%s/skl-%s.log" % (d, s), ["--cpu", "skylake", "--seed", "9" + s])
    model(d + "/skl-slow.log", ["--cpu", "skylake", "--seed", "95", "--ram-pct", pct])
    rc, out, _ = run(["--fleet", d, "--json"])
    o = [(r["machine"], x["level"]) for r in json.loads(out)["machines"] for x in r["outliers"]]
    ok(o == ([("skl-slow", "DRAM")] if flagged else []),
       "RAM at %s%%: %s" % (pct, "flagged" if flagged else "not flagged"), o)

# issue 29 item 7: logs marked simulated (model-log's own header) are never judged as
# machines: the same planted slow-RAM Skylake among four others is no outlier, and every row
# says "(sim)"
d = tmp + "/sim"
os.makedirs(d)
for i in range(4):
    model(d + "/skl-s%d.log" % i, ["--cpu", "skylake", "--seed", str(70 + i)], simulated=True)
model(d + "/skl-slow.log", ["--cpu", "skylake", "--seed", "79", "--ram-pct", "150"],
      simulated=True)
rc, out, _ = run(["--fleet", d, "--json"])
js = json.loads(out)
ok(all(r["simulated"] and not r["outliers"] for r in js["machines"]) and
   not any(g["judged"] for g in js["models"]),
   "simulated logs: rows marked simulated, no outlier judged (not real machines)",
   [(r["machine"], r["simulated"], r["outliers"]) for r in js["machines"]])
rc, out, _ = run(["--fleet", d])
ok(out.count("PASS (sim)") == 5 and "simulated runs (model-log) are not judged" in out,
   "simulated logs: '(sim)' in the table, the rule says so", out[-1500:])

# the committed model logs are what generate.py's model-log arguments print today
gen = open(FIX + "/generate.py").read()
for m in ("skl-04", "icx-03", "hsw-01"):
    args = re.search(r'"%s": (\[[^\]]*\])' % m, gen).group(1)
    model(tmp + "/regen.log", json.loads(args))  # the simulated line removed, as generate.py
    have = open(os.path.join(FIX, m + ".log"), "rb").read()
    have = have[have.index(b"KTAP version 1"):]
    ok(have == open(tmp + "/regen.log", "rb").read(), "%s.log = model-log %s" % (m, args))

# robustness: mutated copies of every fixture log, never a crash
rng = random.Random(18)
d = tmp + "/fuzz"
os.makedirs(d)
for i, f in enumerate(files * 2):
    with open("%s/m%02d-%s" % (d, i, f), "wb") as g:
        g.write(mutate(rng, open(os.path.join(FIX, f), "rb").read() or b"KTAP version 1\n"))
rc, out, err = run(["--fleet", d])
rc2, js, err2 = run(["--fleet", d, "--json"])
ok(rc in (0, 1) and rc2 == rc and "Traceback" not in err + err2 and json.loads(js)["machines"],
   "%d mutated logs: a report, no crash" % (2 * len(files)), (rc, err[-800:], err2[-800:]))

shutil.rmtree(tmp)
# the kernel's `# smbios:` lines: the BIOS column where no pebs-lab: bios= names it, and an
# outlier whose memory population differs from most of its model's machines is flagged
sdir = os.path.join(tmp, "smbios")
os.makedirs(sdir)
pop = {"skl-04": "memory 1 of 2 slots populated, 16384 MiB, DDR4 2133 MT/s (configured 2133), "
       "channels A; \"Samsung\" \"M378A2K43BB1\""}
for i in range(1, 7):
    name = "skl-%02d" % i
    with open(os.path.join(FIX, name + ".log"), "rb") as f:
        text_in = f.read().decode("utf-8", "replace")
    mem = pop.get(name, "memory 2 of 2 slots populated, 32768 MiB, DDR4 2133 MT/s (configured "
                  "2133), channels AB; \"Samsung\" \"M378A2K43BB1\"")
    lines = '# smbios: bios "LabBIOS" version "1.%d" date 11/20/2026 (SMBIOS 3.3)\r\n# smbios: %s\r\n' \
        % (i % 2, mem)
    text_in = re.sub(r"(# output-format: \d+\r\n)", lambda m_: m_.group(1) + lines, text_in, 1)
    text_in = re.sub(r" ?bios=\S+", "", text_in)	# no pebs-lab: bios= to take precedence
    with open(os.path.join(sdir, name + ".log"), "wb") as f:
        f.write(text_in.encode())
rc, out, err = run(["--fleet", sdir, "--json"])
rows = {r["machine"]: r for r in json.loads(out)["machines"]} if out.startswith("{") else {}
ok(rows and rows["skl-01"]["bios"] == "LabBIOS 1.1 11/20/2026" and
   rows["skl-02"]["bios"] == "LabBIOS 1.0 11/20/2026",
   "--fleet: the BIOS from the kernel's smbios line", (rc, err, out[:500]))
ok(rows and rows["skl-04"].get("dimm_note", "").startswith("memory 1 of 2 slots") and
   not any(rows[m].get("dimm_note") for m in rows if m != "skl-04"),
   "--fleet: the outlier's different DIMM population is named, nobody else's",
   {m: rows[m].get("dimm_note") for m in rows})
rc, out, err = run(["--fleet", sdir])
ok("DIMMS skl-04: memory 1 of 2 slots populated" in out, "the text report says it", out[-1500:])

done()
