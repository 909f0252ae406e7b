#!/usr/bin/env python3
"""ktap_check.py: check pebs-kernel logs against Linux's own KTAP parser (kunit.py).

Usage: tests/scripts/ktap_check.py LOG...     (exit 0 all conform, 1 a problem, 2 no kunit.py)

kunit.py comes from the Debian kernel source packages (scripts/install-deps.sh installs
linux-source-6.1 and linux-source-6.12: the old and the current parser); only
tools/testing/kunit is extracted from /usr/src/linux-source-*.tar.*, once, into build/kunit/.
For every log and every parser: `kunit.py parse --json=FILE` must finish within a timeout and
print no [CRASHED] and no [ERROR]; its count of test cases must equal the log's `# Totals:`;
every test case (JSON) and every test with subtests (the parser's footer lines) must have the
status of the log's own result line. The log's side is read here, from the result lines alone.
Also a TAP consumer, Perl's TAP::Parser (what `prove` uses), reads the un-nested view (the
unindented lines): no parse errors, a good plan, the same top-level verdicts.
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CACHE = os.path.join(ROOT, "build", "kunit")
TIMEOUT = 60

RESULT = re.compile(r"^( *)(ok|not ok) (\d+) ([^#]*?)\s*(?:# (.*))?$")
SUBTEST = re.compile(r"^ {2}# Subtest: (\S+)\s*$")
TOTALS = re.compile(r"^# Totals: pass:(\d+) fail:(\d+) skip:(\d+) total:(\d+)$")
FOOTER = re.compile(r"^\[[0-9:]+\] =+ \[(PASSED|FAILED|SKIPPED|CRASHED|NO TESTS RUN)\] (\S+) =+$")
SUMMARY = re.compile(r"Testing complete\. Ran (\d+) tests?:?([^\n]*)")
WORD = {"PASSED": "PASS", "FAILED": "FAIL", "SKIPPED": "SKIP", "CRASHED": "ERROR",
        "NO TESTS RUN": "NO TESTS"}


def kunit_trees():
    """[(version, dir of kunit.py)], extracting tools/testing/kunit from each source tarball
    not yet in the cache (kunit.py wants to sit under .../tools/testing/kunit/)."""
    out = []
    for tb in sorted(glob.glob("/usr/src/linux-source-*.tar.*")):
        ver = re.sub(r"\.tar\..*$", "", os.path.basename(tb))[len("linux-source-"):]
        dest = os.path.join(CACHE, ver)
        kdir = os.path.join(dest, "tools", "testing", "kunit")
        if not os.path.exists(os.path.join(kdir, "kunit.py")):
            os.makedirs(CACHE, exist_ok=True)
            tmp = tempfile.mkdtemp(dir=CACHE)
            subprocess.run(["tar", "-xf", tb, "-C", tmp, "--strip-components=1", "--wildcards",
                            "*/tools/testing/kunit/*"], check=True, timeout=600)
            if os.path.exists(dest):
                subprocess.run(["rm", "-rf", dest], check=True)
            os.rename(tmp, dest)
        out.append((ver, kdir))
    return out


def read_log(path):
    """The KTAP part of a log: from `KTAP version` on, CR and ANSI escapes removed."""
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).replace("\r", "")
    lines = text.split("\n")
    for i, ln in enumerate(lines):
        if ln == "KTAP version 1":
            return lines[i:]
    return []


def own_verdicts(lines):
    """From the log's result lines: {path: status} for test cases (leaves) and for tests with
    subtests, the `# Totals:` counts, and the top-level statuses in order."""
    cases, groups, totals, tops = {}, {}, None, []
    block, leaves = None, []
    for ln in lines:
        m = SUBTEST.match(ln)
        if m:
            block, leaves = m.group(1), []
            continue
        m = TOTALS.match(ln)
        if m:
            totals = dict(zip(("pass", "fail", "skip", "total"), map(int, m.groups())))
            continue
        m = RESULT.match(ln)
        if not m:
            continue
        status = "FAIL" if m.group(2) == "not ok" else \
            "SKIP" if (m.group(5) or "").startswith("SKIP") else "PASS"
        name = m.group(4)
        if m.group(1) == "  " and block:
            leaves.append((name, status))
        elif m.group(1) == "":
            tops.append(status)
            if leaves and block == name:
                groups[(name,)] = status
                for leaf, st in leaves:
                    cases[(name, leaf)] = st
            else:
                cases[(name,)] = status
            block, leaves = None, []
    return cases, groups, totals, tops


def kunit_verdicts(doc, path=()):
    cases = {}
    for c in doc.get("test_cases", []):
        cases[path + (c["name"],)] = c["status"]
    for g in doc.get("sub_groups", []):
        cases.update(kunit_verdicts(g, path + (g["name"],)))
    return cases


def check_kunit(lines, ver, kdir, own):
    problems = []
    cases, groups, totals, _ = own
    with tempfile.TemporaryDirectory() as tmp:
        logf, jsonf = os.path.join(tmp, "log"), os.path.join(tmp, "json")
        with open(logf, "w") as f:
            f.write("\n".join(lines) + "\n")
        try:
            p = subprocess.run([sys.executable, os.path.join(kdir, "kunit.py"), "parse",
                                "--json=" + jsonf, logf], capture_output=True, text=True,
                               timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            return ["kunit %s: did not finish in %d s" % (ver, TIMEOUT)]
        out = p.stdout + p.stderr
        bad = [ln for ln in out.splitlines() if "[CRASHED]" in ln or "[ERROR]" in ln]
        if bad:
            problems.append("kunit %s: %s" % (ver, bad[0].strip()))
        try:
            with open(jsonf) as f:
                got = kunit_verdicts(json.load(f))
        except (OSError, ValueError) as e:
            return problems + ["kunit %s: no JSON (%s); output: %s" % (ver, e, out[-300:])]
    if got != cases:
        diff = sorted(set(got.items()) ^ set(cases.items()))[:4]
        problems.append("kunit %s: test cases differ from the log (log vs kunit): %s"
                        % (ver, "; ".join("%s=%s" % ("/".join(k), v) for k, v in diff)))
    feet = {(m.group(2),): WORD[m.group(1)] for m in map(FOOTER.match, out.splitlines()) if m}
    if feet != groups:
        problems.append("kunit %s: test statuses %s, the log says %s" % (ver, feet, groups))
    m = SUMMARY.search(out)
    if not m:
        problems.append("kunit %s: no summary line" % ver)
    elif totals:
        n = {k: int(v) for k, v in re.findall(r"(\w+): (\d+)", m.group(2))}
        n = {"pass": n.get("passed", 0), "fail": n.get("failed", 0),
             "skip": n.get("skipped", 0), "total": int(m.group(1))}
        if n != totals:
            problems.append("kunit %s: counts %s, `# Totals:` %s" % (ver, n, totals))
    return problems


TAP_PERL = r'''
use TAP::Parser;
my $p = TAP::Parser->new({ tap => do { local $/; <STDIN> } });
while (my $r = $p->next) {
    print "R ", $r->number, " ", ($r->is_actual_ok ? "ok" : "not"), " ",
        ($r->has_skip ? "skip" : "-"), "\n" if $r->is_test;
}
print "E $_\n" for $p->parse_errors;
print "P ", ($p->is_good_plan ? 1 : 0), " ", $p->tests_planned // -1, "\n";
'''


def check_tap(lines, want):
    """TAP::Parser over the un-nested view (the unindented lines, version line as TAP 13)."""
    top = [("TAP version 13" if ln.startswith("KTAP version") else ln) for ln in lines
           if ln and not ln.startswith(" ")]
    try:
        p = subprocess.run(["perl", "-e", TAP_PERL], input="\n".join(top) + "\n",
                           capture_output=True, text=True, timeout=TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as e:
        return ["TAP::Parser: %s" % e]
    got, problems = [], []
    for ln in p.stdout.splitlines():
        w = ln.split()
        if w[0] == "R":
            got.append("SKIP" if w[3] == "skip" else "PASS" if w[2] == "ok" else "FAIL")
        elif w[0] == "E":
            problems.append("TAP::Parser: " + ln[2:])
        elif w[0] == "P" and w[1] != "1":
            problems.append("TAP::Parser: bad plan (planned %s)" % w[2])
    if got != want:
        problems.append("TAP::Parser: top-level verdicts %s, the log says %s" % (got, want))
    if p.returncode:
        problems.append("TAP::Parser: perl exit %d %s" % (p.returncode, p.stderr[-200:]))
    return problems


def check_order(lines):
    """docs/output.md: the plan follows the version line, at the top and in every subtest
    block (`# Subtest:` between them), and counts the block's results."""
    problems = []
    if len(lines) < 2 or not re.match(r"^1\.\.\d+$", lines[1]):
        problems.append("log: the top-level plan does not follow 'KTAP version 1'")
    for i, ln in enumerate(lines):
        if ln != "  KTAP version 1":
            continue
        m = SUBTEST.match(lines[i + 1] if i + 1 < len(lines) else "")
        plan = re.match(r"^  1\.\.(\d+)$", lines[i + 2] if i + 2 < len(lines) else "")
        if not m or not plan:
            problems.append("log: line %d: no '# Subtest:' and plan after the version line"
                            % (i + 1))
            continue
        n = 0
        for nxt in lines[i + 3:]:
            if not nxt.startswith("  ") and RESULT.match(nxt):
                break
            n += bool(re.match(r"^  (ok|not ok) ", nxt))
        if n != int(plan.group(1)):
            problems.append("log: %s plans %s results, has %d" % (m.group(1), plan.group(1), n))
    return problems


def check_log(path, trees):
    try:
        lines = read_log(path)
    except OSError as e:
        return ["cannot read: %s" % e]
    if not lines:
        return ["no 'KTAP version 1' line"]
    own = own_verdicts(lines)
    if own[2] is None:
        return ["no `# Totals:` line"]
    problems = check_order(lines)
    for (g,), st in own[1].items():	# a parent fails exactly when a subtest fails
        if (st == "FAIL") != any(v == "FAIL" for k, v in own[0].items() if k[0] == g):
            problems.append("log: %s is %s but its subtests say otherwise" % (g, st))
    for ver, kdir in trees:
        problems += check_kunit(lines, ver, kdir, own)
    return problems + check_tap(lines, own[3])


def main(argv):
    trees = kunit_trees()
    if not trees:
        print("ktap_check: no /usr/src/linux-source-*.tar.*: run scripts/install-deps.sh",
              file=sys.stderr)
        return 2
    bad = 0
    for log in argv:
        for pr in check_log(log, trees):
            bad += 1
            print("%s: %s" % (log, pr))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
