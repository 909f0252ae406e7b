"""compare.py: two runs side by side (`pebs-report A.log B.log`): header differences,
verdict changes per (sub)test, timing deltas per load kernel, per-level latency deltas and
latency-curve deltas, for checking a new stepping/BIOS/hypervisor against a known-good run.
It says when a run's figures are not a machine's (simulated, emulated: runkind.py), when a
kernel's working set differs between the runs (its delta then compares different things),
and, once, when a run has nothing to compare (an empty log, `loadbench --pebs` on a machine
without a PMU) instead of a line per test."""
import re

from . import loaded, runkind

HEAD_KEYS = ("kernel_version", "output_format", "cpu", "hypervisor", "tsc", "core_clock",
             "cmdline")


# docs/output.md "Subtest names on AMD": ibs_<x> is the IBS path's pebs_<x> (logs before
# issue 31 say pebs_<x> on AMD too), so a run is compared under the PEBS name.
IBS_ALIAS = re.compile(r"^((?:cpu\d+_\w+?_)?)ibs_(source|overhead|latency|rises|store|stlb|remote)$")


def _tests(doc):
    out = {}

    def add(ts, parent):
        for t in ts:
            name = IBS_ALIAS.sub(r"\1pebs_\2", t["name"] or "")
            path = parent + "/" + name if parent else name
            out.setdefault(path, t)
            add(t["subtests"], path)
    add(doc.get("tests", []), "")
    return out


def _pct(a, b):
    return "%+.1f%%" % ((b - a) * 100.0 / a) if a else "-"


def _ws(k):
    return ((k or {}).get("chain") or {}).get("ws")


