"""fleet.py: `pebs-report --fleet DIR`: every log in a directory (LAVA, tools/sol-capture, USB
runs), one row per machine: CPU, microcode, BIOS (when a `pebs-lab:` metadata line before the
log names it), verdict counts, per-level latency (ns, the load kernels' `time` lines) and PEBS
level purity (the target level's share, `pebs` lines), with the outliers among machines of the
same CPU model marked; where the logs have load_loaded's curve (loaded.py), its peak injected
bandwidth and knee, compared among machines of one CPU model by the same rule; the latency
matrices (load_matrix, load_c2c) compared cell by cell among them (matrix.py). Damaged logs
(cut, garbled, restarted, unreadable) are named with the
reason and never stop the report. docs/lab.md describes the layout a lab collects."""
import os
import re
import shlex
import statistics

from . import REPORT_FORMAT, bandwidth, loaded, logread, matrix, report, runkind

LEVELS = (("L1", "load_l1"), ("L2", "load_l2"), ("L3", "load_l3"), ("DRAM", "load_dram"))
# <machine>-<UTC stamp>.log, as tools/sol-capture names its files
RE_STAMP = re.compile(r"^(.+)-(\d{8}T\d{6}Z)$")
RE_CPU = re.compile(r'^(\S+) ([0-9A-F]{2}_[0-9A-F]{2}H) stepping (\d+) "(.*)"')
RE_UCODE = re.compile(r"microcode (0x[0-9a-fA-F]+)( \((?:not read|rdmsr fault)\))?")
META = "pebs-lab:"
# Outlier rule: among >= MIN_GROUP machines of one CPU model whose timing is judged (not
# software emulation, not simulated: runkind.py), a value further from the model's median than
# OUT_MADS scaled median
# absolute deviations and than OUT_REL of the median (latency) or OUT_PTS points (purity).
MIN_GROUP, OUT_MADS, OUT_REL, OUT_PTS = 3, 4.0, 0.15, 10.0
RULE = ("a value more than %g MADs (x1.4826) and more than %d%% (latency) or %g points "
        "(purity) from the median of at least %d machines of the same CPU model; runs under "
        "software emulation and simulated runs (model-log) are not judged" % (OUT_MADS, OUT_REL * 100, OUT_PTS, MIN_GROUP))


def _meta(path, lines=None):
    """key=value pairs of `pebs-lab:` lines before the log's KTAP start (lines: the log's,
    when the caller has read them)."""
    if lines is None:
        try:
            lines, _ = logread.read_log(path)
        except OSError:
            return {}
    meta = {}
    for ln in lines:
        if "KTAP version" in ln.text:
            break
        t = ln.text.strip()
        if t.startswith(META):
            try:
                words = shlex.split(t[len(META):])
            except ValueError:
                continue
            for w in words:
                k, sep, v = w.partition("=")
                if sep and k:
                    meta[k] = v
    return meta


def _machine_of(fname):
    stem = fname.rsplit(".", 1)[0] if "." in fname else fname
    m = RE_STAMP.match(stem)
    return (m.group(1), m.group(2)) if m else (stem, "")


def _count(tests):
    c = {"pass": 0, "fail": 0, "skip": 0, "total": 0}
    for t in tests:
        if t["subtests"]:
            sub = _count(t["subtests"])
            for k in c:
                c[k] += sub[k]
        else:
            c["total"] += 1
            st = t["status"]
            c[st if st in ("pass", "skip") else "fail"] += 1
    return c


def _damage(doc):
    """The reasons a log is damaged (empty list: intact)."""
    if "tests" not in doc or doc.get("ktap_version") is None:
        return ["unreadable: " + "; ".join(doc["reasons"]) +
                (" (%d bytes)" % doc["bytes"] if "bytes" in doc else "")]
    why = []
    if doc["exit_line"] is None:
        got, plan = len([t for t in doc["tests"] if t["status"] != "incomplete"]), doc["plan"]
        why.append("truncated: no '# EXIT' line, %s of %s planned tests have a result"
                   % (got, plan if plan is not None else "?"))
    bad = doc["noise"]["non_utf8_lines"]
    if bad:
        why.append("garbled: %d line(s) with bytes that are not UTF-8 (first at line %d)"
                   % (len(bad), bad[0]))
    restart = [p for p in doc["problems"] if "second 'KTAP version'" in p["message"]]
    if restart:
        why.append("restarted: a second 'KTAP version' line at line %d (the machine reset?)"
                   % restart[0]["line"])
    other = len(doc["problems"]) - len(restart)
    if other:
        why.append("%d unparsed line(s), first at line %d" % (other, next(
            p["line"] for p in doc["problems"] if p not in restart)))
    return why


