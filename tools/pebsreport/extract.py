"""extract.py: the pebs-kernel diagnostic lines of docs/output.md (output-format 1) inside
the KTAP tree: header cache geometry, and per load kernel the `chain`, `time`, `pebs`, `lvl`,
`hist`, `dump`, `raw`, `rec` and `|` lines; also the load_curve rows (ktests/load_curve.c),
load_loaded's step lines (loaded.py)
and the pre-contract timing lines (`<k>: ws ...`, `<k>: N reps x ...`) of older kernels.

A diagnostic that starts like one of these kinds but does not parse (a cut line) is
reported as a problem; other diagnostics are free text.
"""
import re

from . import bandwidth, ktap, loaded

SIZE = r"(\d+)([KMG]?)"
MULT = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
RE_SIZE = re.compile("^" + SIZE + "$")
RE_CACHE = re.compile(r"^cache:? (L1d|L1i|L2|L3|L4)\s+" + SIZE + r",?\s+(.*)$")
RE_WAYS = re.compile(r"(\d+)-way")
RE_LINESZ = re.compile(r"(\d+) B line")
RE_KLINE = re.compile(r"^(\S+): (chain|time|pebs|lvl|hist|dump|raw|rec|\|)(?: (.*))?$")
# pre-contract kernels (before output-format 1)
RE_WS = re.compile(r"^(\S+): ws " + SIZE + r", (4K|2M|1G) pages, (\d+) nodes x (\d+) B, "
                   r"walk (\d+)/(\d+), rules (\w+), build (\d+) ms, timing (\d+) ms$")
RE_TIME = re.compile(r"^(\S+): (\d+) reps x (\d+) steps \((\d+(?:\.\d+)?) laps\), irqs (\w+): "
                     r"(\d+(?:\.\d+)?) TSC/(load|step \(8 loads\)|step \(load\+store\)) "
                     r"\(min (\d+(?:\.\d+)?) max (\d+(?:\.\d+)?)\) = (\d+(?:\.\d+)?) ns$")
RE_CORE = re.compile(r"^(\S+): (\d+(?:\.\d+)?) core cycles/(load|step \(8 loads\)|step \(load\+store\))"
                     r" \((.*)\), core/TSC (\d+(?:\.\d+)?)$")
RE_NOCORE = re.compile(r"^(\S+): core cycles: no counter registered")
RE_OLDPREFIX = re.compile(r"^(\S+?): (ws |\d+ reps x|\d+(?:\.\d+)? core cycles|core cycles)")
OLD_UNIT = {"load": "load", "step (8 loads)": "step8", "step (load+store)": "ldst"}
RE_CURVE_HDR = re.compile(r"^load_curve: (\d+) sizes, (\d+) per octave")
RE_CURVE_ROW = re.compile(r"^\s*(\d+)\s+(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?|-)$")
RE_CURVE_MSG = re.compile(r"^\s*(\d+) (stopped|chain broken): (.*)$")
RE_RAW = re.compile(r"^(\d+) ([0-9a-f]*) crc=([0-9a-f]{8})$")
# per-CPU runs (load_cpus): the CPU line, a kernel name's @cpu<i>, the header's smp-cpu line
RE_CPULINE = re.compile(r"^load_cpus: cpu(\d+) apic=(\d+) type=(\S+) node=(\d+) format=(\S+) model=(.*)$")
RE_ATCPU = re.compile(r"@cpu(\d+)$")
RE_SMPCPU = re.compile(r"^(\d+) apic (\d+) .*\btype (\S+) node (\d+) online")

