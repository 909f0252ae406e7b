"""db.py: the history database of `pebs-report --db URL ...` (docs/lab.md "History"): SQLite
(`sqlite:///path`, or a plain path: a file, nothing to start) or PostgreSQL
(`postgresql://...`, Debian's python3-psycopg2) with the same schema and the same SQL. The
schema is versioned: `schema_version` holds the number of the last migration applied, and
opening a database applies the missing ones in order, in one transaction each.

Tables: `runs` (one row per run: identity, machine, what it ran on, verdict counts, damage),
`results` (every test and subtest verdict of a run), `measures` (every number of a run:
name, value, unit). Queries by machine, model and time are indexed.
"""
import os
import time

# (version, statements); {serial} and {real} are the one dialect difference (column types)
MIGRATIONS = (
    (1, ("CREATE TABLE runs (id {serial} PRIMARY KEY, run_key TEXT NOT NULL UNIQUE, "
         "run_id TEXT, time TEXT, machine TEXT NOT NULL, source TEXT, model TEXT, cpu TEXT, "
         "microcode TEXT, bios TEXT, memory TEXT, options TEXT, version TEXT, "
         "output_format INTEGER, emulated INTEGER NOT NULL, status TEXT NOT NULL, "
         "pass INTEGER, fail INTEGER, skip INTEGER, total INTEGER, damage TEXT NOT NULL)",
         "CREATE TABLE results (run INTEGER NOT NULL REFERENCES runs(id), path TEXT NOT NULL,"
         " status TEXT NOT NULL, note TEXT)",
         "CREATE TABLE measures (run INTEGER NOT NULL REFERENCES runs(id), name TEXT NOT NULL,"
         " value {real} NOT NULL, unit TEXT NOT NULL)",
         "CREATE INDEX runs_machine ON runs (machine, time, id)",
         "CREATE INDEX runs_model ON runs (model, machine)",
         "CREATE INDEX results_run ON results (run)",
         "CREATE INDEX measures_run ON measures (run, name)")),
    # 2: the DIMM population (SMBIOS type 17, planned header line), for `changes`
    (2, ("ALTER TABLE runs ADD COLUMN dimms TEXT",
         "CREATE INDEX measures_name ON measures (name, run)")),
)
SCHEMA_VERSION = MIGRATIONS[-1][0]
MIGRATION_LOCK = 0x70656273     # PostgreSQL advisory lock key of migrations ("pebs")
RUN_COLUMNS = ("run_key", "run_id", "time", "machine", "source", "model", "cpu", "microcode",
               "bios", "memory", "dimms", "options", "version", "output_format", "emulated",
               "status", "pass", "fail", "skip", "total", "damage")


class DBError(Exception):
    pass