def _row(path, fname, doc, lines=None):
    meta = _meta(path, lines)
    name, stamp = _machine_of(fname)
    name = meta.get("machine") or name
    env = {e["key"]: e["value"] for e in doc.get("environment", [])}
    cpu = RE_CPU.match(doc.get("cpu") or "")
    ucode = None
    for e in doc.get("environment", []):
        m = RE_UCODE.search(e["value"]) if e["key"] == "pmu" else None
        if m:
            ucode = None if m.group(2) else m.group(1)
            break
    hyp = doc.get("hypervisor") or ""
    smb = [e["value"] for e in doc.get("environment", []) if e["key"] == "smbios"]
    row = {"machine": name, "file": fname, "stamp": stamp, "runs": 1,
           "cpu": doc.get("cpu"), "model": None, "microcode": ucode,
           "bios": meta.get("bios") or env.get("bios") or _smbios_bios(smb),
           "dimms": _smbios_dimms(smb), "bmc": meta.get("bmc"),
           "emulated": runkind.kind(doc)["kind"] == "emulated", "hypervisor": hyp or None,
           "simulated": runkind.kind(doc)["kind"] == "simulated",
           "status": {0: "pass", 1: "fail", 2: "unreadable"}[doc["status"]],
           "counts": None, "top_level": None, "latency_ns": {}, "purity": {},
           "loaded": doc.get("loaded_figures"),
           "bw_dram_gbps": bandwidth.peak(doc.get("bandwidth") or []),
           "damage": _damage(doc), "outliers": [], "reasons": doc.get("reasons", []),
           "matrices": matrix.fleet_of(doc)}
    if cpu:
        row["model"] = "%s %s stepping %s \"%s\"" % cpu.groups()
        row["cpu_short"] = "%s s%s %s" % cpu.group(2, 3, 4)
    if "tests" in doc and doc.get("ktap_version") is not None:
        row["counts"] = doc["totals"] and {k: doc["totals"][k] for k in
                                           ("pass", "fail", "skip", "total")} \
            or _count(doc["tests"])
        row["top_level"] = doc["top_level_totals"] and {
            k: doc["top_level_totals"][k] for k in ("pass", "fail", "skip", "total")}
        if row["status"] == "fail" and row["damage"] and not any(
                r.startswith("failed:") for r in doc["reasons"]):
            row["status"] = "incomplete"
        ks = {k["kernel"]: k for k in doc["kernels"]}
        for lv, kn in LEVELS:
            k = ks.get(kn)
            if k and k["time"] and k["time"]["unit"] == "load":
                row["latency_ns"][lv] = k["time"]["ns"]
            if k and k["pebs"] and k["pebs"]["share"] is not None:
                row["purity"][lv] = k["pebs"]["share"]
    return row


RE_SMBIOS_BIOS = re.compile(r'^bios "([^"]*)" version "([^"]*)" date (\S+)')


def _smbios_bios(lines):
    """The BIOS as the kernel's `# smbios: bios "V" version "X" date D` line names it."""
    for v in lines:
        m = RE_SMBIOS_BIOS.match(v)
        if m:
            return "%s %s %s" % m.groups()
    return None


def _smbios_dimms(lines):
    """The memory population (`# smbios: memory ...`), or None."""
    return next((v[len("memory "):] for v in lines if v.startswith("memory ")), None)


