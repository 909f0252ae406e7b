#!/usr/bin/env python3
# linux_oracle.t: Linux's own data-source decoders as the oracle. From the installed Debian
# linux-source tarball (tests/scripts/linux_src.py; nothing of Linux enters the repository)
# it extracts arch/x86/events/intel/ds.c's tables, their per-model patch functions and the
# decode functions (load_latency_data, store_latency_data, grt/cmt/lnc_latency_data) with
# the uapi perf_mem_data_src, builds them under tests/oracle/linux_shim.h with
# tests/oracle/linux_glue.c into build/linux-oracle/, and decodes every code of every table,
# with its STLB-miss and lock bits, through Linux and through pebs/datasrc.c
# (tests/oracle/oracle_driver.c). Level, snoop, hit, remote, STLB miss and lock are compared
# wherever our decoder claims a value ("?" = we say unknown: not a claim); every difference
# must be listed in data/tables/linux-oracle.toml with its reason (docs/tables.md prints
# them), and every listed difference must still occur. Tables newer than the tarball
# (Panther Cove, Arctic Wolf) are said to be out of its reach.
import os
import re
import subprocess
import sys
import tomllib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import linux_src  # noqa: E402
from linux_src import block, defines  # noqa: E402
from tap import Tap  # noqa: E402

tap = Tap()
OUT = "build/linux-oracle"


src = linux_src.tree()
if src is None:
    tap.ok(True, f"# SKIP no {linux_src.TARBALL} (Debian linux-source-6.12)")
    sys.exit(tap.done())
ver = linux_src.kernel_version(src)
ds = open(os.path.join(src, "arch/x86/events/intel/ds.c")).read()
uapi = open(os.path.join(src, "include/uapi/linux/perf_event.h")).read()
arch = open(os.path.join(src, "arch/x86/events/perf_event.h")).read()

le = uapi[uapi.index("#if defined(__LITTLE_ENDIAN_BITFIELD)\nunion perf_mem_data_src"):]
parts = ['#include "tests/oracle/linux_shim.h"\n#include "tests/oracle/linux_glue.h"\n',
         f"/* extracted from Linux {ver} ({linux_src.version()}) by {sys.argv[0]} */\n",
         block(le, r"^union perf_mem_data_src", "union perf_mem_data_src"),
         defines(uapi, "PERF_MEM_"), defines(arch, "PERF_PEBS_DATA_SOURCE_"),
         block(ds, r"^union intel_x86_pebs_dse", "union intel_x86_pebs_dse"),
         "".join(re.findall(r"^#define (?:P|OP_LH|LEVEL|REM|SNOOP_NONE_MISS)\b.*\n", ds, re.M))]
for name in ("static u64 pebs_data_source", "void __init intel_pmu_pebs_data_source_nhm",
             "static void __init __intel_pmu_pebs_data_source_skl",
             "static void __init __intel_pmu_pebs_data_source_grt",
             "static void __init __intel_pmu_pebs_data_source_cmt",
             "static u64 lnc_pebs_data_source", "static inline void pebs_set_tlb_lock",
             "static u64 __grt_latency_data", "u64 grt_latency_data", "u64 cmt_latency_data",
             "static u64 lnc_latency_data", "static u64 load_latency_data",
             "static u64 store_latency_data"):
    parts.append(block(ds, "^" + re.escape(name) + r"\b", name))
parts.append('#include "tests/oracle/linux_glue.c"\n')
os.makedirs(OUT, exist_ok=True)
open(os.path.join(OUT, "linux_part.c"), "w").write("".join(parts))
exe = os.path.join(OUT, "oracle")
cc = [os.environ.get("CC", "cc"), "-std=gnu11", "-O1", "-I.", "-Wall", "-Wno-unused-function",
      "-o", exe, os.path.join(OUT, "linux_part.c"), "tests/oracle/oracle_driver.c",
      "pebs/datasrc.c", "pebs/datasrc_tables.c", "pebs/datasrc_pantherc.c", "pebs/pmu_tables.c",
      "sample/names.c"]
r = subprocess.run(cc, capture_output=True, text=True)
tap.ok(r.returncode == 0, f"Linux {ver} ds.c data-source code builds with the shim", r.stderr)
if r.returncode:
    sys.exit(tap.done())
r = subprocess.run([exe], capture_output=True, text=True)
tap.ok(r.returncode == 0, "the driver decodes every table", r.stdout[-2000:] + r.stderr)

FIELDS = ("level", "snoop", "hit", "remote", "stlb", "lock")
known = tomllib.load(open("data/tables/linux-oracle.toml", "rb"))["diff"]
seen = {i: 0 for i in range(len(known))}
per = {}
for line in r.stdout.splitlines():
    head, lx, ours = (x.split() for x in line.split(" | "))
    cfg, table, word = head[0], head[1], int(head[2], 16)
    p = per.setdefault(cfg, {"table": table, "words": 0, "diffs": [], "documented": 0})
    p["words"] += 1
    for f, a, b in zip(FIELDS, lx, ours):
        if b == "?" or a == b:
            continue	# we claim nothing, or we agree
        hit = [i for i, k in enumerate(known) if k["field"] == f and
               re.fullmatch(k["linux"], a) and k["ours"] == b and re.fullmatch(k["configs"], cfg) and
               (word & k.get("code_mask", 0xff)) in k["codes"]]
        if hit:
            seen[hit[0]] += 1
            p["documented"] += 1
        else:
            p["diffs"].append(f"{cfg} word 0x{word:03x} {f}: Linux {a}, ours {b}")
for cfg, p in per.items():
    ok = not p["diffs"]
    tap.ok(ok, f"{cfg} ({p['table']}): {p['words']} words through Linux {ver} and ours, "
           f"{p['documented']} documented differences, {len(p['diffs'])} undocumented",
           "\n".join(p["diffs"][:30]))
stale = [f"{k['configs']} {k['field']} codes {k['codes']}: {k['why'][:60]}"
         for i, k in enumerate(known) if not seen[i]]
tap.ok(not stale, "every difference data/tables/linux-oracle.toml lists still occurs",
       "\n".join(stale))
print(f"# not compared: Panther Cove (pnc) and Arctic Wolf (arw): Linux {ver} predates them "
      "(tip d2bdcde9626c, 7cd264d1972d); tests/host/datasrc_pantherc_test.c has their goldens")
sys.exit(tap.done())
