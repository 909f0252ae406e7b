#!/usr/bin/env python3
# layout.t: the layer rule of docs/HACKING.md holds (tools/layout-check.py), and the checker
# itself finds each kind of breach in a small tree planted with one. TAP.
#  1. the kernel folders of the Makefile (KDIRS) are exactly the checker's layers (plus boot/,
#     assembly only), so a new folder cannot escape the check;
#  2. this tree: no upward include, no include of init/, no headers or calls both ways
#     between two files of a folder (the calls from `nm` of build/kernel, built by make test);
#  3. planted trees: an upward include, an include of the top, headers both ways (also through
#     another header) and calls both ways are each reported, and a clean tree is not.
import os
import re
import subprocess
import sys
import shutil
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taplib import ok, skip, done  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHECK = os.path.join(ROOT, "tools", "layout-check.py")
sys.path.insert(0, os.path.join(ROOT, "tools"))
LAYERS = __import__("importlib").import_module("layout-check").LAYERS


def run(*args):
    p = subprocess.run([sys.executable, CHECK] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


mk = open(os.path.join(ROOT, "Makefile"), encoding="utf-8").read()
kdirs = re.search(r"^KDIRS\s*:=\s*(.*)$", mk, re.M).group(1).split()
ok(sorted(d for d in kdirs if d != "boot") == sorted(LAYERS), "KDIRS are the checked layers",
   f"Makefile KDIRS {kdirs}, layout-check.py LAYERS {LAYERS}")

objdir = os.path.join(ROOT, "build", "kernel")
if os.path.isdir(objdir):
    rc, out = run("--root", ROOT, "--objdir", objdir)
    ok(rc == 0 and not out.strip(), "this tree keeps the layer rule", out)
else:
    rc, out = run("--root", ROOT)
    ok(rc == 0 and not out.strip(), "this tree keeps the include rule", out)
    skip("calls both ways in this tree", "no build/kernel: build the kernel first")


PLANTED = []


def plant(files):
    d = tempfile.mkdtemp(prefix="layout-t-")
    PLANTED.append(d)
    for path, text in files.items():
        os.makedirs(os.path.join(d, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(d, path), "w", encoding="utf-8") as f:
            f.write(text)
    return d


clean = {"kernel/a.c": '#include "kernel/a.h"\n', "kernel/a.h": "",
         "pebs/p.c": '#include "kernel/a.h"\n#include "pebs/p.h"\n', "pebs/p.h": ""}
rc, out = run("--root", plant(clean))
ok(rc == 0 and not out, "a clean tree passes", out)

cases = [
    ("upward include", {"kernel/a.c": '#include "pebs/p.h"\n', "pebs/p.h": ""}, "up: kernel/a.c"),
    ("include of the top", {"ktests/t.c": '#include "init/init.h"\n', "init/init.h": ""},
     "top: ktests/t.c"),
    ("a sampler including its sibling", {"ibs/i.c": '#include "pebs/p.h"\n', "pebs/p.h": ""},
     "sibling: ibs/i.c"),
    ("headers both ways", {"kernel/a.c": '#include "kernel/b.h"\n', "kernel/a.h": "",
                           "kernel/b.c": '#include "kernel/a.h"\n', "kernel/b.h": ""},
     "headers: kernel/a includes kernel/b.h"),
    ("headers both ways through a header",
     {"kernel/a.c": '#include "kernel/c.h"\n', "kernel/c.h": '#include "kernel/b.h"\n',
      "kernel/b.c": '#include "kernel/a.h"\n', "kernel/a.h": "", "kernel/b.h": ""},
     "headers: kernel/a includes kernel/b.h"),
]
for name, files, want in cases:
    rc, out = run("--root", plant(files))
    ok(rc == 1 and want in out, "planted: " + name + " is reported", out)

# calls both ways: two objects that call each other, compiled here
# and a call from the core up into a test body, declared in a core header
d = plant({"kernel/x.c": "void y(void);\nvoid x(void) { y(); }\n",
           "kernel/y.c": "void x(void);\nvoid y(void) { x(); }\n",
           "kernel/z.c": "void x(void);\nint need(void);\nvoid z(void) { x(); need(); }\n",
           "ktests/n.c": "void x(void);\nint need(void) { x(); return 0; }\n"})
built = True
for n in ("kernel/x", "kernel/y", "kernel/z", "ktests/n"):
    os.makedirs(os.path.join(d, "obj", os.path.dirname(n)), exist_ok=True)
    built = built and subprocess.run(["gcc", "-c", "-o", os.path.join(d, "obj", n + ".o"),
                                      os.path.join(d, n + ".c")]).returncode == 0
if built:
    rc, out = run("--root", d, "--objdir", os.path.join(d, "obj"))
    ok(rc == 1 and "calls: kernel/x.c uses y of kernel/y.c" in out and "calls: kernel/z" not in out,
       "planted: calls both ways are reported, calls one way are not", out)
    ok("upcall: kernel/z.c uses need of ktests/n.c" in out and "upcall: ktests" not in out,
       "planted: a call up a layer is reported, calls down are not", out)
else:
    ok(False, "planted: calls both ways (gcc could not build the planted objects)")
for d in PLANTED:
    shutil.rmtree(d, ignore_errors=True)
done()