def _outliers(rows):
    """Mark values far from the median of their CPU model's machines; returns the groups."""
    groups = {}
    for r in rows:
        if r["model"]:
            groups.setdefault(r["model"], []).append(r)
    out = []
    for model, members in sorted(groups.items()):
        judged = [r for r in members if not r["emulated"] and not r["simulated"]]
        g = {"model": model, "machines": [r["machine"] for r in members],
             "judged": len(judged) >= MIN_GROUP, "median_ns": {}, "median_purity": {}}
        for metric, key, rel in (("latency", "latency_ns", True), ("purity", "purity", False)):
            for lv, _ in LEVELS:
                vals = [r[key][lv] for r in judged if lv in r[key]]
                if len(vals) < MIN_GROUP:
                    continue
                med = statistics.median(vals)
                mad = 1.4826 * statistics.median(abs(v - med) for v in vals)
                g["median_ns" if rel else "median_purity"][lv] = med
                lim = max(OUT_MADS * mad, OUT_REL * med if rel else OUT_PTS)
                for r in judged:
                    v = r[key].get(lv)
                    if v is not None and abs(v - med) > lim:
                        r["outliers"].append({"metric": metric, "level": lv, "value": v,
                                              "median": med, "machines": len(vals)})
        # load_loaded's curve: peak injected bandwidth and the knee (relative rule)
        g["median_loaded"] = {}
        for key in ("peak_gbps", "knee_gbps"):
            vals = [r["loaded"][key] for r in judged if r["loaded"] and
                    r["loaded"][key] is not None]
            if len(vals) < MIN_GROUP:
                continue
            med = statistics.median(vals)
            mad = 1.4826 * statistics.median(abs(v - med) for v in vals)
            g["median_loaded"][key] = med
            for r in judged:
                v = (r["loaded"] or {}).get(key)
                if v is not None and abs(v - med) > max(OUT_MADS * mad, OUT_REL * med):
                    r["outliers"].append({"metric": key, "level": "loaded", "value": v,
                                          "median": med, "machines": len(vals)})
        # the bandwidth test's DRAM read (all CPUs at once where it ran on several)
        vals = [r["bw_dram_gbps"] for r in judged if r.get("bw_dram_gbps") is not None]
        if len(vals) >= MIN_GROUP:
            med = statistics.median(vals)
            mad = 1.4826 * statistics.median(abs(v - med) for v in vals)
            g["median_bw_dram_gbps"] = med
            for r in judged:
                v = r.get("bw_dram_gbps")
                if v is not None and abs(v - med) > max(OUT_MADS * mad, OUT_REL * med):
                    r["outliers"].append({"metric": "bw_dram_gbps", "level": "bandwidth",
                                          "value": v, "median": med, "machines": len(vals)})
        g["matrices"] = matrix.fleet_compare(judged, OUT_REL, OUT_MADS, MIN_GROUP)
        # an outlier whose memory population differs from most of its model's machines:
        # the first thing to compare (channels, DIMMs, speed; the kernel's `# smbios:` line)
        pops = [r["dimms"] for r in judged if r["dimms"]]
        common = max(set(pops), key=pops.count) if pops else None
        for r in judged:
            if r["outliers"] and common and r["dimms"] and r["dimms"] != common:
                r["dimm_note"] = "memory %s; most %s machines: %s" % (r["dimms"], model,
                                                                       common)
        out.append(g)
    return out


def load_dir(d, decoder=None):
    """Read every regular file in d. Returns the fleet document; doc["status"]: 0 every
    machine passed, nothing damaged, no outlier; 1 otherwise; 2 d unreadable or empty."""
    try:
        names = sorted(n for n in os.listdir(d) if os.path.isfile(os.path.join(d, n))
                       and not n.startswith("."))
    except OSError as e:
        return {"format": REPORT_FORMAT, "fleet": d, "status": 2,
                "reasons": ["cannot read directory: %s" % (e.strerror or e)]}
    logs = [n for n in names if not n.endswith((".py", ".sh", ".md", ".json", ".csv"))]
    rows = []
    for n in logs:
        p = os.path.join(d, n)
        doc, _ = report.load(p, decoder, decode_raw=False)
        rows.append(_row(p, n, doc))
    byname = {}
    for r in rows:        # files sort by stamp: the newest run of a machine is its row
        prev = byname.get(r["machine"])
        r["runs"] = prev["runs"] + 1 if prev else 1
        if prev:
            r["earlier"] = prev.get("earlier", []) + [prev["file"]]
        byname[r["machine"]] = r
    machines = list(byname.values())
    groups = _outliers(machines)
    damaged = [{"file": r["file"], "machine": r["machine"], "reason": why}
               for r in rows for why in r["damage"]]
    bad = any(r["status"] != "pass" or r["damage"] or r["outliers"] for r in machines)
    return {"format": REPORT_FORMAT, "fleet": d, "logs": len(logs), "machines": machines,
            "models": groups, "damaged": damaged, "outlier_rule": RULE,
            "status": 2 if not logs else 1 if bad else 0,
            "reasons": [] if logs else ["no log files in %s" % d]}


