#!/usr/bin/env python3
# dashboard.t: `pebs-report --db URL html DIR` in a real headless Chromium (Debian's chromium,
# a test dependency: scripts/install-deps.sh --test, called here when it is missing; without
# it the test SKIPs with the reason). A database of a synthetic lab (histgen.py: model-log
# runs, one machine with a planted DRAM regression) and the fleet fixture (damaged and
# unreadable logs), plus a machine whose name holds HTML's special characters. Checks: a page
# per machine and per CPU model, every link and asset local and present, no script; every
# page loads without a console error (exceptions, console.error, failed loads: cdp.py), and
# a page with planted errors is caught; every number the pages show (`data-measure` cells)
# equals the database's value, and a page with one number changed is caught; the planted
# change is on its machine's page; screenshots of the fleet and of a machine page are taken
# (kept in build/dashboard/ for a person to look at).
import os
import re
import shutil
import subprocess
import sys
import tempfile
import json

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, "tests/scripts")
sys.path.insert(0, "tools")
from taplib import done, ok  # noqa: E402
import cdp  # noqa: E402
import histgen  # noqa: E402
from pebsreport import db, site  # noqa: E402

exe = cdp.find()
if not exe:
    p = subprocess.run(["scripts/install-deps.sh", "--test"], capture_output=True, text=True)
    exe = cdp.find()
    if not exe:
        print("1..0 # SKIP no chromium: scripts/install-deps.sh --test: %s" % (
            (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1][:200]))
        sys.exit(0)
tmp = tempfile.mkdtemp(prefix="dashboard-t.")
SHOTS = "build/dashboard"
lab = os.path.join(tmp, "lab")
histgen.lab(lab, 8, 4, slow=("m001-ice",))
for n in os.listdir("tests/fixtures/fleet"):
    if n.endswith(".log"):
        shutil.copy(os.path.join("tests/fixtures/fleet", n), lab)
odd = open("tests/fixtures/fleet/skl-05.log", "rb").read()
with open(os.path.join(lab, "odd.log"), "wb") as f:
    f.write(b"pebs-lab: machine='rack3/<b>node&1' bios=\"9.9\"\r\n" + odd)
url = "sqlite:///" + os.path.join(tmp, "h.db")
out = os.path.join(tmp, "site")
p = subprocess.run(["tools/pebs-report", "--db", url, "ingest", lab], capture_output=True,
                   text=True)
p = subprocess.run(["tools/pebs-report", "--db", url, "html", out], capture_output=True,
                   text=True)
ok(p.returncode == 0 and os.path.isfile(os.path.join(out, "index.html")),
   "html DIR writes the site", p.stdout + p.stderr)
d = db.DB(url)
runs = d.runs()
machines = sorted({r["machine"] for r in runs})
values = {(r["run_key"], n): v for r in runs for n, v in d.measures_named(site.SHOWN).get(
    r["id"], {}).items()}
d.close()
pages = sorted(os.path.relpath(os.path.join(dp, f), out) for dp, _, fs in os.walk(out)
               for f in fs if f.endswith(".html"))
ok(all("machines/%s.html" % site._slug(m) in pages for m in machines) and
   "changes.html" in pages and any(p.startswith("models/") for p in pages),
   "a page per machine (%d), per CPU model, the changes" % len(machines), pages)
bad_refs, scripts = [], []
for pg in pages:
    text = open(os.path.join(out, pg), encoding="utf-8").read()
    if "<script" in text:
        scripts.append(pg)
    for ref in re.findall(r'(?:src|href)="([^"#]+)', text):
        target = os.path.normpath(os.path.join(out, os.path.dirname(pg), ref))
        if "//" in ref or ref.startswith("/") or not os.path.isfile(target):
            bad_refs.append((pg, ref))
ok(not bad_refs and not scripts, "every link and asset local and present; no script",
   (bad_refs[:10], scripts))
odd_page = os.path.join(out, "machines", site._slug("rack3/<b>node&1") + ".html")
ok(os.path.isfile(odd_page) and "rack3/&lt;b&gt;node&amp;1" in open(odd_page).read(),
   "a machine name with HTML's special characters is escaped", odd_page)

JS = ('JSON.stringify([...document.querySelectorAll("[data-measure]")].map('
      'e => [e.dataset.run, e.dataset.measure, e.textContent]))')


def mismatches(cells):
    bad = []
    for key, name, text in cells:
        v = values.get((key, name))
        want = "-" if v is None else site._num(v, name)
        if text != want:
            bad.append((key, name, text, want))
    return bad


b = cdp.Browser(exe)
try:
    errors = {}
    cells = {}
    for pg in pages:
        e = b.load("file://" + os.path.join(out, pg))
        if e:
            errors[pg] = e
        cells[pg] = [tuple(c) for c in json.loads(b.eval(JS))]
    ok(not errors, "%d pages load in Chromium without a console error" % len(pages), errors)
    idx = cells["index.html"]
    ok(len(idx) == 8 * len(machines) and not mismatches(idx),
       "fleet page: %d numbers, each equal to the database's" % len(idx), mismatches(idx)[:10])
    allcells = [c for pg in pages for c in cells[pg]]
    ok(len(allcells) > len(idx) and not mismatches(allcells),
       "every page: %d numbers equal to the database's" % len(allcells),
       mismatches(allcells)[:10])
    mp = "machines/m001-ice.html"
    last = [r for r in runs if r["machine"] == "m001-ice"][-1]
    b.load("file://" + os.path.join(out, mp))
    text = b.eval("document.body.innerText")
    ok("DRAM.ns" in text and "microcode 0x100 -> 0x101" in text and
       any(c[0] == last["run_key"] and c[1] == "DRAM.ns" for c in cells[mp]),
       "the planted regression is on its machine's page with its cause", text[:1500])
    os.makedirs(SHOTS, exist_ok=True)
    b.load("file://" + os.path.join(out, "index.html"))
    b.screenshot(os.path.join(SHOTS, "index.png"))
    b.load("file://" + os.path.join(out, mp))
    b.screenshot(os.path.join(SHOTS, "machine.png"))
    heads = [open(os.path.join(SHOTS, f), "rb").read(24) for f in ("index.png", "machine.png")]
    ok(all(h[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(h[16:20], "big") == 1280
           for h in heads), "screenshots taken: %s/index.png, machine.png (1280 px wide)"
       % SHOTS)
    # the checks can fail: planted console errors, a changed number
    broken = os.path.join(out, "broken.html")
    with open(broken, "w") as f:
        f.write(open(os.path.join(out, "index.html")).read().replace(
            "style.css", "missing.css").replace("</body>", "<script>nofn()</script></body>"))
    e = b.load("file://" + broken)
    ok(any("missing.css" in x for x in e) and any("nofn" in x for x in e),
       "a page with a missing asset and a script error is caught", e)
    key, name, text0 = next(c for c in idx if c[2] != "-")
    changed = [c if c != (key, name, text0) else (key, name, text0 + "1") for c in idx]
    ok(len(mismatches(changed)) == 1, "a number that differs from the database is caught")
finally:
    b.close()
shutil.rmtree(tmp)
done()
