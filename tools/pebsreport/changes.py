"""changes.py: `pebs-report --db URL changes [MACHINE|MODEL]`: what moved beyond the noise floor
in each machine's latest run, (1) since the previous run of the same machine and (2) against
the latest runs of the other machines of the same CPU model, each change next to what else
differs between the two runs (microcode, BIOS version, DIMM population, memory, kernel
options, pebs-kernel version): the sentence a lab writes by hand.

Noise floor of a measure: latency (ns, core cycles) max(FLOOR_REL of the previous value,
FLOOR_MADS scaled median absolute deviations of the machine's earlier runs); purity (percent
of PEBS records from the target level) max(FLOOR_PTS points, FLOOR_MADS MADs). Against peers
the `--fleet` outlier rule holds (fleet.py: at least MIN_GROUP machines, 4 MADs and 15 % or
10 points). Runs under software emulation are not judged on timing, unreadable runs not at
all.
"""
import statistics

from . import fleet

FLOOR_REL, FLOOR_PTS, FLOOR_MADS, HISTORY = 0.05, 3.0, 4.0, 10
MEASURES = tuple("%s.%s" % (lv, m) for lv, _ in fleet.LEVELS for m in ("ns", "core", "purity"))
CONTEXT = (("microcode", "microcode"), ("bios", "BIOS"), ("dimms", "DIMMs"),
           ("memory", "memory"), ("options", "options"), ("version", "pebs-kernel"),
           ("cpu", "CPU"))


def _order(r):
    return (r["time"] or "", r["id"])


def _mad(vals):
    med = statistics.median(vals)
    return 1.4826 * statistics.median(abs(v - med) for v in vals)


def _judged(run, name):
    return not (run["emulated"] and not name.endswith(".purity"))


def _context(a, b):
    """[(label, before, after)] of what differs between runs a and b."""
    return [(label, a[k] or "-", b[k] or "-") for k, label in CONTEXT if (a[k] or "") !=
            (b[k] or "")]


def _scope(runs, what):
    if what is None:
        return runs
    mine = [r for r in runs if r["machine"] == what]
    if mine:
        return mine
    return [r for r in runs if r["model"] and what.lower() in r["model"].lower()]


def changes(d, what=None):
    """The changes document: {"changes": [...], "scope", "status"}; status 0 nothing moved,
    1 something did, 2 nothing in scope."""
    allruns = [r for r in d.runs() if r["status"] != "unreadable"]
    by_machine = {}
    for r in sorted(allruns, key=_order):
        by_machine.setdefault(r["machine"], []).append(r)
    scope = _scope(allruns, what)
    machines = sorted({r["machine"] for r in scope})
    if not machines:
        return {"scope": what, "changes": [], "machines": 0, "status": 2,
                "reasons": ["no run of a machine or CPU model %r in %s" % (what, d.url)]}
    latest = {m: rs[-1] for m, rs in by_machine.items()}
    need = {r["id"] for m in machines for r in by_machine[m][-HISTORY:]}
    need |= {r["id"] for r in latest.values()}
    ms = d.measures_of(need)
    out = []
    for m in machines:
        rs = by_machine[m]
        cur = rs[-1]
        if len(rs) >= 2:
            out += _vs_previous(rs[-HISTORY:], ms)
        out += _vs_peers(cur, [latest[o] for o in latest if o != m and
                               latest[o]["model"] == cur["model"] and cur["model"]], ms)
    return {"scope": what, "changes": out, "machines": len(machines),
            "status": 1 if out else 0, "reasons": [],
            "rule": "noise floor: latency max(%d%%, %g MADs of up to %d earlier runs), purity "
                    "max(%g points, %g MADs); peers: %s" % (
                        FLOOR_REL * 100, FLOOR_MADS, HISTORY - 1, FLOOR_PTS, FLOOR_MADS,
                        fleet.RULE)}


