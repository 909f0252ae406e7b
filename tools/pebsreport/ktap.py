"""ktap.py: KTAP version 1 parser (docs.kernel.org/dev-tools/ktap.html) for pebs-kernel logs.

Reads output-format 1 (subtest plans after the results, header before the top-level plan,
values in parentheses after test names) and output-format 2 (plans first, header after the
top-level plan, values after `#`: `ok 3 name # 511 MiB` gives detail "511 MiB"; after
`not ok` that text is the reason, as a failure note always was), see docs/output.md.
Structure comes only from version, `# Subtest:`, plan and result lines; their indentation
(2 spaces per level) says which (sub)test they belong to. Diagnostic `#` lines never change
the structure: they belong to the innermost open test, whatever their indentation (the kernel
prints exception dumps and warnings at column 0 inside a subtest). Lines before the first
`KTAP version` are boot noise (GRUB, firmware) and are kept only as a count. Anything else
in the KTAP body is reported as a problem (line number + text) and skipped.
"""
import re

from .logread import Line  # noqa: F401  (type of the input)

RE_VERSION = re.compile(r"^(\s*)(?:KTAP version (\d+)|TAP version (\d+))\s*$")
RE_SUBTEST = re.compile(r"^(\s*)# Subtest: (.*)$")
RE_PLAN = re.compile(r"^(\s*)1\.\.(\d+)\s*$")
RE_RESULT = re.compile(r"^(\s*)(not ok|ok) (\d+)(?: -)?(?: ([^#]*?))?\s*(?:#\s*(.*))?$")
RE_DIAG = re.compile(r"^(\s*)#(?: ?(.*))?$")
RE_BAIL = re.compile(r"^(\s*)Bail out!\s*(.*)$")
RE_TOTALS = re.compile(r"^Totals: pass:(\d+) fail:(\d+) skip:(\d+) total:(\d+)$")
RE_TOPLEVEL = re.compile(r"^Top-level tests: pass:(\d+) fail:(\d+) skip:(\d+) total:(\d+)$")
RE_EXIT = re.compile(r"^EXIT: STATUS=(\d+)$")
DIRECTIVES = ("SKIP", "TODO", "XFAIL")


class Node:
    """One (sub)test. `indent` is the column of its own child lines."""

    def __init__(self, indent, line=None):
        self.indent = indent
        self.name = None
        self.number = None
        self.status = None        # pass | fail | skip | todo | incomplete
        self.directive = None     # SKIP / TODO / XFAIL
        self.reason = None        # text after the directive, or after '#' on a failure
        self.reason_ref = None    # `same as <where>` resolved: where the reason was given
        self.detail = None        # words after the name on the result line
        self.plan = None
        self.line = line          # first line of the test
        self.result_line = None
        self.diags = []           # list of (line_no, text)
        self.children = []

    def to_dict(self, diags=False):
        d = {"name": self.name, "number": self.number, "status": self.status,
             "directive": self.directive, "reason": self.reason, "detail": self.detail,
             "line": self.result_line or self.line, "plan": self.plan,
             "subtests": [c.to_dict(diags) for c in self.children]}
        if self.reason_ref is not None:   # the log said `same as <reason_ref>`
            d["reason_ref"] = self.reason_ref
        if diags:
            d["diagnostics"] = [t for _, t in self.diags]
        return d


class Log:
    def __init__(self):
        self.version = None
        self.version_line = None
        self.preamble = 0         # lines before `KTAP version`
        self.env = []             # (line_no, key, value) from the header
        self.root = Node(0)
        self.totals = None        # `# Totals:` (format 1: top-level tests; 2: test cases)
        self.top_totals = None    # `# Top-level tests:` (format 2)
        self.exit_status = None   # from `# EXIT: STATUS=N`
        self.bail = None
        self.problems = []        # (line_no, message)
        self.bad_bytes = []       # line numbers with bytes that are not UTF-8
        self.trailing = 0         # lines after the EXIT line

    @property
    def tests(self):
        return self.root.children

    def problem(self, no, msg):
        self.problems.append((no, msg))


