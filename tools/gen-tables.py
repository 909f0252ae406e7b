#!/usr/bin/env python3
"""gen-tables.py: the per-model PMU tables, from Intel's perfmon data and the hand table.

Usage: tools/gen-tables.py [--check]   (run from the repository root; `make tables`)

Reads data/perfmon (tools/perfmon-snapshot.py), the hand table data/tables/uarch-*.toml (hand
facts + Linux's per-model choices), notes.toml (resolutions) and models.toml (names); writes pebs/pmu_tables.c (one event
row per family/model/core type, one data-source row per family/model/P-or-E core) and
docs/tables.md (coverage and every disagreement with its resolution). --check writes
nothing and fails when either file differs from what it would write (tests/scripts/
tables.t). Rules, in docs/tables.md: events come from perfmon where it lists them, counter
masks are the intersection of perfmon's and Linux's, and every difference between perfmon,
Linux and the hand table must have a [[note]] in notes.toml saying which one is followed.
"""
import csv
import glob
import json
import os
import re
import sys
import tomllib

import tables_doc

OUT_C, OUT_MD = "pebs/pmu_tables.c", "docs/tables.md"
PERFMON = "data/perfmon"
CORE_TYPE = {"0x40": 0x40, "0x20": 0x20, "": 0}
LINUX_QUIRKS = {"NHM_CTR_RESET", "MIN_PERIOD_32", "UCODE_GATE", "HT_ERRATUM", "HSW_PERIOD", "BDW_PERIOD",
                "TFA_PMC3", "LL_NEEDS_AUX"}


def die(msg):
    sys.exit(f"gen-tables: {msg}")


def key(fam, mod):
    return f"{fam:02X}_{mod:02X}"


def mask(counters):
    m = 0
    for c in str(counters).split(","):
        c = c.strip()
        if c.isdigit():
            m |= 1 << int(c)
    return m


def steppings(spec):
    """'' -> all; '[01234]' -> those; a single hex digit -> that one."""
    if not spec:
        return 0xffff
    return sum(1 << int(ch, 16) for ch in spec.strip("[]"))


def load_mapfile():
    rows = []
    with open(os.path.join(PERFMON, "mapfile.csv")) as f:
        for r in csv.DictReader(f):
            parts = r["Family-model"].split("-")
            rows.append({"family": int(parts[1]), "model": int(parts[2], 16),
                         "steppings": steppings(parts[3] if len(parts) > 3 else ""),
                         "file": r["Filename"].lstrip("/"),
                         "core_type": CORE_TYPE[r["Core Type"]],
                         "native": int(r["Native Model ID"] or "0", 16)})
    return rows


def perfmon_event(events, name, path, ll):
    """The event named `name` (load latency: its threshold variants) as (code, gp, name, errata)."""
    if not name:
        return None
    hits = [e for e in events if e["EventName"] == name or
            (ll and e["EventName"].startswith(name + "_") and "3F6" in e["MSRIndex"].upper())]
    if not hits:
        return None
    found = {(int(e["UMask"], 16) << 8 | int(e["EventCode"], 16),
              mask(e.get("PEBScounters") or e["Counter"])) for e in hits}
    if len(found) != 1:
        die(f"{path}: {name} variants disagree: {sorted(found)}")
    code, gp = found.pop()
    errata = sorted({x.strip() for e in hits for x in str(e.get("Errata", "")).split(",")
                     if x.strip() not in ("", "null", "0", "None")})
    label = hits[0]["EventName"] if len(hits) == 1 else name + ("_*" if ll else "")
    return {"event": code, "gp": gp, "name": label, "errata": errata}


def linux_pins(u):
    """{model: the Linux tree or commits its [linux] record was checked against}: `checked` is
    one string for all models or a table {pin: [models]}; every model needs exactly one."""
    lx = u["linux"]
    c = lx.get("checked")
    if c is None:
        die(f"{u['name']}: [linux] record without `checked` (the Linux tree or commit read)")
    if isinstance(c, str):
        return {k: c for k in lx["models"]}
    pins = {k: pin for pin, ks in c.items() for k in ks}
    bad = sorted(set(lx["models"]) ^ set(pins))
    if bad or sum(len(ks) for ks in c.values()) != len(pins):
        die(f"{u['name']}: `checked` must name each Linux model once ({', '.join(bad)})")
    return pins