def _vs_previous(rs, ms):
    cur, prev = rs[-1], rs[-2]
    out = []
    for name in MEASURES:
        if name not in ms[cur["id"]] or name not in ms[prev["id"]] or \
                not (_judged(cur, name) and _judged(prev, name)):
            continue
        (after, unit), before = ms[cur["id"]][name], ms[prev["id"]][name][0]
        hist = [ms[r["id"]][name][0] for r in rs[:-1] if name in ms[r["id"]]]
        mad = _mad(hist) if len(hist) >= 3 else 0.0
        pts = unit == "%"
        floor = max(FLOOR_PTS if pts else FLOOR_REL * abs(before), FLOOR_MADS * mad)
        if abs(after - before) > floor:
            out.append({"machine": cur["machine"], "against": "previous", "measure": name,
                        "unit": unit, "before": before, "after": after, "floor": floor,
                        "run": cur["run_key"], "run_time": cur["time"],
                        "before_run": prev["run_key"], "before_time": prev["time"],
                        "context": _context(prev, cur)})
    return out


def _vs_peers(cur, peers, ms):
    out = []
    judged = [p for p in peers if not p["emulated"]]
    if cur["emulated"] or len(judged) + 1 < fleet.MIN_GROUP:
        return out
    for name in MEASURES:
        vals = [ms[p["id"]][name][0] for p in judged if name in ms[p["id"]]]
        if name not in ms[cur["id"]] or len(vals) + 1 < fleet.MIN_GROUP:
            continue
        v, unit = ms[cur["id"]][name]
        med = statistics.median(vals)
        pts = unit == "%"
        floor = max(fleet.OUT_MADS * _mad(vals), fleet.OUT_PTS if pts else fleet.OUT_REL * med)
        if abs(v - med) > floor:
            out.append({"machine": cur["machine"], "against": "peers", "measure": name,
                        "unit": unit, "before": med, "after": v, "floor": floor,
                        "peers": len(vals), "run": cur["run_key"], "run_time": cur["time"],
                        "context": _peer_context(cur, judged)})
    return out


def _peer_context(cur, peers):
    """[(label, the peers' most common value, this machine's)] where they differ."""
    out = []
    for k, label in CONTEXT:
        common = statistics.mode([p[k] or "-" for p in peers])
        if (cur[k] or "-") != common:
            out.append((label, common + " (peers)", cur[k] or "-"))
    return out


def _num(v, unit):
    return ("%.1f" if unit == "%" else "%.2f") % v


def sentence(c):
    """One change as the sentence a lab writes."""
    unit = c["unit"]
    delta = c["after"] - c["before"]
    rel = "%+.1f points" % delta if unit == "%" else "%+.1f %%" % (
        100.0 * delta / c["before"] if c["before"] else 0.0)
    floor = "%.1f points" % c["floor"] if unit == "%" else "%.2f %s" % (c["floor"], unit)
    if c["against"] == "previous":
        head = "%s: %s %s -> %s %s (%s, noise floor %s) since the previous run (%s)" % (
            c["machine"], c["measure"], _num(c["before"], unit), _num(c["after"], unit),
            unit, rel, floor, c["before_time"] or c["before_run"][:20])
        ctx = "; ".join("%s %s -> %s" % x for x in c["context"])
        return head + ("; also changed: " + ctx if ctx else "; nothing else changed")
    head = "%s: %s %s %s vs %s, the median of %d same-model peers (%s, limit %s)" % (
        c["machine"], c["measure"], _num(c["after"], unit), unit, _num(c["before"], unit),
        c["peers"], rel, floor)
    ctx = "; ".join("%s %s vs %s" % x for x in c["context"])
    return head + ("; differs from the peers in: " + ctx if ctx else
                   "; same microcode, BIOS, memory, options and version as the peers")


def text(doc):
    if doc["status"] == 2:
        return "pebs-report changes: %s\n" % "; ".join(doc["reasons"])
    lines = ["pebs-report changes%s: %d machine(s), %d change(s) beyond the noise floor" % (
        " " + doc["scope"] if doc["scope"] else "", doc["machines"], len(doc["changes"]))]
    lines += ["  CHANGE " + sentence(c) for c in doc["changes"]]
    lines.append("(%s)" % doc["rule"])
    return "\n".join(lines) + "\n"
