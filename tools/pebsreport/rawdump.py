"""rawdump.py: `dump=raw` lines (docs/output.md §3 Dumps) -> verified record bytes ->
build/host/pebs-decode (the kernel's own decoder, pebs/) -> the same per-level table the
kernel printed (`lvl` + `hist`), for a log captured on one machine and decoded on another.

Each `raw` line carries CRC-32 (zlib.crc32) of its bytes; a line that fails the check is
reported and left out (its record is missing from the rebuilt table, which says so).
"""
import json
import os
import re
import subprocess
import zlib

from .extract import LEVEL_IDS

RE_SUM_HEAD = re.compile(r"^pebs: (\d+) records, (\d+) errors$")
RE_SUM_ROW = re.compile(r"^\s+(\S.*?)\s+(\d+)\s+(\d+|-)\s+(\d+|-)\s+(\d+|-)\s+(\d+|-)\s+(\d+|-)"
                        r"\s+(\d+|-)\s+(\d+)\s*(.*)$")
RE_SUM_LOG2 = re.compile(r"^\s+log2((?:\s+2\^\d+:\d+)*)\s*$")


def default_decoder():
    here = os.path.dirname(os.path.abspath(__file__))
    return os.environ.get("PEBS_DECODE",
                          os.path.join(here, "..", "..", "build", "host", "pebs-decode"))


def verify(log, k):
    """CRC-check the raw lines of kernel k; returns (bytes, n_ok, bad_indexes, missing)."""
    data = bytearray()
    bad, missing, n = [], [], 0
    idx = sorted(k["raw"])
    top = max(idx) + 1 if idx else 0
    kept = k["dump"].get("kept") if k["dump"] else None
    if isinstance(kept, int):
        top = max(top, kept)
    for i in range(top):
        if i not in k["raw"]:
            missing.append(i)
            continue
        rec, crc, no = k["raw"][i]
        if zlib.crc32(rec) & 0xFFFFFFFF != crc:
            log.problem(no, "raw record %d of %s: CRC mismatch (line damaged), left out"
                        % (i, k["kernel"]))
            bad.append(i)
            continue
        data += rec
        n += 1
    return bytes(data), n, bad, missing


def extract_files(path, d):
    """`pebs-report --extract DIR LOG`: every kernel's `dump=raw` records, CRC-checked, into
    DIR/<kernel>.bin (the bytes pebs-decode reads). Returns [(kernel, file, records, bad,
    missing, pebs-decode arguments)]; raises OSError for an unreadable log."""
    from . import extract, ktap, logread
    lines, _ = logread.read_log(path)
    log = ktap.parse(lines)
    out = []
    for k in extract.extract(log).kernels:
        if not k["raw"] and not k["raw_bad"]:
            continue
        data, n, bad, missing = verify(log, k)
        dd = k["dump"] or {}
        os.makedirs(d, exist_ok=True)
        f = os.path.join(d, re.sub(r"[^A-Za-z0-9_.@-]+", "_", k["kernel"]) + ".bin")
        with open(f, "wb") as g:
            g.write(data)
        args = []
        if dd.get("vendor") == "amd":
            args += ["--vendor", "amd"]
        if dd:
            args += ["--cpu", str(dd["cpu"])]
            if dd.get("core") in ("p", "e"):
                args += ["--core", dd["core"]]
            if dd.get("vendor") != "amd":
                args += ["--format", str(dd["format"]), "--event", str(dd["event"])]
        out.append((k["kernel"], f, n, bad, missing, args))
    return out


