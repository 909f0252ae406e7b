"""matrix.py: the latency matrices of tests load_matrix (node x node idle latency) and load_c2c
(core x core snoop / HITM transfer latency), issue 30. The kernel prints each as a `columns`
line and one `from` line per row (loads/latmatrix_print.c, docs/output.md section 3 "Latency
matrices"); here they become the report document's "matrices" (the --json document), the
matrices.csv table, heat maps (--plots: cells in ns, axes the node or CPU numbers, package
boundaries as solid lines and node boundaries as dashed ones) and, across the machines of one
CPU model (--fleet), a cell-by-cell comparison with the fleet's outlier rule."""
import os
import re
import statistics

from . import ktap

NAME = r"(load_matrix|load_c2c/[a-z]+)"
RE_COLS = re.compile(r"^%s: columns (node|cpu)((?: \d+)+); package((?: (?:\d+|-))+)"
                     r"(?:; node((?: \d+)+); core((?: \d+)+))?$" % NAME)
RE_ROW = re.compile(r"^%s: from (node|cpu) (\d+)(?: \(cpu (\d+)\))?:((?: (?:\d+|-))+) ns "
                    r"\(dsrc((?: \S+)+)\)$" % NAME)


def _ints(s):
    return [None if v == "-" else int(v) for v in s.split()] if s else None


def extract(log):
    """[matrix]: {"name", "unit", "test", "line", "cols", "package", "node", "core",
    "rows": [{"id", "cpu", "ns": [int|None], "dsrc": [str|None], "line"}]} in log order.
    A row line that does not fit its columns line is a problem of the log, skipped."""
    mats = {}
    for _, path, node in ktap.walk(log.tests):
        for no, text in node.diags:
            body = text.strip()
            m = RE_COLS.match(body)
            if m:
                mats[m.group(1)] = {"name": m.group(1), "unit": m.group(2),
                                    "test": "/".join(path), "line": no,
                                    "cols": _ints(m.group(3)), "package": _ints(m.group(4)),
                                    "node": _ints(m.group(5)), "core": _ints(m.group(6)),
                                    "rows": []}
                continue
            m = RE_ROW.match(body)
            if not m:
                if re.match(r"^%s: (from|columns) " % NAME, body):
                    log.problem(no, "matrix line cut or malformed, skipped: %r" % body[:60])
                continue
            mx = mats.get(m.group(1))
            ns, src = _ints(m.group(5)), m.group(6).split()
            if not mx or len(ns) != len(mx["cols"]) or len(src) != len(ns):
                log.problem(no, "%s row does not fit its columns line, skipped" % m.group(1))
                continue
            mx["rows"].append({"id": int(m.group(3)), "cpu": _ints(m.group(4))[0]
                               if m.group(4) else int(m.group(3)), "ns": ns,
                               "dsrc": [None if s == "-" else s for s in src], "line": no})
    return list(mats.values())


def row_package(mx, rid):
    """The package of row rid: the column of the same id (a node's or a CPU's)."""
    return mx["package"][mx["cols"].index(rid)] if rid in mx["cols"] else None


def csv_rows(doc):
    return [(mx["name"], mx["unit"], r["id"], r["cpu"], c, mx["package"][i],
             "" if r["ns"][i] is None else r["ns"][i], r["dsrc"][i] or "")
            for mx in doc.get("matrices", []) for r in mx["rows"]
            for i, c in enumerate(mx["cols"])]


CSV_HEAD = ["matrix", "unit", "row", "row_cpu", "column", "column_package", "ns", "dsrc"]


def summary_lines(doc):
    out = []
    for mx in doc.get("matrices", []):
        out.append("")
        out.append("%s: %d x %d (%s; rows: %s)" % (
            mx["name"], len(mx["rows"]), len(mx["cols"]),
            "columns: " + mx["unit"] + " " + " ".join(map(str, mx["cols"])),
            "measuring CPU" if mx["unit"] == "cpu" else "a CPU of the node"))
        for r in mx["rows"]:
            out.append("  from %s %-4d %s" % (mx["unit"], r["id"], " ".join(
                "%5s" % ("-" if v is None else v) for v in r["ns"])))
    return out


def _bounds(ax, keys, horizontal):
    """Lines between neighbours whose key differs (package: solid, node: dashed)."""
    for keyv, style, lw in keys:
        if not keyv:
            continue
        for i in range(1, len(keyv)):
            if keyv[i] != keyv[i - 1]:
                (ax.axhline if horizontal else ax.axvline)(i - 0.5, color="white", ls=style,
                                                           lw=lw)