REQUIRED = {
    "chain": ("ws", "pages", "nodes", "stride", "walk", "rules", "build_ms"),
    # output-format 3, log=brief: unit tsc ns core [ws] (the rest: None); log=full: all
    "time": ("unit", "tsc", "ns", "core"),
    "pebs": ("event", "ldlat", "sav", "records", "dropped", "pmis", "errors", "target",
             "share", "p50", "timed", "clock"),
    "dump": ("cpu", "core", "format", "event", "records", "kept", "lost", "bytes"),
}
# fields a line may leave out (None then): the log=brief time line of output-format 3; a line
# with one of them has them all (the log=full form)
OPTIONAL = {"time": ("min", "max", "ratio", "steps", "ms")}
# fields that must be numbers ('-' allowed where the value may be unmeasured: None)
NUMERIC = {
    "chain": {"ws": False, "nodes": False, "stride": False, "build_ms": False},
    "time": {"tsc": False, "min": False, "max": False, "ns": False, "core": True,
             "ratio": True, "steps": False, "ms": False},
    "pebs": {"sav": False, "records": False, "dropped": False, "pmis": True, "errors": False,
             "share": True, "p50": True, "timed": True},
    "dump": {"format": False, "records": False, "kept": False, "lost": False, "bytes": False},
}
# level names (perf's words, agg_print and datasrc spellings) -> CLI id (pebs-decode)
LEVEL_IDS = {
    "N/A": "NA", "L1 hit": "L1", "LFB/MAB hit": "LFB", "L2 hit": "L2", "L2 MHB hit": "L2_MHB",
    "L3": "L3", "L3 hit": "L3", "Remote cache hit": "L3", "L4 hit": "L4", "Remote L4 hit": "L4",
    "Memory-side Cache hit": "MSC", "Remote Memory-side Cache hit": "MSC", "RAM hit": "RAM",
    "Local RAM hit": "RAM", "Remote RAM hit": "RAM", "PMEM": "PMEM", "Remote PMEM": "PMEM",
    "CXL": "CXL", "Remote CXL": "CXL", "I/O": "IO", "Uncached": "UNCACHED",
    "Any cache hit": "ANY_CACHE", "Remote Any cache hit": "ANY_CACHE",
}
LEVEL_ORDER = ["NA", "L1", "LFB", "L2", "L2_MHB", "L3", "L4", "MSC", "RAM", "PMEM", "CXL", "IO",
               "UNCACHED", "ANY_CACHE"]


def size_bytes(num, suffix):
    return int(num) * MULT[suffix]


def value(v):
    """'-' -> None, '97.2%' -> 97.2, '32K' -> 32768, '512/512' stays, numbers -> int/float."""
    if v == "-":
        return None
    s = v[:-1] if v.endswith("%") else v
    try:
        return int(s, 0) if s.startswith("0x") else int(s)
    except ValueError:
        pass
    try:
        return float(s)
    except ValueError:
        pass
    m = RE_SIZE.match(v)
    if m:
        return size_bytes(*m.groups())
    return v


def parse_kv(text):
    d = {}
    for tok in text.split():
        k, sep, v = tok.partition("=")
        if not sep or not k:
            return None
        if not v:
            continue                    # a cut value: the key counts as missing
        d[k] = value(v) if k not in ("cpu", "walk") else v
    return d


class Extract:
    def __init__(self):
        self.output_format = None
        self.core_clock = None
        self.cache = {}        # level -> {"size": bytes, "ways", "line_size", "text", "line"}
        self.kernels = []      # per load kernel dicts, in log order
        self.curve = []        # load_curve rows: {"bytes", "tsc", "ns", "core"}
        self.curve_notes = []
        self.cpus = {}         # CPU number -> {"apic", "type", "node", "format", "model"}
        self.loaded = []       # load_loaded steps (loaded.py)
        self.bandwidth = []    # the bandwidth test's lines (bandwidth.py)


def extract(log):
    ex = Extract()
    for no, key, val in log.env:
        if key == "output-format":
            ex.output_format = value(val)
        elif key == "core clock":
            ex.core_clock = val
        elif key == "smp-cpu":
            _smp_cpu(ex, val)
        else:
            _cache(ex, "%s: %s" % (key, val) if key else val, no)
    for _, path, node in ktap.walk(log.tests):
        st = {"test": "/".join(path), "kernels": {}, "in_curve": False}
        for no, text in node.diags:
            _diag(log, ex, st, text.strip(), no)
    per_cpu = any(RE_ATCPU.search(k["kernel"]) for k in ex.kernels)
    for k in ex.kernels:
        _finish(log, k)
        _cpu_of(ex, k, per_cpu)
    return ex


def _smp_cpu(ex, val):
    """`# smp-cpu: <i> apic <id> ... type <t> node <n> online`: the boot CPU's core type."""
    m = RE_SMPCPU.match(val)
    if m:
        ex.cpus.setdefault(int(m.group(1)), {
            "apic": int(m.group(2)), "type": m.group(3), "node": int(m.group(4)),
            "format": None, "model": None})


