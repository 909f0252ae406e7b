#!/usr/bin/env python3
# history.t: the history database on SQLite (`pebs-report --db sqlite:///FILE ingest|changes`):
# the cases of history_cases.py (every fixture log ingested with its numbers, verdicts and
# damage; idempotent ingest; one run captured twice is one run; schema migration; changes
# since the previous run and against peers on a synthetic lab of build/host/model-log logs),
# plus what only a file database has: a plain path, and a directory given as the database.
import os
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