def _counts(m, no):
    d = dict(zip(("pass", "fail", "skip", "total"), map(int, m.groups())))
    d["line"] = no
    return d


def _split_result(name_part, comment, passed):
    """'chain_cycle (0 of 10 sizes broken)' -> ('chain_cycle', '(0 of 10 ...)');
    ('chain_cycle', '0 of 10 sizes broken') (format 2) on a passed test gives the same detail
    without parentheses; on a failure such a comment is the reason, as before."""
    name_part = (name_part or "").strip()
    words = name_part.split(None, 1)
    name = words[0] if words else ""
    detail = words[1] if len(words) > 1 else None
    directive = reason = None
    if comment is not None:
        c = comment.strip()
        w = c.split(None, 1)
        if w and w[0].upper() in DIRECTIVES:
            directive = w[0].upper()
            reason = w[1] if len(w) > 1 else ""
        else:
            if passed and detail is None:
                detail = c
            else:
                reason = c
    return name, detail, directive, reason


def parse(lines):
    log = Log()
    stack = [log.root]        # open nodes, innermost last; root has indent 0
    started = False
    after_exit = False
    for ln in lines:
        t = ln.text
        if ln.raw_bad and (not log.bad_bytes or log.bad_bytes[-1] != ln.no):
            log.bad_bytes.append(ln.no)
        if not started:
            m = RE_VERSION.match(t) or RE_VERSION.match(t.strip())
            if m and (m.group(2) or m.group(3)):
                started = True
                log.version = int(m.group(2) or m.group(3))
                log.version_line = ln.no
                log.root.line = ln.no
            else:
                log.preamble += 1
            continue
        if after_exit:
            log.trailing += 1
            continue
        m = RE_VERSION.match(t)
        if m:
            ind = len(m.group(1))
            if ind == 0:
                log.problem(ln.no, "second 'KTAP version' line at top level (kernel restarted?)")
                continue
            _open(stack, ind, ln.no)
            continue
        m = RE_SUBTEST.match(t)
        if m:
            ind = len(m.group(1))
            node = _open(stack, ind, ln.no) if ind > 0 else stack[-1]
            node.name = m.group(2).strip()
            continue
        m = RE_PLAN.match(t)
        if m:
            ind = len(m.group(1))
            node = _open(stack, ind, ln.no) if ind > 0 else log.root
            node.plan = int(m.group(2))
            continue
        m = RE_RESULT.match(t)
        if m:
            ind = len(m.group(1))
            _result(log, stack, ind, m, ln.no)
            continue
        m = RE_BAIL.match(t)
        if m:
            log.bail = (ln.no, m.group(2).strip())
            continue
        m = RE_DIAG.match(t)
        if m:
            body = (m.group(2) or "").rstrip()
            top = stack[-1]
            if top is log.root:
                mt = RE_TOTALS.match(body)
                mtop = RE_TOPLEVEL.match(body)
                me = RE_EXIT.match(body)
                if mt:
                    log.totals = _counts(mt, ln.no)
                    continue
                if mtop:
                    log.top_totals = _counts(mtop, ln.no)
                    continue
                if me:
                    log.exit_status = int(me.group(1))
                    after_exit = True
                    continue
                if not log.root.children:     # the header: before (1) or after (2) the plan
                    k, sep, v = body.partition(":")
                    if sep and k.strip() and len(k) <= 24:
                        log.env.append((ln.no, k.strip(), v.strip()))
                    else:
                        log.env.append((ln.no, "", body))
                    continue
            top.diags.append((ln.no, body))
            continue
        log.problem(ln.no, "not KTAP, skipped: %s" % _short(t))
    # a log that ends mid-run: open subtests have no result
    while len(stack) > 1:
        node = stack.pop()
        _close_incomplete(stack[-1], node)
    _resolve_same(log)
    return log