def _e(v):
    return "" if v is None else v


def _f(v, fmt="%.2f"):
    return "-" if v is None else fmt % v


def _cnt(c):
    return "%d/%d/%d" % (c["pass"], c["fail"], c["skip"]) if c else "-"


def summary(doc):
    out = []
    w = out.append
    if doc["status"] == 2 and "machines" not in doc or not doc.get("logs"):
        w("pebs-report --fleet %s: %s" % (doc["fleet"], "; ".join(doc["reasons"])))
        return "\n".join(out) + "\n"
    ms = doc["machines"]
    w("pebs-report --fleet %s: %d logs, %d machines, %d CPU models" % (
        doc["fleet"], doc["logs"], len(ms), len(doc["models"])))
    w("")
    w("%-14s %-30s %-10s %-12s %-11s %-14s %8s %8s %8s %8s  %s" % (
        "machine", "cpu", "microcode", "bios", "verdict", "pass/fail/skip", "L1 ns",
        "L2 ns", "L3 ns", "DRAM ns", "purity % L1/L2/L3/DRAM"))
    for r in ms:
        mark = {(o["metric"], o["level"]) for o in r["outliers"]}
        lat = ["%s%s" % (_f(r["latency_ns"].get(lv)), "*" if ("latency", lv) in mark else "")
               for lv, _ in LEVELS]
        pur = "/".join("%s%s" % (_f(r["purity"].get(lv), "%.1f"),
                                 "*" if ("purity", lv) in mark else "") for lv, _ in LEVELS)
        cpu = r.get("cpu_short") or "-"
        bios = r["bios"] or "-"
        w("%-14s %-30s %-10s %-12s %-11s %-14s %8s %8s %8s %8s  %s%s" % (
            r["machine"], cpu if len(cpu) <= 30 else cpu[:29] + "~",
            r["microcode"] or "-", bios if len(bios) <= 12 else "~" + bios[-11:],
            r["status"].upper() + (" (emul)" if r["emulated"] else " (sim)" if r["simulated"]
                                   else ""), _cnt(r["counts"]),
            lat[0], lat[1], lat[2], lat[3], pur if r["purity"] else "-",
            "  runs: %d" % r["runs"] if r["runs"] > 1 else ""))
    w("")
    w("CPU models")
    for g in doc["models"]:
        w("  %s: %d machine(s)%s" % (g["model"], len(g["machines"]), "" if g["judged"] else
                                    ", outliers not judged (fewer than %d machines with "
                                    "judged timing)" % MIN_GROUP))
        for n, mm in sorted(g.get("matrices", {}).items()):
            w("    %s: %d x %d compared cell by cell across %d machines" % (
                n, len(mm["rows"]), len(mm["cols"]), len(mm["machines"])))
    outl = [(r, o) for r in ms for o in r["outliers"]]
    w("")
    w("Outliers (*): %d (%s)" % (len(outl), doc["outlier_rule"]))
    for r, o in outl:
        if o["metric"] == "latency":
            w("  OUTLIER %s: %s latency %.2f ns, median %.2f ns of %d %s machines" % (
                r["machine"], o["level"], o["value"], o["median"], o["machines"],
                r["model"]))
        elif o["level"] == "loaded":
            w("  OUTLIER %s: loaded-latency %s %.3f GB/s, median %.3f GB/s of %d %s "
              "machines" % (r["machine"], "peak bandwidth" if o["metric"] == "peak_gbps"
                            else "knee", o["value"], o["median"], o["machines"], r["model"]))
        elif o["level"] == "bandwidth":
            w("  OUTLIER %s: bandwidth test's DRAM read %.2f GB/s, median %.2f GB/s of %d %s "
              "machines" % (r["machine"], o["value"], o["median"], o["machines"], r["model"]))
        elif o["metric"] == "matrix":
            w("  OUTLIER %s: %s: %d ns, median %.1f ns of %d %s machines" % (
                r["machine"], o["level"], o["value"], o["median"], o["machines"],
                r["model"]))
        else:
            w("  OUTLIER %s: %s PEBS purity %.1f%%, median %.1f%% of %d %s machines" % (
                r["machine"], o["level"], o["value"], o["median"], o["machines"],
                r["model"]))
    for r in ms:
        if r.get("dimm_note"):
            w("  DIMMS %s: %s" % (r["machine"], r["dimm_note"]))
    _loaded_summary(doc, w)
    w("")
    w("Damaged logs: %d" % len({d["file"] for d in doc["damaged"]}))
    for d in doc["damaged"]:
        w("  DAMAGED %s: %s" % (d["file"], d["reason"]))
    fails = [r for r in ms if r["status"] == "fail"]
    if fails:
        w("")
        w("Failed machines: %d" % len(fails))
        for r in fails:
            w("  FAIL %s: %s" % (r["machine"], "; ".join(x for x in r["reasons"]
                                                        if x.startswith("failed:"))[:200]))
    return "\n".join(out) + "\n"


