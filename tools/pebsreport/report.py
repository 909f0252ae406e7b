"""report.py: one parsed log -> a plain dict (the `--json` document, REPORT_FORMAT), the
text summary, and the `--csv DIR` tables."""
import csv
import os

from . import REPORT_FORMAT, bandwidth, extract, ktap, loaded, logread, matrix, rawdump, runkind


def _paren(detail):
    """A result's measured values as the text summary shows them: in parentheses (format 1
    printed them so; format 2 puts them after '#')."""
    return detail if detail.startswith("(") else "(%s)" % detail


def load(path, decoder=None, decode_raw=True, read=None):
    """Parse one log. Returns (doc, log); doc["status"] is the exit status (2 unreadable).
    read: what logread.read_log(path) returned, when the caller has read it already."""
    try:
        lines, nbytes = read or logread.read_log(path)
    except OSError as e:
        return {"format": REPORT_FORMAT, "source": path, "status": 2,
                "reasons": ["cannot read: %s" % (e.strerror or e)]}, None
    log = ktap.parse(lines)
    ex = extract.extract(log)
    mats = matrix.extract(log)
    for k in ex.kernels:
        k["decoded"] = rawdump.decode(log, k, decoder) if decode_raw else None
    status, reasons = ktap.verdict(log)
    if status != 2:
        for k in ex.kernels:
            dec = k["decoded"]
            if dec and dec["matches_log"] is False:
                if dec["crc_bad"] or dec["missing"]:
                    reasons.append("note: dump of %s is damaged (%d CRC errors, %d missing):"
                                   " decoded table differs" % (k["kernel"], len(dec["crc_bad"]),
                                                                len(dec["missing"])))
                else:
                    status = max(status, 1)
                    reasons.append("dump of %s does not decode to the printed table"
                                   % k["kernel"])
    env = [{"line": no, "key": key, "value": val} for no, key, val in log.env]
    head = {e["key"]: e["value"] for e in env}
    kernels = []
    for k in ex.kernels:
        kd = {key: k[key] for key in ("kernel", "test", "line", "chain", "time", "pebs",
                                      "levels", "dump", "decoded", "cpu", "core_type")}
        kd["raw_lines"] = len(k["raw"]) + len(k["raw_bad"])
        kd["rec_lines"] = k["rec"]
        kd["full_table"] = k["full_table"]
        kernels.append(kd)
    doc = {
        "format": REPORT_FORMAT, "source": path, "bytes": nbytes, "status": status,
        "reasons": reasons, "ktap_version": log.version, "output_format": ex.output_format,
        "kernel_version": next((e["value"] for e in env if e["key"] == "" and
                                e["value"].startswith("pebs-kernel ")), None),
        "cmdline": head.get("cmdline"), "cpu": head.get("cpu"),
        "hypervisor": head.get("hypervisor"), "tsc": head.get("tsc"),
        "core_clock": ex.core_clock, "environment": env,
        "cache": {lv: {k: v for k, v in c.items() if k != "text"} for lv, c in ex.cache.items()},
        "plan": log.root.plan, "tests": [t.to_dict() for t in log.tests],
        "totals": log.totals, "top_level_totals": log.top_totals, "exit_line": log.exit_status,
        "bail_out": log.bail[1] if log.bail else None,
        "kernels": kernels, "cpus": {str(i): c for i, c in sorted(ex.cpus.items())},
        "curve": ex.curve, "curve_notes": ex.curve_notes,
        "loaded": ex.loaded, "loaded_figures": loaded.figures(ex.loaded),
        "noise": {"preamble_lines": log.preamble, "trailing_lines": log.trailing,
                  "non_utf8_lines": log.bad_bytes},
        "problems": [{"line": no, "message": msg} for no, msg in sorted(log.problems)],
    }
    if ex.bandwidth:    # the bandwidth test's points (bandwidth.py): only where it ran
        doc["bandwidth"] = ex.bandwidth
    if mats:    # the latency matrices (matrix.py): only where the log has one
        doc["matrices"] = mats
    doc["run"] = runkind.kind(doc)
    doc["pebs_records"] = runkind.pebs_records(doc)
    return doc, log


def _n(v, fmt="%s"):
    return "-" if v is None else fmt % v


