"""extract.py: the pebs-kernel diagnostic lines inside tests (docs/output.md): cache
geometry, per-load-kernel timing (loads/kload.c load_run_print), the latency-curve rows
(ktests/load_curve.c) and PEBS per-level tables (pebs/agg_print.c pebs_agg_print).

A diagnostic that starts like one of these kinds but does not parse (a cut line) is
reported as a problem; other diagnostics are free text and kept as they are.
"""
import re

from . import ktap

SIZE = r"(\d+)([KMG]?)"
RE_CACHE = re.compile(r"^cache:? (L1d|L1i|L2|L3|L4)\s+" + SIZE + r",\s*(.*)$")
RE_WAYS = re.compile(r"(\d+)-way")
RE_LINE = re.compile(r"(\d+) B line")
RE_WS = re.compile(r"^(\S+): ws " + SIZE + r", (4K|2M|1G) pages, (\d+) nodes x (\d+) B, "
                   r"walk (\d+)/(\d+), rules (\w+), build (\d+) ms, timing (\d+) ms$")
RE_TIME = re.compile(r"^(\S+): (\d+) reps x (\d+) steps \(([\d.]+) laps\), irqs (\w+): "
                     r"([\d.]+) TSC/(load|step \(8 loads\)|step \(load\+store\)) "
                     r"\(min ([\d.]+) max ([\d.]+)\) = ([\d.]+) ns$")
RE_CORE = re.compile(r"^(\S+): ([\d.]+) core cycles/(load|step \(8 loads\)|step \(load\+store\))"
                     r" \((.*)\), core/TSC ([\d.]+)$")
RE_NOCORE = re.compile(r"^(\S+): core cycles: no counter registered")
RE_KPREFIX = re.compile(r"^(\S+?): (ws |\d+ reps x|[\d.]+ core cycles|core cycles)")
RE_CURVE_HDR = re.compile(r"^load_curve: (\d+) sizes, (\d+) per octave")
RE_CURVE_ROW = re.compile(r"^\s*(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+|-)$")
RE_CURVE_MSG = re.compile(r"^\s*(\d+) (stopped|chain broken): (.*)$")
RE_PEBS = re.compile(r"^(?:(\S+): )?pebs: (\d+) records, (\d+) errors(.*)$")
RE_TBL_HDR = re.compile(r"^\s*level\s+count\s+min\s+p50\s+p90\s+p99\s+max\s+mean\s+stlb")
NUM = r"(\d+|-)"
RE_TBL_ROW = re.compile(r"^\s*(\S.*?)\s+(\d+)\s+" + r"\s+".join([NUM] * 6) +
                        r"\s+(\d+)\s*(.*)$")
RE_LOG2 = re.compile(r"^\s*log2((?:\s+2\^\d+:\d+)+)\s*$")

MULT = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def size_bytes(num, suffix):
    return int(num) * MULT[suffix]


def _f(x):
    return None if x == "-" else float(x)


def _i(x):
    return None if x == "-" else int(x)


class Extract:
    def __init__(self):
        self.cache = {}        # level -> {"size": bytes, "ways":, "line":, "text":}
        self.kernels = []      # timing dicts, in log order
        self.curve = []        # {"bytes", "tsc", "ns", "core"}
        self.curve_notes = []
        self.tables = []       # per-level tables: {"kernel", "test", "records", ...}


def extract(log):
    ex = Extract()
    kernels = {}
    for no, key, val in log.env:
        _cache(ex, "%s: %s" % (key, val) if key else val, no)
    for _, path, node in ktap.walk(log.tests):
        test = "/".join(path)
        table = None
        in_curve = False
        for no, text in node.diags:
            body = text.strip()
            if table is not None:
                if _table_line(log, table, body, no):
                    continue
                table = None
            if _cache(ex, body, no):
                continue
            m = RE_PEBS.match(body)
            if m:
                table = {"kernel": m.group(1) or path[-1], "test": test, "line": no,
                         "records": int(m.group(2)), "errors": int(m.group(3)),
                         "extra": m.group(4).strip(" ,") or None, "levels": [],
                         "source": "log"}
                ex.tables.append(table)
                continue
            if body.startswith("pebs:"):
                log.problem(no, "cut or unknown PEBS table line: %r" % body[:60])
                continue
            if RE_CURVE_HDR.match(body):
                in_curve = True
                continue
            if in_curve:
                m = RE_CURVE_ROW.match(body)
                if m:
                    ex.curve.append({"bytes": int(m.group(1)), "tsc": float(m.group(2)),
                                     "ns": float(m.group(3)), "core": _f(m.group(4)),
                                     "test": test, "line": no})
                    continue
                m = RE_CURVE_MSG.match(body)
                if m:
                    ex.curve_notes.append({"bytes": int(m.group(1)), "what": m.group(2),
                                           "why": m.group(3), "line": no})
                    continue
                if body.split() == ["bytes", "TSC/load", "ns/load", "core/load"]:
                    continue
                if re.match(r"^\d+(\s|$)", body):
                    log.problem(no, "cut latency-curve row: %r" % body[:60])
                    continue
            _timing(log, kernels, ex, body, no, test)
    return ex


