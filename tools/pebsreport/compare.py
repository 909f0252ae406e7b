"""compare.py: two runs side by side (`pebs-report A.log B.log`): header differences,
verdict changes per (sub)test, timing deltas per load kernel, per-level latency deltas and
latency-curve deltas, for checking a new stepping/BIOS/hypervisor against a known-good run."""

HEAD_KEYS = ("kernel_version", "output_format", "cpu", "hypervisor", "tsc", "core_clock",
             "cmdline")


def _tests(doc):
    out = {}

    def add(ts, parent):
        for t in ts:
            path = parent + "/" + t["name"] if parent else t["name"]
            out.setdefault(path, t)
            add(t["subtests"], path)
    add(doc.get("tests", []), "")
    return out


def _pct(a, b):
    return "%+.1f%%" % ((b - a) * 100.0 / a) if a else "-"


def compare(a, b):
    """Returns (text, dict)."""
    out, res = [], {"header": [], "verdicts": [], "timing": [], "levels": [], "curve": []}
    w = out.append
    w("pebs-report compare: A=%s  B=%s" % (a["source"], b["source"]))
    w("")
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
        w("  %-16s %10s %10s %10s %9s" % ("kernel", "A ns", "B ns", "delta", "delta%"))
        for n in timed:
            xa = (ka.get(n) or {}).get("time")
            xb = (kb.get(n) or {}).get("time")
            na = xa["ns"] if xa else None
            nb = xb["ns"] if xb else None
            if na is not None and nb is not None:
                w("  %-16s %10.2f %10.2f %+10.2f %9s" % (n, na, nb, nb - na, _pct(na, nb)))
            else:
                w("  %-16s %10s %10s" % (n, "-" if na is None else "%.2f" % na,
                                         "-" if nb is None else "%.2f" % nb))
            res["timing"].append({"kernel": n, "a_ns": na, "b_ns": nb})
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
    w("")
    w("Status: A %d, B %d" % (a["status"], b["status"]))
    return "\n".join(out) + "\n", res
