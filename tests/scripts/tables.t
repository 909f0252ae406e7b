#!/usr/bin/env python3
# tables.t: the generated per-model PMU tables (docs/tables.md). (1) Staleness: `make tables`
# would change nothing, and a copy of the inputs with one edit makes --check fail. (2)
# Reconciliation, read back from the committed pebs/pmu_tables.c (not from the generator's
# own data structures): every row against Linux's per-model record in data/tables/uarch-*.toml
# (named with the Linux tree or commits the record was checked against, its `checked` pin)
# and against the vendored perfmon event file it cites; a model Linux has no case for but
# whose core it drives (`same_core`) keeps Linux's masks; every mapfile core type and every
# Linux model has a row; every event row has a data-source row of the same core. (3) The
# records pinned to a Linux release are re-checked against that release's source (Debian's
# linux-source tarball, tests/scripts/linux_src.py): each model is an intel_pmu_init case and
# each load/store event with its counter mask is a PEBS constraint in ds.c.
import csv
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import linux_src  # noqa: E402
from tap import Tap  # noqa: E402

tap = Tap()
ok = tap.ok


def gen(root, *args):
    return subprocess.run([sys.executable, os.path.join(root, "tools/gen-tables.py"), *args],
                          capture_output=True, text=True)


# ---- (1) staleness ----
r = gen(".", "--check")
ok(r.returncode == 0, "make tables: pebs/pmu_tables.c and docs/tables.md are up to date",
   r.stderr)
tmp = tempfile.mkdtemp(prefix="tables-t.")
for d in ("tools", "data", "pebs", "docs"):
    os.makedirs(os.path.join(tmp, d))
for f in ("tools/gen-tables.py", "tools/tables_doc.py", "tools/tables_md.py",
          "pebs/pmu_tables.c", "docs/tables.md"):
    shutil.copy(f, os.path.join(tmp, f))
shutil.copytree("data/perfmon", os.path.join(tmp, "data/perfmon"))
shutil.copytree("data/tables", os.path.join(tmp, "data/tables"))
ok(gen(tmp, "--check").returncode == 0, "the copied inputs reproduce the committed files")
with open(os.path.join(tmp, "pebs/pmu_tables.c"), "a") as f:
    f.write("/* hand edit */\n")
r = gen(tmp, "--check")
ok(r.returncode == 1 and "pmu_tables.c is stale" in r.stderr, "a hand-edited table is stale",
   r.stderr)
gen(tmp)
toml = os.path.join(tmp, "data/tables/uarch-core.toml")
text = open(toml).read().replace('name = "Skylake"\nperfmon', 'name = "Skylake!"\nperfmon', 1)
open(toml, "w").write(text)
r = gen(tmp, "--check")
ok(r.returncode == 1 and "stale" in r.stderr, "an edit of the hand table makes both stale",
   r.stderr)
shutil.rmtree(tmp)

# ---- (2) reconciliation, from the committed C ----
ROW = re.compile(r"\{\t/\* (?P<key>\w\w_\w\w) (?P<cmt>.*?) \*/\n(?P<body>.*?)\n\t\},", re.S)
FIELD = re.compile(r"\.(\w+) = (\"(?:[^\"\\]|\\.)*\"|[^,\n]+)")
src = open("pebs/pmu_tables.c").read()
ev_part, ds_part = src.split("pebs_model_table[] = {")
rows = []
for m in ROW.finditer(ev_part):
    f = {k: v for k, v in FIELD.findall(m.group("body"))}
    files = re.findall(r"[\w-]+/events/\w+\.json", m.group("cmt"))
    hand = re.search(r'hand "([^"]+)"', m.group("cmt")).group(1)
    rows.append({"key": m.group("key"), "hand": hand, "files": files,
                 **{k: int(f[k], 0) for k in ("family", "model", "core_type", "native",
                                              "ll_event", "ll_gp", "st_event", "st_gp",
                                              "aux_event")},
                 "dsrc": f["dsrc"].replace("DSRC_", "")})
