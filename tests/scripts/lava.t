#!/usr/bin/env python3
# lava.t: the LAVA jobs of lava/ under Debian's lava-dispatcher (lava-run), set up by
# scripts/lava-local.sh. Job (a), lava/qemu-iso.yaml, runs for real: lava-run boots
# build/pebs-kernel.iso under QEMU and its monitors record the top-level KTAP results and the
# environment header; the test cases LAVA recorded (name, pass/fail/skip, the text after '#'
# in `units`) must equal what tools/pebs-report reads from the same serial log (LAVA's own
# copy of it, the `target` lines), and the measurement cases (`measurement`, `units`) must be
# every number of the log's load-kernel lines: ns per load, the timed cycles by its clock, the
# PEBS data-source shares. The same job replays recorded logs (tests/lava/replay in
# place of QEMU): a failing run, PEBS model logs, a log cut before `# EXIT` (the monitor must
# report it). The lab jobs (x86-grub-netboot, x86-usb-minimal) pass `lava-run --validate`
# against lava/devices/x86-board.yaml; validation checks the worker for a TFTP directory
# (/etc/default/tftpd-hpa) and for ipmitool, udevadm and in.tftpd, which a private mount namespace and
# stand-ins on PATH provide (it runs nothing of them).
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, "tests/scripts")
from taplib import done, ok, skip  # noqa: E402
ROOT = os.getcwd()



p = subprocess.run(["scripts/lava-local.sh"], capture_output=True, text=True)
if p.returncode:
    print("1..0 # SKIP lava-dispatcher not available here: %s" % p.stderr.strip()[-300:])
    sys.exit(0)
LAVA_RUN = os.path.join(ROOT, p.stdout.strip(), "lava-run")
ISO = os.path.join(ROOT, "build/pebs-kernel.iso")
if not os.path.exists(ISO):
    sys.exit(print("Bail out! %s missing (make iso)" % ISO) or 1)
tmp = tempfile.mkdtemp(prefix="lava-t.")


def job_file(src, name, iso=ISO):
    text = open(src).read().replace("file://@ISO@", "file://" + iso)
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def lava_run(job, device, validate=False, wrap=None):
    out = tempfile.mkdtemp(dir=tmp)
    cmd = [LAVA_RUN, "--job-id", "1", "--output-dir", out, "--device", device, job]
    if validate:
        cmd.insert(1, "--validate")
    p = subprocess.run(wrap(cmd) if wrap else cmd, capture_output=True, text=True, timeout=300)
    recs = []
    for line in (p.stdout + p.stderr).splitlines():
        try:
            recs.append(json.loads(line))
        except ValueError:
            pass
    return p.returncode, recs, p.stdout + p.stderr


def results(recs, definition):
    return [r["msg"] for r in recs if r.get("lvl") == "results" and
            r["msg"].get("definition") == definition]


def job_result(recs):
    return next((m["result"] for m in results(recs, "lava") if m["case"] == "job"), None)


def serial(recs):
    """The serial log as LAVA recorded it (its `target` lines)."""
    return "\n".join(r["msg"].replace('\\"', '"') for r in recs if r.get("lvl") == "target"
                     and isinstance(r["msg"], str)) + "\n"   # LAVA writes " as \\"


def expected(log_text):
    """Top-level tests and header lines as tools/pebs-report reads the log."""
    path = os.path.join(tmp, "serial.log")
    with open(path, "w") as f:
        f.write(log_text)
    doc = json.loads(subprocess.run(["tools/pebs-report", "--json", "--no-decode", path],
                                    capture_output=True, text=True).stdout)
    tests = []
    for t in doc["tests"]:
        note = t["reason"] if t["reason"] is not None else t["detail"] or ""
        if t.get("reason_ref"):     # log=brief: LAVA keeps the reference the log printed
            note = "same as " + t["reason_ref"]
        tests.append((t["name"], t["status"], note[:100]))
    env = {}
    for e in doc["environment"]:
        key = e["key"] or e["value"].split(" ")[0]
        val = e["value"] if e["key"] else e["value"].partition(" ")[2]
        if key == "cache":
            key, _, val = ("cache " + val).partition(" ")[2].partition(" ")
            key = "cache_" + key.lower()
        env[re.sub(r"\W+", "_", key.lower())] = val[:100]
    return doc, tests, env


def recorded(recs):
    """The KTAP cases LAVA recorded (the measurement cases' ids hold `<kernel>: <kind>`)."""
    return [(m["case"], m["result"], m.get("units") or "") for m in results(recs, "pebs-kernel")
            if ": " not in m["extra"]["test_case_id"]]


def measured(recs):
    """{case: (measurement, units)} of the measurement cases LAVA recorded."""
    return {m["case"]: (float(m["measurement"]) if m.get("measurement") is not None else None,
                        m.get("units"), m["result"])
            for m in results(recs, "pebs-kernel") if ": " in m["extra"]["test_case_id"]}