def _size(b):
    for s, m in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if b and b % m == 0:
            return "%d%s" % (b // m, s)
    return "-" if b is None else str(b)


def _runs(a, b, w, res):
    """The runs' kinds; returns False when one has nothing to compare (said once)."""
    empty = [(n, d) for n, d in (("A", a), ("B", b)) if not runkind.has_data(d)]
    for n, d in empty:
        why = "; ".join(d.get("reasons") or []) or "no test results in it"
        w("%s (%s) has no results to compare: %s" % (n, d["source"], why))
        res["no_data"].append(n)
    if empty:
        return False
    notes = [(n, runkind.caveat(d)) for n, d in (("A", a), ("B", b)) if runkind.caveat(d)]
    if notes:
        w("Runs")
        for n, c in notes:
            w("  %s: %s" % (n, c))
        if runkind.not_a_machine(a) and runkind.not_a_machine(b):
            w("  neither run is a machine's measurement: the deltas below compare emulators "
              "or models, not hardware")
        w("")
    return True


def compare(a, b):
    """Returns (text, dict)."""
    out, res = [], {"header": [], "verdicts": [], "timing": [], "levels": [], "curve": [],
                    "loaded": [],
                    "no_data": [], "ws_differ": [],
                    "runs": {"a": a.get("run") or runkind.kind(a),
                             "b": b.get("run") or runkind.kind(b)}}
    w = out.append
    w("pebs-report compare: A=%s  B=%s" % (a["source"], b["source"]))
    w("")
    if not _runs(a, b, w, res):
        w("")
        w("Status: A %d, B %d" % (a["status"], b["status"]))
        return "\n".join(out) + "\n", res
    w("Header")
    for key in HEAD_KEYS:
        va, vb = a.get(key), b.get(key)
        mark = "  " if va == vb else "* "
        w("  %s%-15s A: %s" % (mark, key, va))
        if va != vb:
            w("    %-15s B: %s" % ("", vb))
            res["header"].append({"key": key, "a": va, "b": vb})
    for lv in sorted(set(a.get("cache", {})) | set(b.get("cache", {}))):
        sa = a["cache"].get(lv, {}).get("size")
        sb = b["cache"].get(lv, {}).get("size")
        if sa != sb:
            w("  * cache %-9s A: %s  B: %s" % (lv, sa, sb))
            res["header"].append({"key": "cache " + lv, "a": sa, "b": sb})
    w("")
    ta, tb = _tests(a), _tests(b)
    w("Verdicts (A -> B)")
    order = list(ta) + [p for p in tb if p not in ta]
    changed = 0
    for p in order:
        sa = ta[p]["status"] if p in ta else "absent"
        sb = tb[p]["status"] if p in tb else "absent"
        if sa != sb:
            changed += 1
            why = tb[p]["reason"] if p in tb and tb[p]["reason"] else ""
            w("  %-40s %-10s -> %-10s %s" % (p, sa, sb, why))
            res["verdicts"].append({"test": p, "a": sa, "b": sb})
    if not changed:
        w("  no verdict changes (%d tests and subtests)" % len(order))
    ka = {k["kernel"]: k for k in a.get("kernels", [])}
    kb = {k["kernel"]: k for k in b.get("kernels", [])}
    names = [n for n in ka if n in kb] + [n for n in kb if n not in ka]
    timed = [n for n in names if (ka.get(n) or {}).get("time") or (kb.get(n) or {}).get("time")]
    if timed:
        w("")
        w("Timing (ns per unit)")
        w("  %-16s %10s %10s %10s %9s  %s" % ("kernel", "A ns", "B ns", "delta", "delta%",
                                              "working set A/B"))
        for n in timed:
            xa = (ka.get(n) or {}).get("time")
            xb = (kb.get(n) or {}).get("time")
            na = xa["ns"] if xa else None
            nb = xb["ns"] if xb else None
            wa, wb = _ws(ka.get(n)), _ws(kb.get(n))
            wsd = ("%s/%s" % (_size(wa), _size(wb)) if wa == wb else
                   "%s/%s DIFFER: not the same measurement" % (_size(wa), _size(wb)))
            if wa != wb and wa and wb:
                res["ws_differ"].append({"kernel": n, "a": wa, "b": wb})
            if na is not None and nb is not None:
                w("  %-16s %10.2f %10.2f %+10.2f %9s  %s" % (n, na, nb, nb - na, _pct(na, nb),
                                                           wsd))
            else:
                w("  %-16s %10s %10s %10s %9s  %s" % (n, "-" if na is None else "%.2f" % na,
                                                     "-" if nb is None else "%.2f" % nb, "", "",
                                                     wsd))
            res["timing"].append({"kernel": n, "a_ns": na, "b_ns": nb, "a_ws": wa, "b_ws": wb})
        if res["ws_differ"]:
            w("  working sets differ for %s: those deltas compare different working sets"
              % ", ".join(d["kernel"] for d in res["ws_differ"]))
    lv_lines = []
    for n in names:
        la = {lv["id"]: lv for lv in (ka.get(n) or {}).get("levels", [])}
        lb = {lv["id"]: lv for lv in (kb.get(n) or {}).get("levels", [])}
        for lid in [x for x in la if x in lb] + [x for x in la if x not in lb] + \
                [x for x in lb if x not in la]:
            va, vb = la.get(lid), lb.get(lid)
            cell = []
            for key in ("count", "share", "p50", "p90", "p99"):
                x = va.get(key) if va else None
                y = vb.get(key) if vb else None
                cell.append("%s->%s" % ("-" if x is None else x, "-" if y is None else y))
            lv_lines.append("  %-14s %-10s %s" % (n, lid, "  ".join(
                "%s %s" % (k, c) for k, c in zip(("count", "share", "p50", "p90", "p99"),
                                                  cell))))
            res["levels"].append({"kernel": n, "level": lid,
                                  "a": {k: va.get(k) for k in ("count", "share", "p50", "p90", "p99")} if va else None,
                                  "b": {k: vb.get(k) for k in ("count", "share", "p50", "p90", "p99")} if vb else None})
    if lv_lines:
        w("")
        w("PEBS per-level latency (A->B, core cycles)")
        out.extend(lv_lines)
    ca = {p["bytes"]: p["ns"] for p in a.get("curve", [])}
    cb = {p["bytes"]: p["ns"] for p in b.get("curve", [])}
    both = sorted(set(ca) & set(cb))
    if both:
        w("")
        w("Latency curve (ns/load)")
        for s in both:
            w("  %12d %10.2f %10.2f %9s" % (s, ca[s], cb[s], _pct(ca[s], cb[s])))
            res["curve"].append({"bytes": s, "a_ns": ca[s], "b_ns": cb[s]})
    loaded.compare(a.get("loaded") or [], b.get("loaded") or [], w, res["loaded"])
    w("")
    w("Status: A %d%s, B %d%s" % (a["status"], _nopebs(a), b["status"], _nopebs(b)))
    return "\n".join(out) + "\n", res


def _nopebs(d):
    return " (nothing was measured by PEBS)" if not d.get("pebs_records") else ""