def _cache(ex, body, no):
    m = RE_CACHE.match(body)
    if not m:
        return False
    rest = m.group(4)
    w = RE_WAYS.search(rest)
    li = RE_LINE.search(rest)
    ex.cache[m.group(1)] = {"size": size_bytes(m.group(2), m.group(3)),
                            "ways": int(w.group(1)) if w else None,
                            "line_size": int(li.group(1)) if li else None,
                            "text": body, "line": no}
    return True


def _kernel(kernels, ex, name, test):
    k = kernels.get((test, name))
    if k is None:
        k = {"kernel": name, "test": test}
        kernels[(test, name)] = k
        ex.kernels.append(k)
    return k


def _timing(log, kernels, ex, body, no, test):
    m = RE_WS.match(body)
    if m:
        k = _kernel(kernels, ex, m.group(1), test)
        k.update({"ws": size_bytes(m.group(2), m.group(3)), "pages": m.group(4),
                  "nodes": int(m.group(5)), "stride": int(m.group(6)),
                  "walk": int(m.group(7)), "rules": m.group(9),
                  "build_ms": int(m.group(10)), "timing_ms": int(m.group(11)), "line": no})
        return
    m = RE_TIME.match(body)
    if m:
        k = _kernel(kernels, ex, m.group(1), test)
        unit = m.group(7)
        k.update({"reps": int(m.group(2)), "steps": int(m.group(3)),
                  "laps": float(m.group(4)), "irqs": m.group(5),
                  "tsc": float(m.group(6)), "unit": unit, "tsc_min": float(m.group(8)),
                  "tsc_max": float(m.group(9)), "ns": float(m.group(10)),
                  "loads_per_unit": 8 if "8 loads" in unit else 1})
        k.setdefault("line", no)
        return
    m = RE_CORE.match(body)
    if m:
        k = _kernel(kernels, ex, m.group(1), test)
        k.update({"core": float(m.group(2)), "core_clock": m.group(4),
                  "core_per_tsc": float(m.group(5))})
        return
    m = RE_NOCORE.match(body)
    if m:
        _kernel(kernels, ex, m.group(1), test)["core"] = None
        return
    m = RE_KPREFIX.match(body)
    if m:
        log.problem(no, "cut or unknown load-kernel line: %r" % body[:60])


def _table_line(log, table, body, no):
    """Continue a per-level table; False when the line is not part of it."""
    if RE_TBL_HDR.match(body):
        return True
    m = RE_LOG2.match(body)
    if m:
        if table["levels"]:
            table["levels"][-1]["log2"] = {int(b): int(c) for b, c in
                                           re.findall(r"2\^(\d+):(\d+)", m.group(1))}
        return True
    m = RE_TBL_ROW.match(body)
    if m:
        g = m.groups()
        snoop = {}
        for part in g[9].replace(" ", "").split(","):
            name, sep, cnt = part.rpartition(":")
            if sep and cnt.isdigit():
                snoop[name] = int(cnt)
        table["levels"].append({"level": g[0], "count": int(g[1]), "min": _i(g[2]),
                                "p50": _i(g[3]), "p90": _i(g[4]), "p99": _i(g[5]),
                                "max": _i(g[6]), "mean": _i(g[7]), "stlb_miss": int(g[8]),
                                "snoop": snoop, "log2": {}, "line": no})
        return True
    if body.startswith("log2") or re.match(r"^\S.*\s\d+\s+(\d+|-)\s", body):
        log.problem(no, "cut per-level table line: %r" % body[:60])
        return True
    return False