class Tables:
    def __init__(self):
        self.uarchs = []
        for path in sorted(glob.glob("data/tables/uarch-*.toml")):
            with open(path, "rb") as f:
                self.uarchs += tomllib.load(f)["uarch"]
        with open("data/tables/notes.toml", "rb") as f:
            self.notes = tomllib.load(f)["note"]
        with open("data/tables/models.toml", "rb") as f:
            self.names = tomllib.load(f)["names"]
        with open("data/tables/linux-fixes.toml", "rb") as f:
            self.fixes = tomllib.load(f)["fix"]
        with open("data/tables/linux-oracle.toml", "rb") as f:
            lo = tomllib.load(f)
            self.oracle, self.ibs_oracle = lo["diff"], lo.get("ibs_diff", [])
        self.events = {}
        self.rows, self.diffs, self.uncovered = [], [], []
        self.pins = {}

    def file_events(self, path):
        if path not in self.events:
            with open(os.path.join(PERFMON, path)) as f:
                self.events[path] = json.load(f)["Events"]
        return self.events[path]

    def hand_for(self, m):
        hits = [u for u in self.uarchs if m["file"] in u.get("perfmon", []) and
                key(m["family"], m["model"]) in u.get("models", [key(m["family"], m["model"])])]
        if len(hits) > 1:
            die(f"{m['file']} {key(m['family'], m['model'])}: {len(hits)} hand entries")
        return hits[0] if hits else None

    def diff(self, u, row, field, perfmon, linux, ours):
        self.diffs.append({"uarch": u["name"], "model": row["key"], "core": row["core_type"],
                           "field": field, "perfmon": perfmon, "linux": linux, "ours": ours})

    def make_row(self, u, m, fam, mod):
        k = key(fam, mod)
        lx = u.get("linux", {})
        in_linux = k in lx.get("models", [])
        # a model Linux has no case for, with a core Linux drives under another model:
        # Linux's counter constraints for that core still apply (masks: rule 3)
        lx_masks = in_linux or k in lx.get("same_core", [])
        row = {"key": k, "family": fam, "model": mod, "core_type": m["core_type"],
               "native": m["native"], "steppings": m["steppings"], "hand": u,
               "files": [m["file"]] if m["file"] else [], "pm": {}}
        for kind in ("ll", "st", "aux"):
            ev = perfmon_event(self.file_events(m["file"]), u.get(kind), m["file"],
                               kind == "ll") if m["file"] else None
            if u.get(kind) and m["file"] and ev is None:
                die(f"{m['file']}: no {u[kind]} (hand entry {u['name']})")
            row["pm"][kind] = ev
            lx_ev, lx_gp = lx.get(kind, 0) if lx_masks else 0, lx.get(kind + "_gp")
            if ev and lx_ev and ev["event"] != lx_ev:
                self.diff(u, row, kind, hex(ev["event"]), hex(lx_ev), hex(ev["event"]))
            if m["file"] and not ev and lx_ev and in_linux:	# perfmon silent, Linux not
                self.diff(u, row, kind, "none in " + m["file"].split("/")[-1], hex(lx_ev),
                          hex(lx_ev))
            event = ev["event"] if ev else lx_ev
            gp = ev["gp"] if ev else (lx_gp or 0)
            if ev and lx_masks and lx_gp is not None and kind != "aux":
                gp = ev["gp"] & lx_gp
                if not gp:
                    die(f"{k} {u['name']}: {kind} counters 0x{ev['gp']:x} (perfmon) and "
                        f"0x{lx_gp:x} (Linux) have none in common")
                if ev["gp"] != lx_gp:
                    self.diff(u, row, kind + "_gp", hex(ev["gp"]), hex(lx_gp), hex(gp))
            row[kind], row[kind + "_gp"] = event, gp
        if in_linux:
            ours_q = set(u.get("quirks", [])) & LINUX_QUIRKS
            lx_q = set(lx.get("quirks", []))
            if ours_q != lx_q:
                self.diff(u, row, "quirks", "-", " ".join(sorted(lx_q)) or "-",
                          " ".join(sorted(ours_q)) or "-")
            if lx.get("dsrc", "NONE") != u["dsrc"]:
                self.diff(u, row, "dsrc", "-", lx.get("dsrc", "NONE"), u["dsrc"])
            if lx.get("no_tlb", False) != (u["dsrc"] == "NHM"):
                self.diff(u, row, "no_tlb", "-", str(lx.get("no_tlb", False)).lower(),
                          str(u["dsrc"] == "NHM").lower())
        elif m["file"]:
            self.diff(u, row, "model", "event file " + m["file"], "no model case",
                      "row from perfmon")
        return row

    def build(self):
        mapfile = load_mapfile()
        seen = set()
        for m in mapfile:
            u = self.hand_for(m)
            if u is None:
                self.uncovered.append(m)
                continue
            row = self.make_row(u, m, m["family"], m["model"])
            self.merge(row)
            seen.add(row["key"])
        for u in self.uarchs:	# Linux models perfmon has no event file for
            for k in u.get("linux", {}).get("models", []):
                if k in seen:
                    continue
                fam, mod = (int(x, 16) for x in k.split("_"))
                m = {"file": "", "core_type": 0, "native": 0, "steppings": 0xffff}
                row = self.make_row(u, m, fam, mod)
                self.diff(u, row, "model", "no event file", "model case", "row from Linux")
                self.merge(row)
        self.rows.sort(key=lambda r: (r["family"], r["model"], -r["core_type"], -r["native"]))
        for u in self.uarchs:
            lx = u.get("linux", {})
            for k in lx.get("models", []):
                if not any(r["key"] == k and r["hand"] is u for r in self.rows):
                    die(f"{u['name']}: Linux model {k} has no row (a hybrid model perfmon "
                        "lists under another entry?)")
            if lx:
                self.pins[u["name"], tuple(lx["models"])] = linux_pins(u)

    def merge(self, row):
        """Mapfile rows that differ only in stepping or event file (06_55 SKX/CLX) become one."""
        fields = ("ll", "ll_gp", "st", "st_gp", "aux")
        for r in self.rows:
            if (r["key"], r["core_type"], r["native"]) != (row["key"], row["core_type"],
                                                           row["native"]):
                continue
            if r["hand"] is not row["hand"] or any(r[f] != row[f] for f in fields):
                die(f"{row['key']} core 0x{row['core_type']:x}: two rows disagree "
                    "(split by stepping is not supported: extend gen-tables.py)")
            r["steppings"] |= row["steppings"]
            r["files"] += row["files"]
            return
        self.rows.append(row)


def main():
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    t = Tables()
    t.build()
    with open(os.path.join(PERFMON, "ORIGIN")) as f:
        origin = dict(line.split(": ", 1) for line in f.read().splitlines() if ": " in line)
    out = {OUT_C: tables_doc.c_file(t, origin), OUT_MD: tables_doc.md_file(t, origin)}
    missing = tables_doc.unresolved(t)
    if missing:
        die("disagreements without a [[note]] in data/tables/notes.toml:\n  " +
            "\n  ".join(missing))
    stale = [p for p, text in out.items() if not os.path.exists(p) or open(p).read() != text]
    if "--check" in sys.argv[1:]:
        for p in stale:
            print(f"gen-tables: {p} is stale: run `make tables`", file=sys.stderr)
        sys.exit(1 if stale else 0)
    for p in stale:
        with open(p, "w") as f:
            f.write(out[p])
    print(f"gen-tables: {len(t.rows)} event rows, {len(tables_doc.ds_rows(t))} data-source "
          f"rows, {len(t.diffs)} disagreements; wrote {', '.join(stale) or 'nothing (up to date)'}")


if __name__ == "__main__":
    main()
