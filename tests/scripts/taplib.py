"""taplib.py: TAP output for the Python tool tests of tests/scripts/ (fleet.t, lava.t,
sol_capture.t, pebs-report.t, ibs.t, pebs-decode.t): `ok(cond, name, diag)` prints one
numbered result with up to 30 lines of diagnostics on failure, `done()` prints the plan and
exits 1 when any failed."""
import sys

n = failed = 0


def ok(cond, name, diag=None):
    global n, failed
    n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (n, name))
    if not cond:
        failed += 1
        for line in str(diag or "").splitlines()[:30]:
            print("# " + line)
    return bool(cond)


def skip(name, reason):
    global n
    n += 1
    print("ok %d - %s # SKIP %s" % (n, name, reason))


def done():
    print("1..%d" % n)
    sys.exit(1 if failed else 0)