def _cpu_of(ex, k, per_cpu):
    """k["cpu"]: the CPU a kernel ran on where the log has per-CPU runs (`@cpu<i>`; 0 for
    the boot CPU's kernels), else None; k["core_type"] from that CPU's line."""
    m = RE_ATCPU.search(k["kernel"])
    k["cpu"] = int(m.group(1)) if m else (0 if per_cpu else None)
    c = ex.cpus.get(k["cpu"]) if k["cpu"] is not None else None
    k["core_type"] = c["type"] if c else None


def _kernel(ex, st, name, no):
    k = st["kernels"].get(name)
    if k is None:
        k = {"kernel": name, "test": st["test"], "line": no, "chain": None, "time": None,
             "pebs": None, "levels": [], "hist": {}, "dump": None, "raw": {}, "raw_bad": [],
             "rec": 0, "full_table": []}
        st["kernels"][name] = k
        ex.kernels.append(k)
    return k


def _diag(log, ex, st, body, no):
    if _cache(ex, body, no):
        return
    for mod, what, into in ((bandwidth, "bandwidth line", ex.bandwidth),
                            (loaded, "load_loaded step line", ex.loaded)):
        p = mod.parse(body)
        if p is False:
            log.problem(no, "cut %s, skipped: %r" % (what, body[:60]))
            return
        if p:
            p.update({"test": st["test"], "line": no})
            into.append(p)
            return
    m = RE_CPULINE.match(body)
    if m:
        ex.cpus[int(m.group(1))] = {"apic": int(m.group(2)), "type": m.group(3),
                                    "node": int(m.group(4)), "format": value(m.group(5)),
                                    "model": value(m.group(6))}
        return
    m = RE_KLINE.match(body)
    if m:
        name, kind, rest = m.group(1), m.group(2), m.group(3) or ""
        k = _kernel(ex, st, name, no)
        if kind in REQUIRED:
            kv = parse_kv(rest)
            opt = OPTIONAL.get(kind, ())
            # a line with one of the optional keys is the full form: it has them all
            full = kv is not None and any(f in kv for f in opt)
            miss = [r for r in REQUIRED[kind] + (opt if full else ()) if kv is None or r not in kv]
            if miss:
                log.problem(no, "%s line of %s cut or malformed (missing %s), skipped"
                            % (kind, name, ",".join(miss)))
                return
            for f in opt:
                kv.setdefault(f, None)
            bad = [f for f, dash in NUMERIC[kind].items()
                   if not (isinstance(kv[f], (int, float)) or ((dash or not full and f in opt)
                                                               and kv[f] is None))]
            if bad:
                log.problem(no, "%s line of %s malformed (%s not a number), skipped"
                            % (kind, name, ",".join(bad)))
                return
            kv["line"] = no
            k[kind] = kv
        elif kind == "lvl":
            _lvl(log, k, rest, no)
        elif kind == "hist":
            _hist(log, k, rest, no)
        elif kind == "raw":
            mr = RE_RAW.match(rest)
            if not mr or len(mr.group(2)) % 2:
                log.problem(no, "raw line of %s cut or malformed, skipped" % name)
                k["raw_bad"].append(no)
                return
            k["raw"][int(mr.group(1))] = (bytes.fromhex(mr.group(2)), int(mr.group(3), 16), no)
        elif kind == "rec":
            k["rec"] += 1
        else:
            k["full_table"].append(rest)
        return
    if RE_CURVE_HDR.match(body):
        st["in_curve"] = True
        return
    if st["in_curve"]:
        m = RE_CURVE_ROW.match(body)
        if m:
            ex.curve.append({"bytes": int(m.group(1)), "tsc": float(m.group(2)),
                             "ns": float(m.group(3)), "core": value(m.group(4)),
                             "test": st["test"], "line": no})
            return
        m = RE_CURVE_MSG.match(body)
        if m:
            ex.curve_notes.append({"bytes": int(m.group(1)), "what": m.group(2),
                                   "why": m.group(3), "line": no})
            return
        if body.split() == ["bytes", "TSC/load", "ns/load", "core/load"]:
            return
        if re.match(r"^\d+(\s|$)", body):
            log.problem(no, "cut latency-curve row, skipped: %r" % body[:60])
            return
    _old_timing(log, ex, st, body, no)


