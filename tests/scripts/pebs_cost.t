#!/usr/bin/env python3
# pebs_cost.t: the cost of PEBS in build/host/model-log logs (issue 14 §4; docs/output.md §3
# `pebs` cost fields, §5 pebs_overhead): every PEBS step's `pebs` line carries unarmed_ns,
# armed_ns, overhead, rec_ns, pmi_ns, sav_tuned, and a pebs_overhead subtest judges it; the
# model's virtual clock charges --assist-ns per record and --pmi-ns per PMI, and the log must
# give that cost back; a cost too high is retuned (sav_tuned names the first sav) unless --sav
# fixed it, then pebs_overhead fails; tools/pebs-report reads the lines without complaint.
import os
import re
import subprocess
import sys

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
ML = "build/host/model-log"
n = 0
print("1..12")


def ok(cond, name, diag=""):
    global n
    n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (n, name))
    if not cond:
        for line in str(diag).splitlines()[:20]:
            print("# " + line)


def log(*args):
    p = subprocess.run([ML] + list(args), capture_output=True, timeout=120)
    return p.returncode, p.stdout.decode()


def pebs_lines(text):
    out = {}
    for m in re.finditer(r"^  # (load_\w+): pebs (.*)$", text, re.M):
        out[m.group(1)] = dict(kv.split("=", 1) for kv in m.group(2).split())
    return out


def verdicts(text, sub):
    return re.findall(r"^  (ok|not ok) \d+ %s \((.*)\)$" % sub, text, re.M)


if not os.access(ML, os.X_OK):
    for i in range(12):
        ok(False, "%s not built (make host)" % ML)
    sys.exit(0)

rc, text = log("--cpu", "icelake_sp", "--seed", "7")
p = pebs_lines(text)
keys = ("unarmed_ns", "armed_ns", "overhead", "rec_ns", "pmi_ns", "sav_tuned")
ok(rc == 0 and len(p) == 4 and all(all(k in v for k in keys) for v in p.values()),
   "default log: 4 pebs lines with the cost fields", text[-800:])
v = verdicts(text, "pebs_overhead")
ok(len(v) == 4 and all(s == "ok" for s, _ in v), "default log: pebs_overhead passes 4 times", v)
# 20 ns an assist + 2000 ns a PMI over the records of a buffer: 20..22 ns a record
ok(all(20 <= int(x["rec_ns"]) <= 22 for x in p.values()), "rec_ns = the model's 20 ns assist (+ PMI share)",
   [x["rec_ns"] for x in p.values()])
ok(all(float(x["armed_ns"]) >= float(x["unarmed_ns"]) and x["sav_tuned"] == "-" for x in p.values()),
   "armed >= unarmed, nothing retuned", p)
# both are the same extra time, divided (and truncated): |pmi_ns*pmis - rec_ns*records| < records
ok(all(abs(int(x["pmi_ns"]) * int(x["pmis"]) - int(x["rec_ns"]) * int(x["records"])) <
       int(x["records"]) for x in p.values()), "pmi_ns = the same extra time per PMI", p)
r = subprocess.run(["tools/pebs-report", "-"], input=text.encode(), capture_output=True)
ok(r.returncode == 0 and r.stderr == b"", "pebs-report reads the log (exit 0, no complaints)",
   r.stderr.decode())

rc, text = log("--cpu", "haswell", "--seed", "7", "--assist-ns", "100")
p = pebs_lines(text)
v = verdicts(text, "pebs_overhead")
ok(p["load_l1"]["sav_tuned"] == "1009" and int(p["load_l1"]["sav"]) > 5000,
   "100 ns an assist at L1 speed (~9 %): sav retuned from 1009", p["load_l1"])
ok(v[0][0] == "ok" and "sav tuned 1009 -> %s after +" % p["load_l1"]["sav"] in v[0][1],
   "pebs_overhead passes after the retune and says so", v)
ok(float(p["load_l1"]["overhead"].rstrip("%")) <= 1.5, "retuned overhead near 1 %",
   p["load_l1"]["overhead"])
ok(all(100 <= int(x["rec_ns"]) <= 110 for x in p.values()), "rec_ns = the model's 100 ns",
   [x["rec_ns"] for x in p.values()])

rc, text = log("--cpu", "haswell", "--seed", "7", "--assist-ns", "100", "--sav", "1009")
v = verdicts(text, "pebs_overhead")
ok(v[0][0] == "not ok" and "limit 3%" in v[0][1] and "tuned" not in v[0][1],
   "--sav fixed: no retune, pebs_overhead fails naming the overhead", v)
r = subprocess.run(["tools/pebs-report", "-"], input=text.encode(), capture_output=True)
ok(r.returncode == 1 and b"pebs_overhead" in r.stdout, "pebs-report: the failure shows", r.stdout[-600:])