SAME = "same as "


def _resolve_same(log):
    """log=brief prints a SKIP reason given before as `same as <test>[.<subtest>]`
    (kernel/ktap_detail.c, docs/output.md "Log budget"): each such reason becomes the reason
    given there (`reason_ref` keeps the reference); one that names nothing earlier stays."""
    seen = {}
    for _, path, n in walk(log.tests):
        if n.directive == "SKIP" and n.reason and n.reason.startswith(SAME):
            ref = n.reason[len(SAME):].strip()
            if ref in seen:
                n.reason_ref, n.reason = ref, seen[ref]
        if len(path) <= 2 and n.directive == "SKIP" and n.reason is not None:
            seen[".".join(path)] = n.reason


def _short(t, n=60):
    t = t.strip()
    return repr(t if len(t) <= n else t[:n] + "...")


def _open(stack, ind, no):
    """The open node whose children sit at column `ind`, opening one if needed."""
    # close nodes deeper than ind (their result line was lost)
    while len(stack) > 1 and stack[-1].indent > ind:
        node = stack.pop()
        _close_incomplete(stack[-1], node)
    if stack[-1].indent == ind:
        return stack[-1]
    node = Node(ind, no)
    stack.append(node)
    return node


def _close_incomplete(parent, node):
    node.status = "incomplete"
    node.reason = "no result line (log ends or output was cut)"
    node.number = len(parent.children) + 1
    if node.name is None:
        node.name = "?"
    parent.children.append(node)


def _result(log, stack, ind, m, no):
    name, detail, directive, reason = _split_result(m.group(4), m.group(5), m.group(2) == "ok")
    # the parent is the open node whose children sit at `ind`; a deeper open node is the
    # subtest this line closes
    closing = None
    while len(stack) > 1 and stack[-1].indent > ind:
        node = stack.pop()
        if closing is not None:
            _close_incomplete(node, closing)
        closing = node
    parent = stack[-1]
    if parent.indent != ind:
        if parent.indent < ind:
            parent = _open(stack, ind, no)
        # else: a result shallower than any open node (indentation lost): take the parent
    node = closing if closing is not None else Node(ind + 2, no)
    if node.name and name and node.name != name:
        log.problem(no, "result '%s' closes subtest '%s'" % (name, node.name))
    node.name = name or node.name or "?"
    node.number = int(m.group(3))
    node.detail = detail
    node.directive = directive
    node.reason = reason
    node.result_line = no
    if m.group(2) == "not ok":
        node.status = "todo" if directive in ("TODO", "XFAIL") else "fail"
    else:
        node.status = "skip" if directive == "SKIP" else "pass"
    parent.children.append(node)


def walk(nodes, depth=0, path=()):
    """Yield (depth, path, node) over a test tree."""
    for n in nodes:
        p = path + (n.name,)
        yield depth, p, n
        yield from walk(n.children, depth + 1, p)


def verdict(log):
    """(exit status, reasons): 0 all passed/skipped, 1 a failure or an unfinished run,
    2 no KTAP at all."""
    if log.version is None:
        return 2, ["no 'KTAP version' line: not a pebs-kernel log"]
    why = []
    for _, path, n in walk(log.tests):
        if n.status == "fail":
            why.append("failed: %s" % "/".join(path))
        elif n.status == "incomplete":
            why.append("no result: %s" % "/".join(path))
    if log.bail:
        why.append("Bail out! %s (line %d)" % (log.bail[1], log.bail[0]))
    if log.root.plan is None:
        why.append("no plan line: the run ended before the tests started")
    elif len(log.tests) < log.root.plan:
        why.append("log ends mid-run: %d of %d planned tests have a result"
                   % (len(log.tests), log.root.plan))
    if log.exit_status not in (None, 0):
        why.append("EXIT: STATUS=%d" % log.exit_status)
    return (1 if why else 0), why
