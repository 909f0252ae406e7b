#!/usr/bin/env python3
"""layout-check.py: the layer rule of docs/HACKING.md, checked from the tree and the kernel's
object files. Exit 0 when clean; otherwise one line per breach, exit 1.

Checks:
  up       a file includes a header of a folder above its own in LAYERS
  top      anything includes a header of the top folder (init/)
  sibling  one sampler includes the other (pebs/ and ibs/ share only sample/)
  headers  two files include each other's headers (a.c includes b.h and b.c includes a.h)
  calls    two files of one folder call each other's functions both ways (from `nm` of the
           kernel objects: what each defines and what each leaves undefined)
  upcall   a file uses a function or variable defined in a folder above its own (or in its
           sibling), whatever header declared it

Usage: layout-check.py [--objdir build/kernel] [--root .]
"""
import argparse
import os
import re
import subprocess
import sys

# Lowest first; a folder may include its own headers and those of every folder before it.
LAYERS = ["kernel", "platform", "apic", "smp", "sample", "pebs", "ibs", "loads", "ktests",
          "init"]
TOP = "init"
# Siblings: layers side by side that never include each other (the two samplers).
SIBLINGS = [{"pebs", "ibs"}]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(root):
    for d in LAYERS:
        p = os.path.join(root, d)
        if not os.path.isdir(p):
            continue
        for name in sorted(os.listdir(p)):
            if name.endswith((".c", ".h")):
                yield f"{d}/{name}"


def includes(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return INCLUDE.findall(f.read())


def check_includes(root):
    out = []
    inc = {p: includes(root, p) for p in sources(root)}
    for p, hs in inc.items():
        d = p.split("/")[0]
        for h in hs:
            hd = h.split("/")[0]
            if hd not in LAYERS:
                continue
            if hd == TOP and d != TOP:
                out.append(f"top: {p} includes {h}")
            elif d != hd and {d, hd} in SIBLINGS:
                out.append(f"sibling: {p} ({d}) includes {h} ({hd})")
            elif LAYERS.index(hd) > LAYERS.index(d):
                out.append(f"up: {p} ({d}) includes {h} ({hd})")
    # headers both ways: what unit a (a.c, a.h) includes, directly or through other headers,
    # holds b.h, and what unit b includes holds a.h
    def closure(start):
        todo, got = list(start), set()
        while todo:
            h = todo.pop()
            if h in got:
                continue
            got.add(h)
            todo.extend(inc.get(h, []))
        return got
    units = {p[:-2] for p in inc if p.endswith(".c")}
    reach = {}
    for u in units:
        direct = inc.get(u + ".c", []) + inc.get(u + ".h", [])
        reach[u] = {h[:-2] for h in closure(direct) if h.endswith(".h")} - {u}
    for a in sorted(units):
        for b in sorted(reach[a]):
            if b in units and a < b and a in reach[b]:
                out.append(f"headers: {a} includes {b}.h and {b} includes {a}.h")
    return out


def nm_symbols(obj):
    res = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in res.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDBR":
            defined.add(parts[2])
    return defined, undefined


def check_calls(objdir):
    out = []
    objs = {}
    for d in LAYERS:
        p = os.path.join(objdir, d)
        if os.path.isdir(p):
            for n in sorted(os.listdir(p)):
                if n.endswith(".o"):
                    objs[f"{d}/{n[:-2]}"] = nm_symbols(os.path.join(p, n))
    owner = {s: o for o, (defined, _) in objs.items() for s in defined}
    for o, (_, undefined) in objs.items():
        d = o.split("/")[0]
        for s in sorted(undefined):
            od = owner.get(s, "").split("/")[0]
            if od and od != d and (LAYERS.index(od) > LAYERS.index(d) or {d, od} in SIBLINGS):
                out.append(f"upcall: {o}.c uses {s} of {owner[s]}.c")
    names = sorted(objs)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if a.split("/")[0] != b.split("/")[0]:
                continue
            ab = objs[a][1] & objs[b][0]   # a uses b's
            ba = objs[b][1] & objs[a][0]   # b uses a's
            if ab and ba:
                out.append(f"calls: {a}.c uses {sorted(ab)[0]} of {b}.c and {b}.c uses "
                           f"{sorted(ba)[0]} of {a}.c")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=".")
    ap.add_argument("--objdir", default=None, help="kernel objects (build/kernel); "
                    "without it the calls check is left out")
    a = ap.parse_args()
    out = check_includes(a.root)
    if a.objdir:
        if not os.path.isdir(a.objdir):
            print(f"layout-check: no object directory {a.objdir} (build the kernel first)",
                  file=sys.stderr)
            return 2
        out += check_calls(a.objdir)
    for line in out:
        print(line)
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main())