class DB:
    def __init__(self, url, upto=None):
        """Open (create) the database at url and migrate it to SCHEMA_VERSION (or `upto`)."""
        self.url = url
        if url.startswith(("postgresql://", "postgres://")):
            try:
                import psycopg2
            except ImportError:
                raise DBError("PostgreSQL needs psycopg2 (Debian: python3-psycopg2)")
            try:
                self.conn = psycopg2.connect(url)
            except psycopg2.Error as e:
                raise DBError("cannot connect to %s: %s" % (url, str(e).strip()))
            self.kind, self.ph = "postgresql", "%s"
            self.types = {"serial": "BIGSERIAL", "real": "DOUBLE PRECISION"}
        elif "://" in url and not url.startswith("sqlite:///"):
            raise DBError("unknown database URL (sqlite:///FILE, a path, or postgresql://...)")
        else:
            import sqlite3
            # SQLAlchemy's form: sqlite:///relative.db, sqlite:////absolute.db
            path = url[len("sqlite:///"):] if url.startswith("sqlite:///") else url
            if os.path.isdir(path):
                raise DBError("%s is a directory, not a database file" % path)
            try:
                # a second ingest waits for the first's write lock (migration included)
                self.conn = sqlite3.connect(path, timeout=120)
                self.conn.execute("PRAGMA foreign_keys = ON")
                # a run is committed whole or not at all; WAL: one sync per checkpoint
                for tries in range(600):	# another process may hold the write lock
                    try:
                        self.conn.execute("PRAGMA journal_mode = WAL")
                        break
                    except sqlite3.OperationalError as e:
                        if "locked" not in str(e) or tries == 599:
                            raise
                        time.sleep(0.1)
                self.conn.execute("PRAGMA synchronous = NORMAL")
            except sqlite3.Error as e:
                raise DBError("cannot open %s: %s" % (path, e))
            self.kind, self.ph = "sqlite", "?"
            self.types = {"serial": "INTEGER", "real": "REAL"}
        self.migrate(SCHEMA_VERSION if upto is None else upto)

    def q(self, sql, args=()):
        """Run one statement (placeholders written `?`); returns the cursor."""
        cur = self.conn.cursor()
        cur.execute(sql.replace("?", self.ph) if self.ph != "?" else sql, args)
        return cur

    def all(self, sql, args=()):
        return self.q(sql, args).fetchall()

    def version(self):
        try:
            row = self.all("SELECT version FROM schema_version")
        except Exception:
            self.conn.rollback()
            return 0
        return row[0][0] if row else 0

    def migrate(self, upto):
        """Apply the missing migrations up to `upto`. Two processes opening one new database
        at once: on PostgreSQL they queue on a session advisory lock; and on either server a
        statement that loses a race with a migration not made by this tool (PostgreSQL checks
        CREATE TABLE IF NOT EXISTS before it waits, then fails with a unique violation) is
        rolled back and the version read again."""
        if self.kind == "postgresql":
            self.q("SELECT pg_advisory_lock(?)", (MIGRATION_LOCK,))
            self.conn.commit()
        try:
            for tries in range(3):
                try:
                    return self._migrate(upto)
                except DBError:
                    raise
                except Exception:
                    self.conn.rollback()
                    if tries == 2:
                        raise
        finally:
            if self.kind == "postgresql":
                self.q("SELECT pg_advisory_unlock(?)", (MIGRATION_LOCK,))
                self.conn.commit()

    def _migrate(self, upto):
        have = self.version()
        if have > SCHEMA_VERSION:
            raise DBError("database schema version %d is newer than this pebs-report's %d"
                          % (have, SCHEMA_VERSION))
        if have == 0:
            self.q("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            self.conn.commit()
        for v, stmts in MIGRATIONS:
            if have < v <= upto:
                try:
                    if self.kind == "sqlite":
                        # SQLite runs DDL outside Python's implicit transactions: take the
                        # write lock first, so a second process waits here and then finds
                        # the migration done, instead of half of it ("table runs already
                        # exists")
                        self.conn.execute("BEGIN IMMEDIATE")
                        done = self.all("SELECT version FROM schema_version")
                        if done and done[0][0] >= v:
                            self.conn.commit()
                            have = max(have, done[0][0])
                            continue
                    for s in stmts:
                        self.q(s.format(**self.types))
                    self.q("DELETE FROM schema_version")
                    self.q("INSERT INTO schema_version (version) VALUES (?)", (v,))
                    self.conn.commit()
                except Exception:
                    self.conn.rollback()
                    if self.version() < v:      # not another process migrating meanwhile
                        raise
                have = max(have, v)

    def has_run(self, key):
        return bool(self.all("SELECT 1 FROM runs WHERE run_key = ?", (key,)))

    def stored(self, key):
        """(damage, number of results) of the stored run with this key, or None."""
        row = self.all("SELECT id, damage FROM runs WHERE run_key = ?", (key,))
        if not row:
            return None
        n = self.all("SELECT COUNT(*) FROM results WHERE run = ?", (row[0][0],))[0][0]
        return row[0][1], n

    def add_run(self, rec, replace=False):
        """Insert one run record (runinfo.read) with its results and measures, in one
        transaction. Returns False when a run with its key is already there, unless replace:
        then the stored run's rows are deleted in the same transaction first."""
        if replace:
            for t, col in (("results", "run"), ("measures", "run")):
                self.q("DELETE FROM %s WHERE %s IN (SELECT id FROM runs WHERE run_key = ?)"
                       % (t, col), (rec["key"],))
            self.q("DELETE FROM runs WHERE run_key = ?", (rec["key"],))
        elif self.has_run(rec["key"]):
            return False
        c = rec["counts"]
        vals = (rec["key"], rec["run_id"], rec["time"], rec["machine"], rec["source"],
                rec["model"], rec["cpu"], rec["microcode"], rec["bios"], rec["memory"],
                rec["dimms"], rec["options"], rec["version"], rec["output_format"]
                if isinstance(rec["output_format"], int) else None, int(rec["emulated"]),
                rec["status"], c.get("pass"), c.get("fail"), c.get("skip"), c.get("total"),
                "; ".join(rec["damage"]))
        try:
            cur = self.q("INSERT INTO runs (%s) VALUES (%s) RETURNING id" % (
                ", ".join(RUN_COLUMNS), ", ".join("?" * len(RUN_COLUMNS))), vals)
            rid = cur.fetchone()[0]
            cur.executemany("INSERT INTO results (run, path, status, note) VALUES (%s)" %
                            ", ".join([self.ph] * 4),
                            [(rid, p, s, n) for p, s, n in rec["results"]])
            cur.executemany("INSERT INTO measures (run, name, value, unit) VALUES (%s)" %
                            ", ".join([self.ph] * 4),
                            [(rid, n, v, u) for n, v, u in rec["measures"]])
            self.conn.commit()
        except Exception:
            self.conn.rollback()
            if self.has_run(rec["key"]):    # another ingest stored it meanwhile
                return False
            raise
        return True

    def runs(self, where="", args=()):
        """Run rows as dicts, oldest first (time, then ingest order)."""
        cols = ("id",) + RUN_COLUMNS
        rows = self.all("SELECT %s FROM runs %s ORDER BY machine, time, id" % (
            ", ".join(cols), where), args)
        return [dict(zip(cols, r)) for r in rows]

    def measures_of(self, ids):
        """{run id: {name: (value, unit)}} for the given runs."""
        out = {i: {} for i in ids}
        ids = list(ids)
        for i in range(0, len(ids), 500):
            part = ids[i:i + 500]
            for run, name, value, unit in self.all(
                    "SELECT run, name, value, unit FROM measures WHERE run IN (%s)" %
                    ", ".join("?" * len(part)), tuple(part)):
                out[run][name] = (value, unit)
        return out

    def measures_named(self, names):
        """{run id: {name: value}} of the named measures of every run (index measures_name)."""
        out = {}
        for run, name, value in self.all(
                "SELECT run, name, value FROM measures WHERE name IN (%s)" %
                ", ".join("?" * len(names)), tuple(names)):
            out.setdefault(run, {})[name] = value
        return out

    def close(self):
        self.conn.close()
