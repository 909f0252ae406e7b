#!/usr/bin/env python3
"""perfmon-snapshot.py: cut the vendored subset of Intel's perfmon event data.

Usage: tools/perfmon-snapshot.py PERFMON [--rev REV] [--out data/perfmon]

PERFMON is a checkout of https://github.com/intel/perfmon: a work tree (mapfile.csv at its
top) or a bare git directory, read at REV (default HEAD) with `git show`. The output is
what tools/gen-tables.py reads and nothing more:

  mapfile.csv           the rows whose EventType is core or hybridcore
  <dir>/events/<f>.json per core event file: its Header (Info, Version, DatePublished) and
                        only the memory events the tables use (the load-latency events,
                        MSRIndex 0x3F6; the store events; LD_BLOCKS.STORE_FORWARD 0x03/0x82,
                        the event Linux calls mem-loads-aux), with only the fields used
  ORIGIN                repository, commit, commit date
  LICENSE               perfmon's licence, as is

The run is deterministic (sorted keys, fixed order), so re-running it on the same commit
gives no diff. See docs/tables.md.
"""
import argparse
import csv
import io
import json
import os
import re
import subprocess
import sys

FIELDS = ("EventName", "EventCode", "UMask", "Counter", "PEBScounters", "MSRIndex",
          "MSRValue", "Data_LA", "Errata")
STORE_NAMES = re.compile(r"STORE_SAMPLE$|STORE_LATENCY$|PRECISE_STORE$|\.ALL_STORES$|"
                         r"^MEM_STORE_RETIRED\.DTLB_MISS$")
CORE_TYPES = ("core", "hybridcore")


class Source:
    """Files of one perfmon revision, from a work tree or through git show."""

    def __init__(self, path, rev):
        self.path, self.rev = path, rev
        self.tree = os.path.isfile(os.path.join(path, "mapfile.csv"))

    def read(self, name):
        name = name.lstrip("/")
        if self.tree:
            with open(os.path.join(self.path, name), "rb") as f:
                return f.read()
        return self.git("show", f"{self.rev}:{name}")

    def git(self, *args):
        r = subprocess.run(["git", "-C", self.path, *args], capture_output=True)
        if r.returncode:
            sys.exit(f"perfmon-snapshot: git {' '.join(args)}: {r.stderr.decode().strip()}")
        return r.stdout

    def origin(self):
        fmt = "%H%n%cI"
        out = self.git("log", "-1", f"--format={fmt}", self.rev).decode().split("\n")
        return out[0], out[1]


def wanted(ev):
    if "3F6" in str(ev.get("MSRIndex", "")).upper():
        return True
    if STORE_NAMES.search(ev["EventName"]):
        return True
    codes = str(ev.get("EventCode", "")).split(",")	# a few events list two codes
    return len(codes) == 1 and int(codes[0], 16) == 0x03 and int(ev["UMask"], 16) == 0x82


def cut_events(raw, name):
    doc = json.loads(raw)
    if not isinstance(doc, dict) or "Events" not in doc:
        sys.exit(f"perfmon-snapshot: {name}: no Header/Events object")
    head = {k: doc["Header"].get(k, "") for k in ("Info", "Version", "DatePublished")}
    events = [{k: ev[k] for k in FIELDS if k in ev} for ev in doc["Events"] if wanted(ev)]
    events.sort(key=lambda e: e["EventName"])
    return {"Header": head, "Events": events}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("perfmon")
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--out", default="data/perfmon")
    a = ap.parse_args()
    src = Source(a.perfmon, a.rev)

    rows = list(csv.reader(io.StringIO(src.read("mapfile.csv").decode())))
    head, body = rows[0], [r for r in rows[1:] if len(r) > 3]
    col = {n: i for i, n in enumerate(head)}
    keep = [r for r in body if r[col["EventType"]] in CORE_TYPES]
    keep.sort(key=lambda r: (r[col["Family-model"]], r[col["Filename"]]))

    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "mapfile.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(head)
        w.writerows(keep)
    for name in sorted({r[col["Filename"]] for r in keep}):
        doc = cut_events(src.read(name), name)
        path = os.path.join(a.out, name.lstrip("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:	# one event a line: small, and diffs read per event
            f.write('{"Header": %s,\n "Events": [\n' % json.dumps(doc["Header"], sort_keys=True))
            f.write(",\n".join("  " + json.dumps(e, sort_keys=True) for e in doc["Events"]))
            f.write("\n]}\n")
    commit, date = src.origin()
    with open(os.path.join(a.out, "ORIGIN"), "w") as f:
        f.write("repository: https://github.com/intel/perfmon\n"
                f"commit: {commit}\ncommit-date: {date}\n"
                "cut by: tools/perfmon-snapshot.py (core event files: load-latency, store "
                "and mem-loads-aux events only)\n")
    with open(os.path.join(a.out, "LICENSE"), "wb") as f:
        f.write(src.read("LICENSE"))
    print(f"perfmon-snapshot: {len(keep)} mapfile rows, "
          f"{len({r[col['Filename']] for r in keep})} core event files -> {a.out}")


if __name__ == "__main__":
    main()