def _loaded_summary(doc, w):
    """Peak bandwidth and knee of load_loaded's curve per machine, grouped by CPU model."""
    rows = [r for r in doc["machines"] if r.get("loaded")]
    if not rows:
        return
    w("")
    w("Loaded latency per CPU model (load_loaded: peak injected GB/s, knee GB/s at %d%% of "
      "idle latency, %% of the model's median)" % loaded.KNEE_PCT)
    for g in doc["models"]:
        ms = [r for r in rows if r["model"] == g["model"]]
        if not ms:
            continue
        med = g.get("median_loaded", {})
        w("  %s" % g["model"])
        for r in ms:
            f = r["loaded"]
            w("    %-14s peak %9s%s  knee %9s%s  idle %s ns, at peak %s ns%s" % (
                r["machine"], _f(f["peak_gbps"], "%.3f"), _rel(f["peak_gbps"],
                                                             med.get("peak_gbps")),
                _f(f["knee_gbps"], "%.3f"), _rel(f["knee_gbps"], med.get("knee_gbps")),
                _f(f["idle_ns"]), _f(f["peak_ns"]),
                " (emul)" if r["emulated"] else " (sim)" if r["simulated"] else ""))


def _rel(v, med):
    return " (%3.0f%%)" % (100.0 * v / med) if v is not None and med else ""


def write_csv(doc, d):
    import csv
    os.makedirs(d, exist_ok=True)
    p = os.path.join(d, "fleet.csv")
    head = ["machine", "file", "runs", "cpu", "microcode", "bios", "emulated", "simulated",
            "status",
            "pass", "fail", "skip", "total"] + ["%s_ns" % lv for lv, _ in LEVELS] + \
        ["%s_purity" % lv for lv, _ in LEVELS] + ["loaded_peak_gbps", "loaded_knee_gbps"] + \
        ["bandwidth_dram_gbps", "outliers", "damage"]
    with open(p, "w", newline="") as f:
        c = csv.writer(f, lineterminator="\n")
        c.writerow(head)
        for r in doc["machines"]:
            cn = r["counts"] or {}
            c.writerow([r["machine"], r["file"], r["runs"], r["model"] or "",
                        r["microcode"] or "", r["bios"] or "", int(r["emulated"]),
                        int(r["simulated"]), r["status"]] +
                       [cn.get(k, "") for k in ("pass", "fail", "skip", "total")] +
                       [r["latency_ns"].get(lv, "") for lv, _ in LEVELS] +
                       [r["purity"].get(lv, "") for lv, _ in LEVELS] +
                       [_e((r["loaded"] or {}).get(k)) for k in ("peak_gbps", "knee_gbps")] +
                       [_e(r.get("bw_dram_gbps"))] +
                       [";".join("%s %s" % (o["level"], o["metric"]) for o in r["outliers"]),
                        "; ".join(r["damage"])])
    return [p] + matrix.write_fleet_csv(doc, d)