ds = {}
for m in re.finditer(r"\.family = (\w+), \.model = (\w+), \.core = PEBS_CORE_(\w)"
                     r".*?\.table = PEBS_DS_(\w+)", ds_part, re.S):
    ds[(int(m.group(1), 0), int(m.group(2), 0), m.group(3))] = m.group(4)
hand = {"uarch": [u for p in sorted(glob.glob("data/tables/uarch-*.toml"))
                  for u in tomllib.load(open(p, "rb"))["uarch"]]}
notes = {(x["uarch"], x["field"]) for x in tomllib.load(open("data/tables/notes.toml", "rb"))["note"]}
ok(len(rows) == src.count("\t{\t/* ") and rows, f"parsed {len(rows)} event rows")


def pin(u, key):
    c = u.get("linux", {}).get("checked")
    if isinstance(c, str):
        return c
    return next((p for p, ks in (c or {}).items() if key in ks), None)


def entry(row):
    cands = [u for u in hand["uarch"] if u["name"] == row["hand"] and
             (set(row["files"]) & set(u.get("perfmon", [])) or
              (not row["files"] and row["key"] in u.get("linux", {}).get("models", [])))]
    return cands[0] if len(cands) == 1 else None


def perfmon_gp(path, code):
    evs = json.load(open(os.path.join("data/perfmon", path)))["Events"]
    gps = {int(e.get("PEBScounters") and sum(1 << int(c) for c in e["PEBScounters"].split(","))
               or sum(1 << int(c) for c in e["Counter"].split(",") if c.strip().isdigit()))
           for e in evs if int(e["UMask"], 16) << 8 | int(e["EventCode"], 16) == code}
    return gps


for row in rows:
    u, what = entry(row), f"{row['key']} core 0x{row['core_type']:x} {row['hand']}"
    bad = [] if u else ["no single hand entry"]
    lx = u.get("linux", {}) if u else {}
    checked = pin(u, row["key"]) if u else None
    if u and row["key"] in lx.get("models", []) and not checked:
        bad.append("Linux record without a `checked` pin for this model")
    if u and row["key"] in lx.get("same_core", []):	# Linux's masks for the same core
        for kind, gp in (("ll", "ll_gp"), ("st", "st_gp")):
            if kind + "_gp" in lx and row[gp] & ~lx[kind + "_gp"]:
                bad.append(f"{gp} 0x{row[gp]:x} outside Linux's 0x{lx[kind + '_gp']:x} "
                           "for the same core")
    if u and row["key"] in lx.get("models", []):
        for kind, ev, gp in (("ll", "ll_event", "ll_gp"), ("st", "st_event", "st_gp")):
            if lx.get(kind) and row[ev] != lx[kind]:
                bad.append(f"{ev} 0x{row[ev]:x} != Linux 0x{lx[kind]:x}")
            if kind + "_gp" in lx and row[gp] & ~lx[kind + "_gp"]:
                bad.append(f"{gp} 0x{row[gp]:x} outside Linux's 0x{lx[kind + '_gp']:x}")
        if lx.get("aux", 0) != row["aux_event"]:
            bad.append(f"aux 0x{row['aux_event']:x} != Linux 0x{lx.get('aux', 0):x}")
        if lx.get("dsrc", "NONE") != row["dsrc"] and (u["name"], "dsrc") not in notes:
            bad.append(f"dsrc {row['dsrc']} != Linux {lx.get('dsrc')} and no note")
    elif u and (u["name"], "model") not in notes:
        bad.append("not a Linux model and no note says why")
    for path in row["files"]:
        for ev, gp in (("ll_event", "ll_gp"), ("st_event", "st_gp"), ("aux_event", None)):
            kind = ev.split("_")[0]
            if not row[ev] or (u and not u.get(kind) and (u["name"], kind) in notes):
                continue	# perfmon names no such event; a note says Linux is followed
            gps = perfmon_gp(path, row[ev])
            if not gps:
                bad.append(f"{path} has no event 0x{row[ev]:04x}")
            elif gp and any(row[gp] & ~g for g in gps):
                bad.append(f"{gp} 0x{row[gp]:x} outside perfmon's {sorted(map(hex, gps))}")
    core = (u or {}).get("core", "?")
    table = row["dsrc"]
    got = ds.get((row["family"], row["model"], core))
    if got != table:
        bad.append(f"data-source row {core}: {got}, event row says {table}")
    lxs = (f"Linux ({checked or 'no pin'})" if u and row["key"] in lx.get("models", [])
           else "its notes (not a Linux model)")
    ok(not bad, f"{what}: agrees with {lxs}, perfmon and its data-source row", "\n".join(bad))