def numbers(doc):
    """The measurement cases the log's load-kernel lines make (lava/README.md): <kernel>_time
    ns per load, <kernel>_pebs the timed cycles by its clock, <kernel>_lvl_<level> shares."""
    def case(text):
        return re.sub(r"\W+", "_", text.lower())
    want = {}
    for k in doc["kernels"]:
        if k["time"]:
            want[case(k["kernel"] + ": time")] = (k["time"]["ns"], "ns", "pass")
        if k["pebs"] and k["pebs"]["timed"] is not None:
            want[case(k["kernel"] + ": pebs")] = (k["pebs"]["timed"], k["pebs"]["clock"], "pass")
        for lv in k["levels"]:
            want[case("%s: lvl %s" % (k["kernel"], lv["level"]))] = (lv["share"], "%", "pass")
    return want


# --- job (a) for real: QEMU boots the ISO, LAVA records the cases ---
device = os.path.join(ROOT, "lava/devices/qemu.yaml")
job = job_file("lava/qemu-iso.yaml", "qemu-iso.yaml")
rc, recs, raw = lava_run(job, device, validate=True)
ok(rc == 0 and job_result(recs) == "pass", "lava-run --validate lava/qemu-iso.yaml", raw[-1500:])
rc, recs, raw = lava_run(job, device)
ok(rc == 0 and job_result(recs) == "pass", "lava-run lava/qemu-iso.yaml: job passes", raw[-1500:])
log = serial(recs)
doc, want, env = expected(log)
got = recorded(recs)
ok(doc["status"] == 0 and len(want) == doc["plan"] and len(want) >= 10,
   "the serial log LAVA recorded is a complete passing run (%d tests)" % len(want),
   doc.get("reasons"))
ok(got == want, "LAVA's test cases = the log's top-level tests (name, result, text after #)",
   "\n".join("%s | %s" % (a, b) for a, b in zip(got + [None] * 20, want)))
nums = [(m["case"], m.get("measurement")) for m in results(recs, "pebs-kernel")
        if ": " not in m["extra"]["test_case_id"]]
ok(nums == [(t["name"], str(t["number"])) for t in doc["tests"]],
   "a verdict case's measurement is its test number", nums)
mgot, mwant = measured(recs), numbers(doc)
ok(mgot == mwant and len(mwant) >= 8 and all(u == "ns" for _, u, _ in mgot.values()),
   "LAVA recorded every number of the log: %d measurement cases (ns per load)" % len(mwant),
   "\n".join("%s | %s | %s" % (c, mgot.get(c), mwant.get(c)) for c in sorted(set(mgot) |
                                                                             set(mwant))))
ok(("pmu", "skip") in [(c, r) for c, r, _ in got] and
   any(c == "pmu" and u for c, r, u in got), "pmu recorded as skip with its reason", got)
genv = {m["case"]: m.get("units") or "" for m in results(recs, "pebs-kernel-environment")}
ok(genv and all(env.get(k) == v for k, v in genv.items()) and
   {"cpu", "tsc", "cache_l1d", "cache_l2", "cache_l3", "core_clock", "timing", "hypervisor",
    "pebs_kernel", "output_format"} <= set(genv),
   "environment header recorded: one case per stable line, value = the header's",
   json.dumps({k: (v, env.get(k)) for k, v in genv.items()}, indent=0))
mon = next((m for m in results(recs, "lava") if m["case"] == "lava-test-monitor"), {})
ok(mon.get("result") == "pass" and mon.get("extra", {}).get("status") == "passed",
   "the monitor saw the end string (# EXIT)", mon)
# LAVA's job log itself is a log tools/pebs-report reads (its `target` lines)
fleet = os.path.join(tmp, "fleet")
os.makedirs(fleet)
with open(os.path.join(fleet, "qemu-lava-job1.yaml"), "w") as f:
    f.write("".join("- %s\n" % json.dumps(r) for r in recs))
fd = json.loads(subprocess.run(["tools/pebs-report", "--fleet", fleet, "--json"],
                               capture_output=True, text=True).stdout)
row = (fd.get("machines") or [{}])[0]
ok(row.get("status") == "pass" and row.get("counts") == {k: doc["totals"][k] for k in (
    "pass", "fail", "skip", "total")} and not row.get("damage") and
   row.get("latency_ns", {}).get("DRAM"), "pebs-report --fleet reads LAVA's job log", row)

# --- the same job over recorded logs (tests/lava/replay in place of QEMU) ---
zen4 = os.path.join(tmp, "zen4.log")         # IBS: the same pebs/lvl lines (docs/ibs.md)
with open(zen4, "wb") as f:
    f.write(subprocess.run(["build/host/model-log", "--cpu", "zen4", "--seed", "3"],
                           capture_output=True, check=True).stdout.replace(b"\n", b"\r\n"))
