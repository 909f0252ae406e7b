"""tap.py: TAP output for the Python tests in tests/scripts (one `ok` line per check, the
diagnostics of a failure as `#` lines, the plan last). Usage: t = Tap(); t.ok(cond, name,
diag); sys.exit(t.done())."""


class Tap:
    def __init__(self):
        self.n = self.failed = 0

    def ok(self, cond, name, diag=None):
        self.n += 1
        print(("ok %d - %s" if cond else "not ok %d - %s") % (self.n, name))
        if not cond:
            self.failed += 1
            for line in str(diag or "").splitlines()[:30]:
                print("# " + line)
        return cond

    def done(self):
        print("1..%d" % self.n)
        return 1 if self.failed else 0