# coverage: every mapfile core type and every Linux model has an event row
keys = {(r["family"], r["model"], r["core_type"], r["native"]) for r in rows}
missing = []
for m in csv.DictReader(open("data/perfmon/mapfile.csv")):
    p = m["Family-model"].split("-")
    k = (int(p[1]), int(p[2], 16), int(m["Core Type"] or "0", 16),
         int(m["Native Model ID"] or "0", 16))
    if k not in keys:
        missing.append(m["Family-model"] + " " + m["Filename"])
ok(not missing, "every perfmon mapfile core row has an event row", "\n".join(missing))
lmodels = {k for u in hand["uarch"] for k in u.get("linux", {}).get("models", [])}
have = {r["key"] for r in rows}
ok(lmodels <= have, f"every Linux model in the hand table ({len(lmodels)}) has a row",
   " ".join(sorted(lmodels - have)))

# text that the code has overtaken (audit N-4, N-6): arch PEBS is driven, CPUID 23H narrows
stale = [n["uarch"] + ": " + w for n in tomllib.load(open("data/tables/notes.toml", "rb"))["note"]
         for w in ("SKIPs arch PEBS", "may widen") if w in n["why"]]
arch_driven = "pebs_arch_caps_reason" in open("pebs/caps.c").read()
ok(not (stale and arch_driven), "no note says arch PEBS is skipped or that CPUID 23H widens "
   "Linux's masks", "\n".join(stale))

# ---- (3) the records pinned to a Linux release, against that release's source ----
src = linux_src.tree()
if src is None:
    tap.ok(True, f"# SKIP Linux release pins: no {linux_src.TARBALL} (Debian linux-source-6.12)")
else:
    ver = linux_src.kernel_version(src)
    cases = linux_src.pmu_init_cases(src)
    ds_c = open(os.path.join(src, "arch/x86/events/intel/ds.c")).read()
    constraints = {(int(a, 16), int(b, 16)) for a, b in
                   re.findall(r"_CONSTRAINT\w*\((0x[0-9a-fA-F]+),\s*(0x[0-9a-fA-F]+)\)", ds_c)}
    checked_n = 0
    for u in hand["uarch"]:
        lx = u.get("linux", {})
        keys = [k for k in lx.get("models", []) if (pin(u, k) or "").startswith(f"Linux v{ver} ")]
        if not keys:
            continue
        checked_n += len(keys)
        bad = [f"{k}: no intel_pmu_init case in v{ver}" for k in keys if k not in cases]
        for kind in ("ll", "st"):
            if lx.get(kind) and (lx[kind], lx[kind + "_gp"]) not in constraints:
                bad.append(f"{kind} 0x{lx[kind]:x} on 0x{lx[kind + '_gp']:x}: no such PEBS "
                           f"constraint in v{ver} ds.c")
        ok(not bad, f"{u['name']} ({', '.join(keys)}): as in Linux v{ver}", "\n".join(bad))
    ok(checked_n > 0, f"{checked_n} model records pinned to the installed Linux v{ver}",
       f"no record names 'Linux v{ver} '")
sys.exit(tap.done())
