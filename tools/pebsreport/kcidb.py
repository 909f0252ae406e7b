"""kcidb.py: `pebs-report --kcidb LOG`: one run as KernelCI's KCIDB report (I/O schema 5.3,
data/kcidb/kcidb-io-schema-v5.3.json): a checkout and a build for the pebs-kernel version
that ran, one test per KTAP test and subtest (PASS/FAIL/SKIP, ERROR for one the run never
finished), and one test per number (status DONE, `number` with its unit: per load kernel the
ns, core cycles and TSC ticks per load, the PEBS purity and the target level's p50), all under
the path `pebs_kernel`, whose own test carries the run's verdict. The machine and what it
ran on (CPU, microcode, BIOS, memory, hypervisor) are the tests' `environment`; the run's
identity (runinfo.py) makes the ids, its time the `start_time`."""
import json
import re
import sys

from . import runinfo

ORIGIN = "pebs_kernel"
VERSION = {"major": 5, "minor": 3}
STATUS = {"pass": "PASS", "fail": "FAIL", "skip": "SKIP", "todo": "SKIP",
          "incomplete": "ERROR"}
RE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")


def _seg(name):
    """A path segment as the schema allows ([a-zA-Z0-9_-])."""
    return re.sub(r"[^A-Za-z0-9_-]+", "_", name) or "_"


def _text(s):
    return (s or "").replace("\0", "")


def document(rec):
    """The KCIDB document of a run record (runinfo.read)."""
    ver = rec["version"] or "unknown"
    checkout = "%s:%s" % (ORIGIN, ver)
    build = "%s:%s:x86_64" % (ORIGIN, ver)
    env = {"comment": _text(rec["machine"]),
           "misc": {k: rec[k] for k in ("machine", "model", "cpu", "microcode", "bios",
                                        "memory", "dimms", "options") if rec[k]}}
    if rec["doc"].get("hypervisor"):
        env["misc"]["hypervisor"] = rec["doc"]["hypervisor"]
    base = {"build_id": build, "origin": ORIGIN, "environment": env}
    if rec["time"] and RE_TIME.match(rec["time"]):
        base["start_time"] = rec["time"]
    run = rec["key"]
    root = dict(base, id="%s:%s" % (ORIGIN, run), path=ORIGIN,
                status={"pass": "PASS", "fail": "FAIL"}.get(rec["status"], "ERROR")
                if rec["status"] != "unreadable" else "MISS",
                misc={"run": run, "source": _text(rec["source"]), "counts": rec["counts"],
                      "damage": rec["damage"], "output_format": rec["output_format"]})
    tests = [root]
    for path, status, note in rec["results"]:
        p = ".".join([ORIGIN] + [_seg(x) for x in path.split("/")])
        t = dict(base, id="%s:%s:%s" % (ORIGIN, run, path), path=p, status=STATUS.get(
            status, "ERROR"))
        if note:
            t["misc"] = {"note": _text(note)}
        tests.append(t)
    for name, value, unit in rec["measures"]:
        kernel, _, what = name.rpartition(".")
        if kernel in ("L1", "L2", "L3", "DRAM"):
            continue                                # shorthands of load_l1 ... load_dram
        tests.append(dict(base, id="%s:%s:%s" % (ORIGIN, run, name),
                          path="%s.%s.%s" % (ORIGIN, _seg(kernel), _seg(what)),
                          status="DONE", number={"value": value, "unit": unit}))
    seen = {}
    for t in tests:                     # a damaged log may repeat a name: ids stay unique
        n = seen[t["id"]] = seen.get(t["id"], 0) + 1
        if n > 1:
            t["id"] += "#%d" % n
    return {"version": dict(VERSION),
            "checkouts": [{"id": checkout, "origin": ORIGIN, "tree_name": "pebs-kernel",
                           "valid": rec["version"] is not None,
                           "misc": {"describe": _text(ver)}}],
            "builds": [{"id": build, "checkout_id": checkout, "origin": ORIGIN,
                        "architecture": "x86_64", "config_name": "pebs-kernel.iso",
                        "status": "PASS" if rec["version"] else "MISS"}],
            "tests": tests}


def main(path):
    import os
    if not os.path.isfile(path):
        sys.stderr.write("pebs-report: --kcidb: no such file: %s\n" % path)
        return 2
    rec = runinfo.read(path)
    json.dump(document(rec), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    for d in rec["damage"]:
        sys.stderr.write("%s: %s\n" % (path, d))
    return exit_status(rec)


def exit_status(rec):
    """As the summary's: 0 passed, 1 failed or damaged, 2 unreadable."""
    return {"pass": 0, "unreadable": 2}.get(rec["status"], 1)