dev = yaml.safe_load(open(device))
dev["actions"]["boot"]["methods"]["qemu"]["parameters"]["command"] = \
    os.path.join(ROOT, "tests/lava/replay")
for name, src, want_job in (
        ("failing run (#UD)", "tests/fixtures/pebs-report/qemu-format2-inject-ud.log", "pass"),
        ("PEBS model log, Skylake", "tests/fixtures/fleet/skl-04.log", "pass"),
        ("PEBS model log with a failed pebs_source", "tests/fixtures/fleet/icx-03.log", "pass"),
        ("QEMU Ice Lake-Server log", "tests/fixtures/fleet/qemu-icx-01.log", "pass"),
        ("AMD IBS model log, Zen 4", zen4, "pass")):
    dev["actions"]["boot"]["methods"]["qemu"]["parameters"]["options"] = [
        os.path.join(ROOT, src)]
    dpath = os.path.join(tmp, "replay-device.yaml")
    with open(dpath, "w") as f:
        yaml.safe_dump(dev, f)
    rc, recs, raw = lava_run(job, dpath)
    rdoc, want, _ = expected(open(src, "rb").read().decode("utf-8", "replace"))
    got = recorded(recs)
    ok(got == want and job_result(recs) == want_job,
       "replayed %s: LAVA's cases = the log's (%d, %d failed)" % (
           name, len(got), [r for _, r, _ in got].count("fail")),
       "\n".join("%s | %s" % (a, b) for a, b in zip(got + [None] * 20, want)) + raw[-800:])
    mgot, mwant = measured(recs), numbers(rdoc)
    units = sorted({u for _, u, _ in mwant.values()})
    ok(mgot == mwant and mwant, "replayed %s: LAVA recorded the log's %d numbers (%s)" % (
        name, len(mwant), ", ".join(units)),
       "\n".join("%s | %s | %s" % (c, mgot.get(c), mwant.get(c)) for c in sorted(
           set(mgot) | set(mwant))))
# a log cut before # EXIT: the monitor reports end of file, the job does not pass
cut = os.path.join(tmp, "cut.log")
with open(cut, "wb") as f:
    f.write(open("tests/fixtures/fleet/spr-04.log", "rb").read())
dev["actions"]["boot"]["methods"]["qemu"]["parameters"]["options"] = [cut]
with open(dpath, "w") as f:
    yaml.safe_dump(dev, f)
rc, recs, raw = lava_run(job, dpath)
mon = next((m for m in results(recs, "lava") if m["case"] == "lava-test-monitor"), {})
ok(job_result(recs) == "fail" and mon.get("result") != "pass" and
   "end of file" in raw, "a log cut before # EXIT: LAVA reports the monitor's end of file",
   raw[-1200:])

# --- the lab jobs: validation against the example board ---
fake = os.path.join(tmp, "bin")
os.makedirs(fake)
for tool in ("ipmitool", "udevadm", "in.tftpd"):
    with open(os.path.join(fake, tool), "w") as f:
        f.write("#!/bin/sh\nexit 0\n")
    os.chmod(os.path.join(fake, tool), 0o755)
etc = os.path.join(tmp, "etc-default")
shutil.copytree("/etc/default", etc, symlinks=True)
os.makedirs(os.path.join(tmp, "tftp"))
with open(os.path.join(etc, "tftpd-hpa"), "w") as f:
    f.write('TFTP_DIRECTORY="%s"\n' % os.path.join(tmp, "tftp"))
ns = subprocess.run(["unshare", "-m", "sh", "-c", "mount --bind %s /etc/default" % etc],
                    capture_output=True, text=True)
for j in ("x86-grub-netboot", "x86-usb-minimal"):
    if ns.returncode:
        skip("lava-run --validate lava/%s.yaml" % j, "no private mount namespace for the "
             "worker's TFTP configuration: %s" % ns.stderr.strip())
        continue

    def wrap(cmd):
        return ["env", "PATH=%s:%s" % (fake, os.environ["PATH"]), "unshare", "-m", "sh", "-c",
                'mount --bind "$0" /etc/default && exec "$@"', etc] + cmd
    # the job's kernel URL names the lab's web server: here the local ELF
    jpath = os.path.join(tmp, j + ".yaml")
    with open(jpath, "w") as f:
        f.write(re.sub(r"url: http://\S+", "url: file://" + os.path.join(
            ROOT, "build/pebs-kernel.elf"), open("lava/%s.yaml" % j).read()))
    rc, recs, raw = lava_run(jpath,
                             os.path.join(ROOT, "lava/devices/x86-board.yaml"), True, wrap)
    ok(rc == 0 and job_result(recs) == "pass", "lava-run --validate lava/%s.yaml" % j,
       raw[-1500:])

shutil.rmtree(tmp)
done()
