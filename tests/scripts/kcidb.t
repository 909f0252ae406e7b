#!/usr/bin/env python3
# kcidb.t: `pebs-report --kcidb LOG` against KernelCI's KCIDB I/O schema, kept as
# data/kcidb/kcidb-io-schema-v5.3.json (origin and licence: data/kcidb/README.md), validated
# with python3-jsonschema (a test dependency: scripts/install-deps.sh --test; without it the
# test SKIPs with the reason). Every fixture log (fleet, every output format, damaged and
# unreadable ones) gives a valid document; its tests are the log's verdicts and its
# measurements the log's numbers with their units; a run line gives the ids and start_time;
# documents made invalid on purpose are rejected (the validation can fail).
import copy
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.parse

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, "tests/scripts")
from taplib import done, ok  # noqa: E402

SCHEMA = "data/kcidb/kcidb-io-schema-v5.3.json"


def importable():
    try:
        import jsonschema  # noqa: F401
        return True
    except ImportError:
        return False


if not importable():
    sysp = "/usr/bin/python3"           # Debian's python3-jsonschema is this python's
    if os.path.realpath(sys.executable) != os.path.realpath(sysp) and os.path.exists(sysp) \
            and not os.environ.get("KCIDB_T_REEXEC"):
        if subprocess.run([sysp, "-c", "import jsonschema"], capture_output=True).returncode:
            subprocess.run(["scripts/install-deps.sh", "--test"], capture_output=True)
        os.environ["KCIDB_T_REEXEC"] = "1"
        os.execv(sysp, [sysp] + sys.argv)
    p = subprocess.run(["scripts/install-deps.sh", "--test"], capture_output=True, text=True)
    if not importable():
        print("1..0 # SKIP no jsonschema for %s: install-deps.sh --test: %s" % (
            sys.executable, (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1]))
        sys.exit(0)
import jsonschema  # noqa: E402
sys.path.insert(0, "tools")
from pebsreport import kcidb as kcidb_mod, report as report_mod, runinfo  # noqa: E402

schema = json.load(open(SCHEMA))
# the schema's two formats, checked here whatever optional checkers this jsonschema has
# (Debian's has neither rfc3339-validator nor rfc3987): RFC 3339 date-time, RFC 3986 URI
checker = jsonschema.FormatChecker()
RE_DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")


@checker.checks("date-time")
def _datetime(s):
    return not isinstance(s, str) or bool(RE_DATETIME.match(s)) and bool(
        datetime.datetime.fromisoformat(s.upper().replace("Z", "+00:00")))


@checker.checks("uri", raises=ValueError)
def _uri(s):
    return not isinstance(s, str) or bool(urllib.parse.urlsplit(s).scheme)


validator = jsonschema.Draft7Validator(schema, format_checker=checker)


def errors(doc):
    return ["%s: %s" % ("/".join(map(str, e.absolute_path)), e.message)
            for e in validator.iter_errors(doc)]


def kcidb(path):
    p = subprocess.run(["tools/pebs-report", "--kcidb", path], capture_output=True,
                       timeout=120)
    try:
        return p.returncode, json.loads(p.stdout), p.stderr.decode("utf-8", "replace")
    except ValueError:
        return p.returncode, None, p.stderr.decode("utf-8", "replace")


def report(path):
    p = subprocess.run(["tools/pebs-report", "--json", "--no-decode", path],
                       capture_output=True, timeout=120)
    return p.returncode, json.loads(p.stdout)


ok(schema["properties"]["version"]["properties"]["major"]["const"] == 5 and
   schema["properties"]["version"]["properties"]["minor"]["maximum"] == 3,
   "the kept schema is KCIDB I/O 5.3, the version pebs-report writes")
logs = [os.path.join(d, n) for d in ("tests/fixtures/fleet", "tests/fixtures/pebs-report")
        for n in sorted(os.listdir(d)) if n.endswith(".log")]
bad = {}
wrong_status = {}
for path in logs:           # in this process (the command line's own run: below)
    rec = runinfo.read(path)
    doc = kcidb_mod.document(rec)
    if errors(doc):
        bad[path] = errors(doc)[:3]
    rc = kcidb_mod.exit_status(rec)
    rrc = report_mod.load(path, decode_raw=False)[0]["status"]
    if rc != rrc:
        wrong_status[path] = (rc, rrc)