def _size(b):
    for s, m in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if b and b % m == 0:
            return "%d%s" % (b // m, s)
    return str(b)


def _cpu_label(doc, i):
    """`cpu2 (E-core, APIC id 4, node 0, Gracemont, PEBS format 4)` from the CPU's lines."""
    c = doc.get("cpus", {}).get(str(i))
    if not c:
        return "cpu%d" % i
    bits = ["core type %s" % c["type"] if c["type"] == "-" else c["type"],
            "APIC id %d" % c["apic"], "node %d" % c["node"]]
    if c.get("model"):
        bits.append(str(c["model"]))
    if c.get("format") is not None:
        bits.append("PEBS format %s" % c["format"])
    return "cpu%d (%s)" % (i, ", ".join(bits))


def by_cpu(doc, kernels):
    """[(label, kernels)]: one group per CPU, boot CPU first, where the log has per-CPU runs;
    else one group with label None (the single-CPU summary, unchanged)."""
    if not any(k.get("cpu") is not None for k in kernels):
        return [(None, kernels)] if kernels else []
    cpus = sorted({k["cpu"] for k in kernels})
    return [(_cpu_label(doc, c), [k for k in kernels if k["cpu"] == c]) for c in cpus]


def summary(doc, subtests=False):
    out = []
    w = out.append
    w("pebs-report: %s (%s bytes)" % (doc["source"], doc.get("bytes", "?")))
    if doc["status"] == 2 and "tests" not in doc:
        w("  unreadable: %s" % "; ".join(doc["reasons"]))
        return "\n".join(out) + "\n"
    w("")
    w("Environment (output-format %s)" % _n(doc["output_format"]))
    for e in doc["environment"]:
        w("  %s%s" % (e["key"] + ": " if e["key"] else "", e["value"]))
    if doc["cache"]:
        w("  cache geometry: " + ", ".join("%s %s" % (lv, _size(c["size"]))
                                           for lv, c in doc["cache"].items()))
    if runkind.caveat(doc):
        w("  CAVEAT: " + runkind.caveat(doc))
    w("")
    t, top = doc["totals"], doc.get("top_level_totals")
    w("Tests (plan %s%s%s)" % (_n(doc["plan"]), ", totals pass:%d fail:%d skip:%d total:%d"
                                % (t["pass"], t["fail"], t["skip"], t["total"]) if t else
                                ", no totals line",
                                ", top-level pass:%d fail:%d skip:%d total:%d"
                                % (top["pass"], top["fail"], top["skip"], top["total"])
                                if top else ""))
    for depth, path, n in _walk(doc["tests"]):
        if depth and not subtests and n["status"] in ("pass", "skip"):
            continue
        why = ""
        if n["reason"] is not None:
            why = "  # " + (n["directive"] + " " if n["directive"] else "") + n["reason"]
        w("  %s%-4s %-10s %s%s%s" % ("  " * depth, n["number"] if n["number"] else "-",
                                      n["status"].upper(), n["name"],
                                      " " + _paren(n["detail"]) if n["detail"] else "", why))
    for label, timed in by_cpu(doc, [k for k in doc["kernels"] if k["time"]]):
        w("")
        w("Timing per load kernel" + (", " + label if label else ""))
        w("  %-16s %6s %5s %9s %9s %9s %9s %8s %6s" % ("kernel", "ws", "unit", "TSC/unit",
                                                      "min", "max", "ns", "core", "reps"))
        for k in timed:
            tm, ch = k["time"], k["chain"] or {}
            w("  %-16s %6s %5s %9.2f %9s %9s %9.2f %8s %6s" % (
                k["kernel"], _size(ch["ws"]) if ch.get("ws") else "-", tm["unit"], tm["tsc"],
                _n(tm["min"], "%.2f"), _n(tm["max"], "%.2f"), tm["ns"], _n(tm["core"], "%.2f"),
                _n(tm.get("reps"))))
    if doc["curve"]:
        w("")
        w("Latency curve (%d points)" % len(doc["curve"]))
        w("  %12s %10s %10s %10s" % ("bytes", "TSC/load", "ns/load", "core/load"))
        for p in doc["curve"]:
            w("  %12d %10.2f %10.2f %10s" % (p["bytes"], p["tsc"], p["ns"],
                                             _n(p["core"], "%.2f")))
    if doc.get("loaded"):
        loaded.text(doc["loaded"], w)
    if doc.get("bandwidth"):
        bandwidth.text(doc["bandwidth"], w)
    for ln in matrix.summary_lines(doc):
        w(ln)
    for label, group in by_cpu(doc, [k for k in doc["kernels"]
                                     if k["pebs"] or k["levels"] or k["decoded"]]):
        if label:
            w("")
            w("PEBS on %s" % label)
        _pebs(w, group)
    if doc["problems"]:
        w("")
        w("Unparsed lines: %d (details on stderr)" % len(doc["problems"]))
    w("")
    w("Verdict: %s%s%s" % ({0: "PASS (all passed or skipped)", 1: "FAIL", 2: "UNREADABLE"}
                            [doc["status"]], "" if not doc["reasons"] else ": " +
                            "; ".join(doc["reasons"]), _no_pebs(doc)))
    return "\n".join(out) + "\n"


def _no_pebs(doc):
    """The verdict's "nothing was measured by PEBS" note, with the skips behind it."""
    if doc.get("pebs_records") or not doc.get("tests"):
        return ""
    t = doc.get("totals") or {}
    return "; nothing was measured by PEBS (no PEBS or IBS record in any kernel%s)" % (
        "; %d of %d skipped" % (t["skip"], t["total"]) if t.get("skip") else "")


def _pebs(w, kernels):
    for k in kernels:
        w("")
        p = k["pebs"]
        w("PEBS %s (%s)" % (k["kernel"], k["test"]))
        if p:
            w("  event %s ldlat %s sav %s: %s records, %s dropped, %s PMIs, %s errors; "
              "target %s share %s%% p50 %s, timed %s (%s)" % (
                  p["event"], _n(p["ldlat"]), p["sav"], p["records"], p["dropped"], _n(p["pmis"]),
                  p["errors"], _n(p["target"]), _n(p["share"]), _n(p["p50"]),
                  _n(p["timed"]), p["clock"]))
        if k["levels"]:
            _table(w, k["levels"], "printed by the kernel")
        dec = k["decoded"]
        if dec:
            w("  raw dump: %d records verified, %d CRC errors, %d missing"
              % (dec["records_ok"], len(dec["crc_bad"]), len(dec["missing"])))
            if dec["error"]:
                w("  not decoded: %s" % dec["error"])
            elif dec["levels"]:
                _table(w, dec["levels"], "decoded from the raw dump by pebs-decode")
                if dec["matches_log"] is True:
                    w("  decoded table matches the printed table")
                elif dec["matches_log"] is False:
                    for d in dec["differences"]:
                        w("  MISMATCH %s" % d)


def _table(w, levels, what):
    w("  per-level table (%s)" % what)
    w("    %-22s %7s %6s %5s %5s %5s %5s %5s  %s" % ("level", "count", "share", "min", "p50",
                                                   "p90", "p99", "max", "log2 histogram"))
    for lv in levels:
        w("    %-22s %7d %5.1f%% %5s %5s %5s %5s %5s  %s" % (
            lv["level"], lv["count"], lv.get("share") or 0.0, _n(lv["min"]), _n(lv["p50"]),
            _n(lv["p90"]), _n(lv["p99"]), _n(lv["max"]),
            " ".join("%d:%d" % kv for kv in sorted(lv.get("log2", {}).items()))))


def _walk(tests, depth=0):
    for t in tests:
        yield depth, None, t
        yield from _walk(t["subtests"], depth + 1)


def write_csv(doc, d):
    os.makedirs(d, exist_ok=True)
    files = []

    def table(name, header, rows):
        p = os.path.join(d, name)
        with open(p, "w", newline="") as f:
            c = csv.writer(f, lineterminator="\n")
            c.writerow(header)
            c.writerows(rows)
        files.append(p)

    table("environment.csv", ["line", "key", "value"],
          [(e["line"], e["key"], e["value"]) for e in doc["environment"]])
    rows = []

    def add(ts, parent):
        for t in ts:
            path = parent + "/" + t["name"] if parent else t["name"]
            rows.append((path, t["number"], t["status"], t["directive"] or "",
                         t["reason"] or "", t["detail"] or "", t["line"]))
            add(t["subtests"], path)
    add(doc["tests"], "")
    table("tests.csv", ["test", "number", "status", "directive", "reason", "detail", "line"],
          rows)
    table("timing.csv", ["kernel", "test", "ws_bytes", "pages", "unit", "tsc", "tsc_min",
                         "tsc_max", "ns", "core", "ratio", "reps", "steps", "cpu", "core_type"],
          [(k["kernel"], k["test"], _e((k["chain"] or {}).get("ws")),
            _e((k["chain"] or {}).get("pages")), k["time"]["unit"], k["time"]["tsc"],
            _e(k["time"]["min"]), _e(k["time"]["max"]), k["time"]["ns"], _e(k["time"]["core"]),
            _e(k["time"]["ratio"]), _e(k["time"].get("reps")), _e(k["time"]["steps"]),
            _e(k.get("cpu")), _e(k.get("core_type")))
           for k in doc["kernels"] if k["time"]])
    table("curve.csv", ["bytes", "tsc", "ns", "core"],
          [(p["bytes"], p["tsc"], p["ns"], _e(p["core"])) for p in doc["curve"]])
    if doc.get("loaded"):
        table("loaded.csv", *loaded.csv_rows(doc["loaded"]))
    if doc.get("bandwidth"):
        table("bandwidth.csv", *bandwidth.csv_rows(doc["bandwidth"]))
    lv_rows, h_rows = [], []
    for k in doc["kernels"]:
        srcs = [("log", k["levels"])]
        if k["decoded"] and k["decoded"]["levels"]:
            srcs.append(("raw", k["decoded"]["levels"]))
        for src, levels in srcs:
            for lv in levels:
                lv_rows.append((k["kernel"], src, lv["level"], lv["id"], lv["count"],
                                lv.get("share", ""), _e(lv["min"]), _e(lv["p50"]),
                                _e(lv["p90"]), _e(lv["p99"]), _e(lv["max"]),
                                _e(k.get("cpu")), _e(k.get("core_type"))))
                for b, c in sorted(lv.get("log2", {}).items()):
                    h_rows.append((k["kernel"], src, lv["id"], b, c))
    table("levels.csv", ["kernel", "source", "level", "level_id", "count", "share", "min",
                         "p50", "p90", "p99", "max", "cpu", "core_type"], lv_rows)
    table("histogram.csv", ["kernel", "source", "level_id", "log2_bucket", "count"], h_rows)
    if doc.get("matrices"):
        table("matrices.csv", matrix.CSV_HEAD, matrix.csv_rows(doc))
    return files


def _e(v):
    return "" if v is None else v
