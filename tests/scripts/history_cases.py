"""history_cases.py: the tests of the history database (`pebs-report --db URL ingest|changes`),
run by history.t against SQLite and by history_pg.t against a PostgreSQL server it starts:
the same cases on both. `cases(fresh, tmp)` takes a function that returns the URL of a new,
empty database and a scratch directory."""
import json
import os
import subprocess
import sys

sys.path.insert(0, "tools")
from taplib import ok  # noqa: E402
from pebsreport import db  # noqa: E402
import histgen  # noqa: E402

TOOL = "tools/pebs-report"
FIXTURES = ("tests/fixtures/fleet", "tests/fixtures/pebs-report")


def run(*args):
    p = subprocess.run([TOOL] + list(args), capture_output=True, timeout=600)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def logs_in(d):
    return sorted(n for n in os.listdir(d) if n.endswith(".log"))


def query(url, sql, args=()):
    d = db.DB(url)
    try:
        return d.all(sql, args)
    finally:
        d.close()


def measure(url, source, name):
    rows = query(url, "SELECT m.value FROM measures m JOIN runs r ON r.id = m.run "
                      "WHERE r.source = ? AND m.name = ?", (source, name))
    return rows[0][0] if rows else None


def cases(fresh, tmp, label):
    url = fresh()
    rc, out, err = run("--db", url, "ingest", *FIXTURES)
    files = sum(len(logs_in(d)) for d in FIXTURES)
    ok(rc == 0 and "%d run(s) added" % files in out and "Traceback" not in err,
       "%s: ingest of the fixture logs (fleet, every output format): %d runs" % (label, files),
       out + err)
    n = query(url, "SELECT COUNT(*) FROM runs")[0][0]
    ok(n == files, "%s: one run per log file (%d)" % (label, n))
    fmt = dict(query(url, "SELECT source, output_format FROM runs WHERE source IN "
                          "('qemu-format1.log', 'qemu-format2.log')"))
    ok(fmt == {"qemu-format1.log": 1, "qemu-format2.log": 2},
       "%s: output-format 1 and 2 logs stored with their format" % label, fmt)
    # numbers equal what pebs-report reads from the same log
    for src, path in (("skl-04.log", "tests/fixtures/fleet/skl-04.log"),
                      ("qemu-format1.log", "tests/fixtures/pebs-report/qemu-format1.log")):
        js = json.loads(run("--json", "--no-decode", path)[1])
        want = {}
        for k in js["kernels"]:
            if k["time"]:
                want[k["kernel"] + ".ns"] = k["time"]["ns"]
            if k["pebs"] and k["pebs"]["share"] is not None:
                want[k["kernel"] + ".purity"] = k["pebs"]["share"]
        got = {n: measure(url, src, n) for n in want}
        ok(want and got == want, "%s: %s: every kernel's ns and purity stored (%d values)" % (
            label, src, len(want)), json.dumps({k: (got[k], want[k]) for k in want}))
    res = query(url, "SELECT r.status, COUNT(*) FROM results r JOIN runs u ON u.id = r.run "
                     "WHERE u.source = 'icx-03.log' GROUP BY r.status")
    ok(dict(res).get("fail", 0) >= 1 and dict(res).get("pass", 0) >= 10,
       "%s: verdicts stored: icx-03's failed pebs_source and its passes" % label, res)
    dmg = dict(query(url, "SELECT source, damage FROM runs WHERE damage <> ''"))
    ok(dmg.get("rack2-node10.log", "").startswith("unreadable") and
       "restarted" in dmg.get("skl-06.log", "") and "truncated" in dmg.get("spr-04.log", "")
       and "garbled" in dmg.get("hsw-04.log", ""),
       "%s: damaged logs stored with their damage named" % label, dmg)
    # idempotent
    counts = [query(url, "SELECT COUNT(*) FROM %s" % t)[0][0] for t in ("runs", "results",
                                                                        "measures")]
    rc, out, err = run("--db", url, "ingest", *FIXTURES)
    ok(rc == 0 and "0 run(s) added" in out and "%d already stored" % files in out and
       [query(url, "SELECT COUNT(*) FROM %s" % t)[0][0] for t in ("runs", "results",
                                                                   "measures")] == counts,
       "%s: ingesting the directories again adds nothing" % label, out + err)
    # one run, two captures: same KTAP text with other line ends and boot noise; the same
    # run id on two consoles
    src = open("tests/fixtures/fleet/skl-01.log", "rb").read()
    two = os.path.join(tmp, "two-%s" % label)
    os.makedirs(two)
    with open(os.path.join(two, "a.log"), "wb") as f:
        f.write(src)
    with open(os.path.join(two, "b.log"), "wb") as f:
        f.write(b"\x1b[2J GRUB noise\n" + src.replace(b"\r\n", b"\n"))
    runline = b"# run: id=00c0ffee12345678 time=2026-11-24T10:00:00Z\r\n"
    for name, noise in (("c.log", b""), ("d.log", b"console 2\r\n")):
        with open(os.path.join(two, name), "wb") as f:
            f.write(noise + histgen.after_format(src, runline))
    url2 = fresh()
    rc, out, err = run("--db", url2, "ingest", two)
    keys = query(url2, "SELECT run_key, run_id, time FROM runs ORDER BY id")
    ok(rc == 0 and len(keys) == 2 and keys[0][0].startswith("sha256:") and
       keys[1] == ("run:00c0ffee12345678", "00c0ffee12345678", "2026-11-24T10:00:00Z"),
       "%s: one run captured twice is one run (content hash; `# run:` id and time)" % label,
       (keys, out, err))
    # two consoles of one run, one cut off: the complete capture is kept, in either order
    full = histgen.after_format(src, runline.replace(b"00c0ffee", b"0fedcba9"))
    for order in ((b"1-cut.log", full[:len(full) * 6 // 10]), (b"2-full.log", full)), \
            ((b"1-full.log", full), (b"2-cut.log", full[:len(full) * 6 // 10])):
        u = fresh()
        for name, data in order:
            with open(os.path.join(tmp, name.decode()), "wb") as f:
                f.write(data)
            rc, out, err = run("--db", u, "ingest", os.path.join(tmp, name.decode()))
        rows = query(u, "SELECT source, damage FROM runs")
        nres = query(u, "SELECT COUNT(*) FROM results")[0][0]
        ok(rc == 0 and len(rows) == 1 and rows[0][1] == "" and "full" in rows[0][0] and
           nres >= 20, "%s: one run on two consoles, one cut off: the complete capture is "
           "kept (%s first)" % (label, order[0][0].decode()[2:-4]), (rows, nres, out, err))
    # a bad run line: stored, damage named; a missing file: named, the rest stored
    bad = os.path.join(tmp, "badrun-%s.log" % label)
    with open(bad, "wb") as f:
        f.write(histgen.after_format(src, b"# run: id=\r\n"))
    rc, out, err = run("--db", url2, "ingest", bad, os.path.join(tmp, "no-such.log"))
    dmg = query(url2, "SELECT damage FROM runs WHERE source = ?", (os.path.basename(bad),))
    ok(rc == 1 and "no-such.log" in err and dmg and "run line unreadable" in dmg[0][0],
       "%s: a bad run line is stored as damage, a missing file named (exit 1)" % label,
       (rc, out, err, dmg))
    # two ingests of the same logs at once (a lab's capture hosts): each run stored once
    url3 = fresh()
    procs = [subprocess.Popen([TOOL, "--db", url3, "ingest", *FIXTURES],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    outs = [p.communicate(timeout=600) for p in procs]
    ok(all(p.returncode == 0 for p in procs) and
       query(url3, "SELECT COUNT(*) FROM runs")[0][0] == files and
       query(url3, "SELECT COUNT(DISTINCT run_key) FROM runs")[0][0] == files,
       "%s: two ingests of the same logs at once store each run once" % label,
       [(p.returncode, e.decode("utf-8", "replace")[-600:]) for p, (_, e) in
        zip(procs, outs)])
    _migration(fresh, label)
    _changes(fresh, tmp, label)


def _migration(fresh, label):
    url = fresh()
    old = db.DB(url, upto=1)
    old.q("INSERT INTO runs (run_key, machine, emulated, status, damage) VALUES "
          "('sha256:old', 'old-box', 0, 'pass', '')")
    old.conn.commit()
    v1 = old.version()
    old.close()
    rc, out, err = run("--db", url, "ingest", "tests/fixtures/fleet/skl-02.log")
    rows = query(url, "SELECT machine, dimms FROM runs ORDER BY id")
    ok(v1 == 1 and rc == 0 and query(url, "SELECT version FROM schema_version")[0][0] ==
       db.SCHEMA_VERSION and rows == [("old-box", None), ("skl-02", None)],
       "%s: a schema-1 database is migrated to %d, its runs kept" % (label, db.SCHEMA_VERSION),
       (v1, rc, out, err, rows))
    d = db.DB(url)
    d.q("UPDATE schema_version SET version = ?", (db.SCHEMA_VERSION + 1,))
    d.conn.commit()
    d.close()
    rc, out, err = run("--db", url, "ingest", "tests/fixtures/fleet/skl-03.log")
    ok(rc == 2 and "newer than this pebs-report" in err,
       "%s: a database of a newer schema is refused (exit 2)" % label, (rc, err))


def _changes(fresh, tmp, label):
    lab = os.path.join(tmp, "lab-%s" % label)
    histgen.lab(lab, 12, 4, slow=("m001-ice", "m005-ice"))
    url = fresh()
    run("--db", url, "ingest", lab)
    rc, out, err = run("--db", url, "changes", "--json")
    doc = json.loads(out) if rc in (0, 1) else {}
    prev = {(c["machine"], c["measure"]) for c in doc.get("changes", [])
            if c["against"] == "previous"}
    ok(rc == 1 and prev == {("m001-ice", "DRAM.ns"), ("m001-ice", "DRAM.core"),
                            ("m005-ice", "DRAM.ns"), ("m005-ice", "DRAM.core")},
       "%s: changes: the planted 30 %% slower DRAM, and only it, since the previous run"
       % label, (rc, sorted(prev), err))
    c = next((c for c in doc.get("changes", []) if c["machine"] == "m001-ice" and
              c["measure"] == "DRAM.ns"), {})
    ok(["microcode", "0x100", "0x101"] in c.get("context", []) and
       ["BIOS", "2.1", "2.2"] in c.get("context", []) and
       ["DIMMs", histgen.DIMMS[0].decode(), histgen.DIMMS[1].decode()] in c.get("context", [])
       and 1.25 < c["after"] / c["before"] < 1.35,
       "%s: the change comes with what else changed (microcode, BIOS, DIMMs)" % label, c)
    rc, out, err = run("--db", url, "changes", "m001-ice")
    ok(rc == 1 and "m001-ice: DRAM.ns" in out and "microcode 0x100 -> 0x101" in out and
       "m005" not in out, "%s: changes MACHINE: that machine's sentence" % label, out + err)
    rc, out, err = run("--db", url, "changes", "Skylake")
    ok(rc == 0 and "0 change(s)" in out, "%s: changes MODEL: Skylake machines, nothing moved"
       % label, out + err)
    rc, out, err = run("--db", url, "changes", "no-such-machine")
    ok(rc == 2 and "no run" in out, "%s: changes of an unknown machine: exit 2" % label,
       (rc, out))
