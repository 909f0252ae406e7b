#!/usr/bin/env python3
# ibs_oracle.t: Linux's own IBS data-source decoding as the oracle (issue 31), as
# linux_oracle.t does for Intel. From the installed Debian linux-source tarball
# (tests/scripts/linux_src.py; nothing of Linux enters the repository) it extracts
# arch/x86/events/amd/ibs.c's decode functions (perf_ibs_get_mem_op, perf_ibs_get_op_data2 with
# erratum 1293, perf_ibs_get_mem_lvl with g_data_src/g_zen4_data_src, perf_ibs_get_mem_snoop,
# perf_ibs_get_tlb_lvl, perf_ibs_get_mem_lock, perf_ibs_get_data_src), amd-ibs.h's
# IBS_OP_DATA2/3 unions and the uapi perf_mem_data_src, builds them under
# tests/oracle/ibs_shim.h with tests/oracle/ibs_glue.c into build/ibs-oracle/, and decodes
# IBS_OP_DATA2/DATA3 combinations (tests/oracle/ibs_oracle_driver.c) through Linux and through
# ibs/ibs_decode.c. Level, snoop, hit, remote, STLB miss and lock are compared wherever ours
# claims a value ("?" = no claim); every difference must be listed in
# data/tables/linux-oracle.toml ([[ibs_diff]], printed in docs/tables.md) with its reason, and
# every listed one must still occur. What 6.12 predates (Zen 6 RmtSocket/StrmSt, the ldlat
# filter, DataSrc 12's name) is said, not compared.
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
OUT = "build/ibs-oracle"

src = linux_src.tree()
if src is None:
    tap.ok(True, f"# SKIP no {linux_src.TARBALL} (Debian linux-source-6.12)")
    sys.exit(tap.done())
ver = linux_src.kernel_version(src)
ibs = open(os.path.join(src, "arch/x86/events/amd/ibs.c")).read()
hdr = open(os.path.join(src, "arch/x86/include/asm/amd-ibs.h")).read()
uapi = open(os.path.join(src, "include/uapi/linux/perf_event.h")).read()

le = uapi[uapi.index("#if defined(__LITTLE_ENDIAN_BITFIELD)\nunion perf_mem_data_src"):]
parts = ['#include "tests/oracle/ibs_shim.h"\n#include "tests/oracle/ibs_glue.h"\n',
         f"/* extracted from Linux {ver} ({linux_src.version()}) by {sys.argv[0]} */\n",
         block(le, r"^union perf_mem_data_src", "union perf_mem_data_src"),
         "struct perf_sample_data { union perf_mem_data_src data_src; };\n\n",
         defines(uapi, "PERF_MEM_"), defines(hdr, "IBS_DATA_SRC_"),
         block(hdr, r"^union ibs_op_data2", "union ibs_op_data2"),
         block(hdr, r"^union ibs_op_data3", "union ibs_op_data3"),
         "".join(re.findall(r"^#define\s+(?:L|LN|REM|HOPS|RMT_NODE_\w+|ZEN4_RMT_NODE_\w+|"
                            r"ibs_op_msr_idx)\b(?:.*\\\n)*.*\n", ibs, re.M))]
for name in ("static void perf_ibs_get_mem_op", "static u8 perf_ibs_data_src",
             "static u64 g_data_src", "static u64 g_zen4_data_src",
             "static __u64 perf_ibs_get_mem_lvl", "static bool perf_ibs_cache_hit_st_valid",
             "static void perf_ibs_get_mem_snoop", "static void perf_ibs_get_tlb_lvl",
             "static void perf_ibs_get_mem_lock", "static void perf_ibs_get_data_src",
             "static __u64 perf_ibs_get_op_data2"):
    parts.append(block(ibs, "^" + re.escape(name) + r"\b", name))
parts.append('#include "tests/oracle/ibs_glue.c"\n')
os.makedirs(OUT, exist_ok=True)
open(os.path.join(OUT, "linux_part.c"), "w").write("".join(parts))
exe = os.path.join(OUT, "oracle")
cc = [os.environ.get("CC", "cc"), "-std=gnu11", "-O1", "-I.", "-Wall", "-Wno-unused-function",
      "-o", exe, os.path.join(OUT, "linux_part.c"), "tests/oracle/ibs_oracle_driver.c",
      "ibs/ibs_decode.c", "ibs/ibs_tables.c", "sample/names.c", "sample/aggregate.c"]
r = subprocess.run(cc, capture_output=True, text=True)
tap.ok(r.returncode == 0, f"Linux {ver} ibs.c data-source code builds with the shim", r.stderr)
if r.returncode:
    sys.exit(tap.done())
n = int(subprocess.run([exe], capture_output=True, text=True).stdout or 0)
runs = [subprocess.run([exe, str(i)], capture_output=True, text=True) for i in range(n)]
tap.ok(n > 0 and all(r.returncode == 0 for r in runs), "the driver decodes every combination",
       "".join(r.stdout[-500:] + r.stderr for r in runs))
out = "".join(r.stdout for r in runs)

FIELDS = ("level", "snoop", "hit", "remote", "stlb", "lock")
known = tomllib.load(open("data/tables/linux-oracle.toml", "rb")).get("ibs_diff", [])
seen = {i: 0 for i in range(len(known))}
per = {}
for line in out.splitlines():
    head, lx, ours = (x.split() for x in line.split(" | "))
    cfg, table, d2, d3 = head[0], head[1], int(head[2], 16), int(head[3], 16)
    code = (d2 & 7) | ((d2 >> 6) & 3) << 3
    p = per.setdefault(cfg, {"table": table, "n": 0, "diffs": [], "documented": 0})
    p["n"] += 1
    for f, a, b in zip(FIELDS, lx, ours):
        if b == "?" or a == b:
            continue  # we claim nothing, or we agree
        hit = [i for i, k in enumerate(known) if k["field"] == f and
               re.fullmatch(k["linux"], a) and k["ours"] == b and re.fullmatch(k["configs"], cfg)
               and code in k["codes"] and (d3 & k.get("data3_mask", 0)) == k.get("data3", 0)]
        if hit:
            seen[hit[0]] += 1
            p["documented"] += 1
        else:
            p["diffs"].append(f"{cfg} DATA2 0x{d2:03x} DATA3 0x{d3:x} {f}: Linux {a}, ours {b}")
for cfg, p in per.items():
    tap.ok(not p["diffs"], f"{cfg} ({p['table']}): {p['n']} DATA2/DATA3 pairs through Linux "
           f"{ver} and ours, {p['documented']} documented differences, {len(p['diffs'])} "
           "undocumented", "\n".join(p["diffs"][:30]))
stale = [f"{k['configs']} {k['field']} codes {k['codes']}: {k['why'][:60]}"
         for i, k in enumerate(known) if not seen[i]]
tap.ok(not stale, "every [[ibs_diff]] data/tables/linux-oracle.toml lists still occurs",
       "\n".join(stale))
print(f"# not compared: Zen 6 DATA2 RmtSocket/StrmSt and the load-latency filter: Linux {ver} "
      "predates them (tip e267b4178134, 898138efc990); tests/host/ibs_ldlat_test.c covers them")
sys.exit(tap.done())
