#!/usr/bin/env python3
# history.t: the history database on SQLite (`pebs-report --db sqlite:///FILE ingest|changes`):
# the cases of history_cases.py (every fixture log ingested with its numbers, verdicts and
# damage; idempotent ingest; one run captured twice is one run; schema migration; changes
# since the previous run and against peers on a synthetic lab of build/host/model-log logs),
# plus what only a file database has: a plain path, and a directory given as the database;
# bad arguments (an unknown URL, html into a file); mutated logs (make fuzz's mutations) that
# never crash ingest, changes or html; and every query answered from an index.
import os
import random
import shutil
import sys
import tempfile

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, "tests/scripts")
from taplib import done, ok  # noqa: E402
import history_cases  # noqa: E402

tmp = tempfile.mkdtemp(prefix="history-t.")
n = [0]


def fresh():
    n[0] += 1
    return "sqlite:///" + os.path.join(tmp, "h%d.db" % n[0])


history_cases.cases(fresh, tmp, "sqlite")
path = os.path.join(tmp, "plain.db")
rc, out, err = history_cases.run("--db", path, "ingest", "tests/fixtures/fleet/skl-01.log")
ok(rc == 0 and os.path.isfile(path) and "1 run(s) added" in out,
   "sqlite: a plain path is a database file", (rc, out, err))
rc, out, err = history_cases.run("--db", tmp, "ingest", "tests/fixtures/fleet/skl-01.log")
ok(rc == 2 and "is a directory" in err and "Traceback" not in err,
   "sqlite: a directory as the database: exit 2 with the reason", (rc, err))
rc, out, err = history_cases.run("--db", "mysql://lab/x", "ingest", "tests/fixtures/fleet")
ok(rc == 2 and "unknown database URL" in err, "an unknown URL scheme: exit 2 with the reason",
   (rc, err))
afile = os.path.join(tmp, "afile")
open(afile, "w").close()
rc, out, err = history_cases.run("--db", path, "html", afile)
ok(rc == 2 and "afile" in err and "Traceback" not in err,
   "html into a path that is a file: exit 2 with the reason", (rc, err))
# mutated copies of the fixture logs (make fuzz's mutations): every one stored, none crashes
sys.path.insert(0, "tests/fuzz")
from log_fuzz import mutate  # noqa: E402
rng = random.Random(33)
fz = os.path.join(tmp, "fuzz")
os.makedirs(fz)
fix = sorted(f for f in os.listdir("tests/fixtures/fleet") if f.endswith(".log"))
for i in range(40):
    with open(os.path.join(fz, "f%02d.log" % i), "wb") as g:
        g.write(mutate(rng, open(os.path.join("tests/fixtures/fleet", fix[i % len(fix)]),
                                 "rb").read() or b"KTAP version 1\n"))
furl = "sqlite:///" + os.path.join(tmp, "fuzz.db")
rc, out, err = history_cases.run("--db", furl, "ingest", fz)
rc2, out2, err2 = history_cases.run("--db", furl, "changes")
rc3, out3, err3 = history_cases.run("--db", furl, "html", os.path.join(tmp, "fuzz-site"))
n = history_cases.query(furl, "SELECT COUNT(DISTINCT source) FROM runs")[0][0]
ok(rc == 0 and rc2 in (0, 1) and rc3 == 0 and "Traceback" not in err + err2 + err3 and
   n == len(os.listdir(fz)) - int(out.split("already stored")[0].split()[-1]) and n >= 35,
   "40 mutated logs: ingest, changes and html run, every distinct run stored (%d)" % n,
   (out, err[-800:], err2[-800:], err3[-800:]))
# the queries ingest, changes and html make are answered from indexes, not table scans
d = history_cases.db.DB(path)
plans = {}
for sql, args in (("SELECT 1 FROM runs WHERE run_key = ?", ("x",)),
                  ("SELECT run, name, value FROM measures WHERE name IN (?, ?)", ("L1.ns",
                                                                                 "L2.ns")),
                  ("SELECT run, name, value, unit FROM measures WHERE run IN (?, ?)", (1, 2)),
                  ("SELECT id FROM runs WHERE machine = ? ORDER BY time, id", ("m",)),
                  ("SELECT id FROM runs WHERE model = ?", ("m",)),
                  ("SELECT path FROM results WHERE run = ?", (1,))):
    plans[sql] = " | ".join(r[-1] for r in d.all("EXPLAIN QUERY PLAN " + sql, args))
d.close()
ok(all("USING" in p and "INDEX" in p and "SCAN" not in p for p in plans.values()),
   "sqlite: every query the history makes uses an index (EXPLAIN QUERY PLAN)",
   "\n".join("%s: %s" % x for x in plans.items()))
shutil.rmtree(tmp)
done()
