#!/usr/bin/env python3
# history_pg.t: the history database on PostgreSQL (`pebs-report --db postgresql://...`): the
# same cases as history.t (history_cases.py) against a real server that this test starts
# itself: Debian's postgresql (initdb, pg_ctl), as an unprivileged user when run as root (CI
# is root; the server refuses root): `nobody` through runuser, with its own data directory
# and Unix socket in a fresh temporary directory and no TCP port, so two runs side by side
# never meet. PostgreSQL and python3-psycopg2 are test dependencies (scripts/install-deps.sh
# --test, called here when they are missing); where they cannot be had the test SKIPs with
# the reason.
import glob
import os
import shutil
import subprocess
import sys
import tempfile

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, "tests/scripts")
from taplib import done, ok  # noqa: E402


def have():
    """(bindir, None) or (None, reason)."""
    bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if not bins:
        return None, "no /usr/lib/postgresql/*/bin/pg_ctl"
    try:
        import psycopg2  # noqa: F401
    except ImportError:
        return None, "no psycopg2 in %s" % sys.executable
    return os.path.dirname(bins[-1]), None


def reexec_system_python():
    """Debian's python3-psycopg2 is /usr/bin/python3's: a pyenv python3 first on PATH lacks
    it."""
    sysp = "/usr/bin/python3"
    if os.path.realpath(sys.executable) != os.path.realpath(sysp) and os.path.exists(sysp) \
            and not os.environ.get("HISTORY_PG_REEXEC"):
        os.environ["HISTORY_PG_REEXEC"] = "1"
        os.execv(sysp, [sysp] + sys.argv)


reexec_system_python()
bindir, why = have()
if bindir is None:
    p = subprocess.run(["scripts/install-deps.sh", "--test"], capture_output=True, text=True)
    bindir, why2 = have()
    if bindir is None:
        print("1..0 # SKIP PostgreSQL not available: %s; install-deps.sh --test: %s" % (
            why2, (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1][:200]))
        sys.exit(0)
import psycopg2  # noqa: E402
import history_cases  # noqa: E402

tmp = tempfile.mkdtemp(prefix="history-pg-t.")
os.chmod(tmp, 0o755)
data, sock = os.path.join(tmp, "data"), os.path.join(tmp, "sock")
os.makedirs(sock)
user = "nobody" if os.getuid() == 0 else None
if user:
    os.chown(tmp, 65534, 65534)
    os.chown(sock, 65534, 65534)


def as_user(cmd):
    return (["runuser", "-u", user, "--"] + cmd) if user else cmd


dbuser = user or __import__("pwd").getpwuid(os.getuid()).pw_name
p = subprocess.run(as_user([os.path.join(bindir, "initdb"), "-D", data, "-U", dbuser,
                            "--auth=trust", "-E", "UTF8", "--no-sync"]),
                   capture_output=True, text=True, timeout=300)
started = False
if ok(p.returncode == 0, "initdb as %s in a private directory" % dbuser, p.stdout + p.stderr):
    p = subprocess.run(as_user([os.path.join(bindir, "pg_ctl"), "-D", data, "-l",
                                os.path.join(tmp, "server.log"), "-w", "-t", "120", "-o",
                                "-k %s -c listen_addresses='' -c fsync=off" % sock, "start"]),
                       capture_output=True, text=True, timeout=300)
    started = ok(p.returncode == 0, "pg_ctl start: socket in %s, no TCP" % sock,
                 p.stdout + p.stderr + (open(os.path.join(tmp, "server.log")).read()
                                        if os.path.exists(os.path.join(tmp, "server.log"))
                                        else ""))


def race_migration(admin, fresh):
    """Two ingests opening one new database at once (CI saw it: 1 run in 3 under -j 2): the
    second's CREATE TABLE IF NOT EXISTS waits on the first's uncommitted one and then fails
    with a unique violation in pg_type (PostgreSQL checks IF NOT EXISTS before it waits).
    Made certain here: another session creates schema_version and holds it uncommitted until
    the ingest is seen waiting on its lock (pg_stat_activity), then commits."""
    import time
    url = fresh()
    other = psycopg2.connect(url)
    other.cursor().execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    pid = other.get_backend_pid()
    proc = subprocess.Popen(["tools/pebs-report", "--db", url, "ingest",
                             "tests/fixtures/fleet/skl-01.log"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    waited = False
    for _ in range(1200):     # up to 120 s for the ingest to reach the lock; a bound, no timing
        cur = admin.cursor()
        cur.execute("SELECT COUNT(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
                    " WHERE NOT l.granted AND a.datname = %s AND a.pid <> %s",
                    (url.split("@/", 1)[1].split("?")[0], pid))
        if cur.fetchone()[0]:
            waited = True
            break
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    other.commit()
    other.close()
    out, err = proc.communicate(timeout=300)
    ok(waited and proc.returncode == 0 and b"1 run(s) added" in out,
       "postgresql: an ingest that meets another's migration half done waits and then "
       "migrates (no unique violation)", (waited, proc.returncode, out[-300:], err[-900:]))


try:
    if started:
        n = [0]
        admin = psycopg2.connect(host=sock, user=dbuser, dbname="postgres")
        admin.autocommit = True

        def fresh():
            n[0] += 1
            admin.cursor().execute("CREATE DATABASE h%d" % n[0])
            return "postgresql://%s@/h%d?host=%s" % (dbuser, n[0], sock)

        history_cases.cases(fresh, tmp, "postgresql")
        race_migration(admin, fresh)
        rc, out, err = history_cases.run("--db", "postgresql://%s@/no_such_db?host=%s" % (
            dbuser, sock), "ingest", "tests/fixtures/fleet/skl-01.log")
        ok(rc == 2 and "cannot connect" in err and "no_such_db" in err,
           "postgresql: a database that does not exist: exit 2 with the server's reason",
           (rc, err))
        admin.close()
finally:
    if os.path.exists(os.path.join(data, "postmaster.pid")):
        subprocess.run(as_user([os.path.join(bindir, "pg_ctl"), "-D", data, "-m", "immediate",
                                "stop"]), capture_output=True, timeout=120)
    shutil.rmtree(tmp, ignore_errors=True)
done()
