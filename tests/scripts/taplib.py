"""taplib.py: TAP output for the Python tool tests of tests/scripts/ (fleet.t, lava.t,
sol_capture.t, pebs-report.t, ibs.t, pebs-decode.t): `ok(cond, name, diag)` prints one
numbered result with up to 30 lines of diagnostics on failure (`todo=REASON`: a TODO result,
which does not fail the run), `done()` prints the plan and exits 1 when any failed."""
import sys

n = failed = 0


def ok(cond, name, diag=None, todo=None):
    """todo: a reason; the result carries `# TODO reason` (TAP: a known gap, shown by the
    harness, not counted as a failure) and its diagnostics are printed either way."""
    global n, failed
    n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (n, name)
          + (" # TODO %s" % todo if todo else ""))
    if not cond and not todo:
        failed += 1
    if not cond or todo:
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