def plot(plt, mx, caveat, size):
    """One heat map figure of mx; returns the figure."""
    import math
    rows, cols = mx["rows"], mx["cols"]
    data = [[math.nan if v is None else v for v in r["ns"]] for r in rows]
    fig, ax = plt.subplots(figsize=size)
    im = ax.imshow(data, cmap="viridis", aspect="auto", interpolation="nearest")
    fig.colorbar(im, ax=ax, label="ns per load (median)")
    small = len(cols) <= 16 and len(rows) <= 16
    if small:
        vals = [v for r in rows for v in r["ns"] if v is not None]
        mid = (min(vals) + max(vals)) / 2 if vals else 0
        for y, r in enumerate(rows):
            for x, v in enumerate(r["ns"]):
                if v is not None:
                    ax.text(x, y, str(v), ha="center", va="center", fontsize=6,
                            color="k" if v > mid else "w")
    step = max(1, len(cols) // 32)
    ax.set_xticks(list(range(0, len(cols), step)))
    ax.set_xticklabels([str(c) for c in cols[::step]], fontsize=7)
    ax.set_yticks(list(range(0, len(rows), step)))
    ax.set_yticklabels([str(r["id"]) for r in rows[::step]], fontsize=7)
    pk = mx["package"]
    keys_c = [(pk, "-", 2.5), (mx["node"], "--", 1.0)]
    rpk = [row_package(mx, r["id"]) for r in rows]
    rnode = [mx["node"][cols.index(r["id"])] if mx["node"] and r["id"] in cols else None
             for r in rows] if mx["node"] else None
    _bounds(ax, keys_c, False)
    _bounds(ax, [(rpk, "-", 2.5), (rnode, "--", 1.0)], True)
    if mx["unit"] == "node":
        ax.set_xlabel("memory of node (columns; '-' package: memory-only)")
        ax.set_ylabel("from a CPU of node")
    else:
        ax.set_xlabel("helper CPU (touched the line last)")
        ax.set_ylabel("measuring CPU")
    ax.set_title("%s: %s (ns; package bounds solid, node bounds dashed)" % (
        mx["name"], "node x node idle latency" if mx["unit"] == "node" else
        "core x core %s latency" % mx["name"].split("/")[-1]), fontsize=9)
    if caveat:
        fig.text(0.01, 0.005, "CAVEAT: " + caveat, fontsize=7, color="tab:red", ha="left",
                 va="bottom")
    return fig


def fleet_compare(judged, rel, mads, min_group):
    """Across machines of one model (rows with "matrices"): per matrix of one shape, each
    cell's median; a machine's cell further than max(mads x MAD, rel x median) from it is an
    outlier (appended to the machine's "outliers"). Returns {name: {"cols", "rows",
    "median"}}."""
    out = {}
    names = sorted({n for r in judged for n in r.get("matrices", {})})
    for n in names:
        shapes = {}
        for r in judged:
            mx = r.get("matrices", {}).get(n)
            if mx:
                key = (tuple(mx["cols"]), tuple(x["id"] for x in mx["rows"]))
                shapes.setdefault(key, []).append((r, mx))
        key, members = max(shapes.items(), key=lambda kv: len(kv[1]))
        if len(members) < min_group:
            continue
        med = []
        for y, rid in enumerate(key[1]):
            line = []
            for x, cid in enumerate(key[0]):
                vals = [mx["rows"][y]["ns"][x] for _, mx in members
                        if mx["rows"][y]["ns"][x] is not None]
                if len(vals) < min_group:
                    line.append(None)
                    continue
                m = statistics.median(vals)
                mad = 1.4826 * statistics.median(abs(v - m) for v in vals)
                line.append(m)
                for r, mx in members:
                    v = mx["rows"][y]["ns"][x]
                    if v is not None and abs(v - m) > max(mads * mad, rel * m):
                        r["outliers"].append({"metric": "matrix", "level": "%s %s %d -> %d"
                                              % (n, mx["unit"], rid, cid), "value": v,
                                              "median": m, "machines": len(vals)})
            med.append(line)
        out[n] = {"cols": list(key[0]), "rows": list(key[1]), "median": med,
                  "machines": [r["machine"] for r, _ in members]}
    return out


def fleet_of(doc):
    """The machine row's view of a log's matrices: {name: {"cols", "unit", "rows"}}."""
    return {mx["name"]: {"cols": mx["cols"], "unit": mx["unit"],
                         "rows": [{"id": r["id"], "ns": r["ns"]} for r in mx["rows"]]}
            for mx in doc.get("matrices", [])}


def write_fleet_csv(doc, d):
    import csv
    p = os.path.join(d, "fleet-matrices.csv")
    with open(p, "w", newline="") as f:
        c = csv.writer(f, lineterminator="\n")
        c.writerow(["model", "matrix", "row", "column", "median_ns", "machines"])
        for g in doc["models"]:
            for n, mm in sorted(g.get("matrices", {}).items()):
                for y, rid in enumerate(mm["rows"]):
                    for x, cid in enumerate(mm["cols"]):
                        v = mm["median"][y][x]
                        c.writerow([g["model"], n, rid, cid, "" if v is None else v,
                                    len(mm["machines"])])
    return [p]