def parse_summary(text):
    """pebs_agg_print text (pebs-decode --summary) -> (records, errors, levels)."""
    records = errors = None
    levels = []
    for line in text.splitlines():
        m = RE_SUM_HEAD.match(line)
        if m:
            records, errors = int(m.group(1)), int(m.group(2))
            continue
        m = RE_SUM_ROW.match(line)
        if m and m.group(1) != "level":
            g = m.groups()
            lat = [None if x == "-" else int(x) for x in g[2:8]]
            levels.append({"level": g[0], "id": LEVEL_IDS.get(g[0], g[0]), "count": int(g[1]),
                           "min": lat[0], "p50": lat[1], "p90": lat[2], "p99": lat[3],
                           "max": lat[4], "mean": lat[5], "log2": {}})
            continue
        m = RE_SUM_LOG2.match(line)
        if m and levels:
            levels[-1]["log2"] = {int(b): int(c) for b, c in
                                  re.findall(r"2\^(\d+):(\d+)", m.group(1))}
    return records, errors, levels


def decode(log, k, decoder=None):
    """Rebuild kernel k's table from its raw dump. Returns a dict or None (no dump)."""
    if not k["raw"] and not k["raw_bad"]:
        return None
    d = k["dump"] or {}
    out = {"records_ok": 0, "crc_bad": [], "missing": [], "levels": [], "decoded": None,
           "error": None, "matches_log": None, "differences": []}
    data, n, bad, missing = verify(log, k)
    out.update(records_ok=n, crc_bad=bad, missing=missing)
    if not k["dump"]:
        out["error"] = "no dump header line (cpu/format unknown)"
        log.problem(k["line"], "raw lines of %s without a dump header: not decoded" % k["kernel"])
        return out
    exe = decoder or default_decoder()
    cmd = [exe, "--cpu", str(d["cpu"]), "--format", str(d["format"]), "--event",
           str(d["event"]), "--summary", "--json", "-"]
    if d["core"] in ("p", "e"):
        cmd[1:1] = ["--core", d["core"]]
    if d.get("vendor") == "amd":        # IBS samples (docs/ibs.md "Dump layout")
        cmd[1:1] = ["--vendor", "amd"]
        if d.get("dsrc") in ("ibs-legacy", "ibs-ext"):
            cmd[1:1] = ["--dsrc", d["dsrc"][4:]]
    try:
        p = subprocess.run(cmd, input=data, capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as e:
        out["error"] = "cannot run %s: %s" % (exe, e)
        log.problem(d["line"], "dump of %s not decoded: %s" % (k["kernel"], out["error"]))
        return out
    if p.returncode == 2:
        out["error"] = p.stderr.decode("utf-8", "replace").strip()
        log.problem(d["line"], "dump of %s not decoded: %s" % (k["kernel"], out["error"]))
        return out
    recs = []
    for line in p.stdout.decode("utf-8", "replace").splitlines():
        try:
            recs.append(json.loads(line))
        except ValueError:
            pass
    out["decoded"] = len(recs)
    out["errors"] = sum(1 for r in recs if r.get("error"))
    total, _, levels = parse_summary(p.stderr.decode("utf-8", "replace"))
    total = sum(lv["count"] for lv in levels)
    for lv in levels:
        lv["share"] = (lv["count"] * 1000 // total) / 10 if total else 0.0
    out["levels"] = levels
    if k["levels"]:
        out["differences"] = compare_tables(k["levels"], levels)
        out["matches_log"] = not out["differences"]
    return out


KEYS = ("count", "share", "min", "p50", "p90", "p99", "max")


def compare_tables(printed, rebuilt):
    diffs = []
    a = {lv["id"]: lv for lv in printed}
    b = {lv["id"]: lv for lv in rebuilt}
    for lid in sorted(set(a) | set(b)):
        if lid not in a or lid not in b:
            diffs.append("%s: only in the %s table" % (lid, "printed" if lid in a else "decoded"))
            continue
        for key in KEYS:
            if a[lid].get(key) != b[lid].get(key):
                diffs.append("%s %s: printed %s, decoded %s" % (lid, key, a[lid].get(key),
                                                                b[lid].get(key)))
        if a[lid].get("log2") and a[lid]["log2"] != b[lid].get("log2"):
            diffs.append("%s hist: printed %s, decoded %s" % (lid, a[lid]["log2"],
                                                             b[lid].get("log2")))
    return diffs