def _cache(ex, body, no):
    m = RE_CACHE.match(body)
    if not m:
        return False
    rest = m.group(4)
    w = RE_WAYS.search(rest)
    li = RE_LINESZ.search(rest)
    ex.cache[m.group(1)] = {"size": size_bytes(m.group(2), m.group(3)),
                            "ways": int(w.group(1)) if w else None,
                            "line_size": int(li.group(1)) if li else None,
                            "text": body, "line": no}
    return True


def _lvl(log, k, rest, no):
    tok = rest.split()
    if len(tok) >= 2 and tok[-2] == "p99":
        return                                  # header row
    if len(tok) < 8:
        log.problem(no, "lvl line of %s cut or malformed, skipped" % k["kernel"])
        return
    name = " ".join(tok[:-7])
    f = tok[-7:]
    try:
        count = int(f[0])
        share = float(f[1].rstrip("%"))
        lat = [None if x == "-" else int(x) for x in f[2:]]
    except ValueError:
        log.problem(no, "lvl line of %s has a bad number, skipped" % k["kernel"])
        return
    k["levels"].append({"level": name, "id": LEVEL_IDS.get(name, name), "count": count,
                        "share": share, "min": lat[0], "p50": lat[1], "p90": lat[2],
                        "p99": lat[3], "max": lat[4], "line": no})


def _hist(log, k, rest, no):
    tok = rest.split()
    buckets = {}
    for t in tok[1:]:
        b, sep, c = t.partition(":")
        if not sep or not b.isdigit() or not c.isdigit():
            log.problem(no, "hist line of %s cut or malformed, skipped" % k["kernel"])
            return
        buckets[int(b)] = int(c)
    if not tok or not buckets:
        log.problem(no, "hist line of %s cut or malformed, skipped" % k["kernel"])
        return
    k["hist"][tok[0]] = buckets


def _old_timing(log, ex, st, body, no):
    m = RE_WS.match(body)
    if m:
        k = _kernel(ex, st, m.group(1), no)
        k["chain"] = {"ws": size_bytes(m.group(2), m.group(3)), "pages": m.group(4),
                      "nodes": int(m.group(5)), "stride": int(m.group(6)),
                      "walk": "%s/%s" % (m.group(7), m.group(8)), "rules": m.group(9),
                      "build_ms": int(m.group(10)), "line": no}
        k["old_timing_ms"] = int(m.group(11))
        return
    m = RE_TIME.match(body)
    if m:
        k = _kernel(ex, st, m.group(1), no)
        k["time"] = {"unit": OLD_UNIT[m.group(7)], "tsc": float(m.group(6)),
                     "min": float(m.group(8)), "max": float(m.group(9)),
                     "ns": float(m.group(10)), "core": None, "ratio": None,
                     "reps": int(m.group(2)), "steps": int(m.group(3)),
                     "ms": k.pop("old_timing_ms", None), "line": no}
        return
    m = RE_CORE.match(body)
    if m:
        k = _kernel(ex, st, m.group(1), no)
        if k["time"]:
            k["time"]["core"] = float(m.group(2))
            k["time"]["ratio"] = float(m.group(5))
        return
    if RE_NOCORE.match(body):
        return
    m = RE_OLDPREFIX.match(body)
    if m:
        log.problem(no, "cut or unknown load-kernel line, skipped: %r" % body[:60])


def _finish(log, k):
    """Attach hist buckets to levels; note a dump whose raw lines are missing; a kernel
    without a chain line (output-format 3, log=brief: printed only when the chain broke)
    takes its working set from the time line's `ws=`."""
    t = k["time"]
    if k["chain"] is None and t and isinstance(t.get("ws"), int):
        k["chain"] = {"ws": t["ws"], "pages": None, "nodes": None, "stride": None,
                      "walk": None, "rules": None, "build_ms": None, "line": t["line"],
                      "from_time": True}
    for lv in k["levels"]:
        lv["log2"] = k["hist"].get(lv["id"], {})
    if k["dump"] and k["raw"]:
        kept = k["dump"].get("kept")
        if isinstance(kept, int) and len(k["raw"]) < kept:
            log.problem(k["dump"]["line"], "dump of %s: %d of %d raw lines present"
                        % (k["kernel"], len(k["raw"]), kept))