ok(not bad, "KCIDB documents of %d fixture logs (every format, damaged, unreadable) validate"
   % len(logs), json.dumps(bad, indent=1))
ok(not wrong_status, "--kcidb exits as the report does (0 pass, 1 fail or damaged, "
   "2 unreadable)", wrong_status)
rc, doc, err = kcidb("tests/fixtures/fleet/rack2-node10.log")
ok(rc == 2 and doc and not errors(doc) and doc["tests"][0]["status"] == "MISS" and
   "unreadable" in err, "an unreadable log: a valid document whose run is MISS, exit 2, the "
   "damage on stderr", (rc, err))

path = "tests/fixtures/fleet/icx-03.log"
rc, doc, _ = kcidb(path)
_, rep = report(path)
st = {"pass": "PASS", "fail": "FAIL", "skip": "SKIP"}
want = []


def walk(tests, pre):
    for t in tests:
        p = pre + "." + t["name"]
        want.append((p, st[t["status"]]))
        walk(t["subtests"], p)


walk(rep["tests"], "pebs_kernel")
got = [(t["path"], t["status"]) for t in doc["tests"] if t["status"] != "DONE"][1:]
ok(got == want and doc["tests"][0]["status"] == "FAIL" and "FAIL" in [s for _, s in got],
   "icx-03: one test per KTAP test and subtest, statuses equal (%d), the run FAIL" % len(got),
   "\n".join("%s | %s" % x for x in zip(got, want)))
nums = {t["path"]: t["number"] for t in doc["tests"] if t["status"] == "DONE"}
wantn = {}
for k in rep["kernels"]:
    if k["time"]:
        wantn["pebs_kernel.%s.ns" % k["kernel"]] = {"value": k["time"]["ns"], "unit": "ns"}
        if k["time"]["core"] is not None:
            wantn["pebs_kernel.%s.core" % k["kernel"]] = {"value": k["time"]["core"],
                                                         "unit": "cycles"}
    if k["pebs"] and k["pebs"]["share"] is not None:
        wantn["pebs_kernel.%s.purity" % k["kernel"]] = {"value": k["pebs"]["share"],
                                                       "unit": "%"}
ok(wantn and all(nums.get(p) == v for p, v in wantn.items()),
   "icx-03: measurements (DONE, number with unit) equal the log's ns, core cycles, purity "
   "(%d)" % len(wantn), json.dumps({p: (nums.get(p), v) for p, v in wantn.items()}))
ok(len({t["id"] for t in doc["tests"]}) == len(doc["tests"]), "test ids are unique")
env = doc["tests"][0]["environment"]["misc"]
ok(env.get("machine") == "icx-03" and env.get("microcode") == "0xd000390",
   "the environment names the machine and its microcode", env)

# a run line gives the identity and the start time
fd, tmp = tempfile.mkstemp(prefix="kcidb-t.", suffix=".log")
os.close(fd)
src = open("tests/fixtures/fleet/skl-01.log", "rb").read()
with open(tmp, "wb") as f:
    f.write(re.sub(rb"(# output-format: \d+\r\n)", lambda m: m.group(1) + b"# run: "
                   b"id=1234abcd5678ef90 time=2026-11-24T10:00:00Z\r\n", src, count=1))
rc, doc, err = kcidb(tmp)
ok(rc == 0 and not errors(doc) and all(t["id"].startswith("pebs_kernel:run:1234abcd5678ef90")
                                       and t.get("start_time") == "2026-11-24T10:00:00Z"
                                       for t in doc["tests"]),
   "a `# run:` line gives every test's id and start_time", (rc, err))
os.unlink(tmp)

# the validation can fail
broken = []
for change in (lambda d: d["tests"][1].update(status="OK"),
               lambda d: d["tests"][1].update(path="pebs kernel/x"),
               lambda d: d["tests"][-1]["number"].pop("value"),
               lambda d: d["tests"][0].update(start_time="yesterday"),
               lambda d: d["tests"][0].update(log_url="not a URI"),
               lambda d: d["version"].update(major=4)):
    d = copy.deepcopy(doc)
    change(d)
    broken.append(bool(errors(d)))
ok(all(broken), "documents made invalid (status, path, number, start_time, log_url, version) are "
   "rejected", broken)
rc, doc, err = kcidb("tests/no-such.log")
ok(rc == 2 and doc is None and "no such file" in err, "a missing file: exit 2, the reason",
   (rc, err))
done()
