"""plots.py: `--plots DIR`: the latency curve (working set -> ns/load, log-scale x, cache
level boundaries from the header) and one log2 latency histogram figure per load kernel with
one panel per data source, each as PNG and SVG. Figures are FIG_W x FIG_H inches at DPI.
A line joins only points of one kernel family measured the same way: the level kernels
load_l1..load_dram (64-byte stride, one random chain per level), or the load_curve sweep;
every other kernel (its own stride, page size or access pattern: load_lfb, load_store,
load_stlb, ...) is a labelled point of its own. The latency matrices (load_matrix, load_c2c)
are heat maps, one figure each (matrix.py). A run that is simulated or emulated
(runkind.py) says so on every figure. A log with load_loaded's steps also gets
loaded-latency.{png,svg} (loaded.py: bandwidth on x, timed latency and sampled p50/p99 on y,
data-source shares as a stacked band), and one with the bandwidth test's lines
bandwidth.{png,svg} (bandwidth.py: per-level bars). Each function returns the files it wrote."""
import os
import re

from . import bandwidth, loaded, matrix, runkind

FIG_W, FIG_H, DPI = 8.0, 5.0, 100   # PNG 800 x 500 pixels, SVG 576 x 360 pt


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _save(plt, fig, d, base):
    out = []
    for ext in ("png", "svg"):
        p = os.path.join(d, "%s.%s" % (base, ext))
        fig.savefig(p, dpi=DPI, format=ext, metadata={"Date": None} if ext == "svg" else None)
        out.append(p)
    plt.close(fig)
    return out


def _safe(name):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)


LEVEL_KERNELS = ("load_l1", "load_l2", "load_l3", "load_dram")


def curve_series(doc):
    """[(label, [(bytes, ns)], joined)]: the load_curve sweep when the log has one (one line),
    else the level kernels as one line and every other timed chase kernel as its own point."""
    if doc["curve"]:
        return [("load_curve sweep", [(p["bytes"], p["ns"]) for p in doc["curve"]], True)]
    levels, other = [], []
    for k in doc["kernels"]:
        t, c = k["time"], k["chain"]
        if not (t and c and t["unit"] == "load" and isinstance(c.get("ws"), int)):
            continue
        if k["kernel"] in LEVEL_KERNELS and c.get("stride", 64) in (64, None):
            levels.append((c["ws"], t["ns"]))
        else:
            other.append(("%s (stride %s, %s pages)" % (k["kernel"], c.get("stride", "?"),
                                                         c.get("pages", "?")),
                          [(c["ws"], t["ns"])], False))
    out = [("load_l1..load_dram", sorted(levels), True)] if levels else []
    return out + other


def _caveat(fig, doc):
    c = runkind.caveat(doc)
    if c:
        fig.text(0.01, 0.005, "CAVEAT: " + c, fontsize=7, color="tab:red", ha="left",
                 va="bottom")


def plot_all(doc, d):
    os.makedirs(d, exist_ok=True)
    plt = _plt()
    files = []
    series = curve_series(doc)
    pts = sorted(p for _, ps, _ in series for p in ps)
    if pts:
        fig, ax = plt.subplots(figsize=(FIG_W, FIG_H))
        markers = "sD^v<>ph*"
        for i, (label, ps, joined) in enumerate(series):
            if joined:
                ax.plot([p[0] for p in ps], [p[1] for p in ps], "o-", color="tab:blue",
                        label="ns/load: " + label)
            else:
                ax.plot([p[0] for p in ps], [p[1] for p in ps], markers[i % len(markers)],
                        ls="none", label=label)
        ax.set_xscale("log", base=2)
        for lv, c in doc["cache"].items():
            ax.axvline(c["size"], color="tab:red", ls="--", lw=1)
            ax.annotate("%s %s" % (lv, _size(c["size"])), (c["size"], 0), xycoords=("data",
                        "axes fraction"), xytext=(3, 4), textcoords="offset points",
                        color="tab:red", fontsize=8)
        ticks = sorted({1 << i for i in range(10, 41) if pts[0][0] <= 1 << i <= pts[-1][0]})
        ax.set_xticks(ticks)
        ax.set_xticklabels([_size(t) for t in ticks], fontsize=7)
        ax.set_xlabel("working set (bytes, log2 scale)")
        ax.set_ylabel("ns per load (median)")
        ax.set_title("Latency curve: %s%s" % (doc.get("cpu") or "?",
                                             " [%s]" % (doc.get("run") or runkind.kind(doc))["kind"]
                                             if runkind.caveat(doc) else ""), fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(loc="upper left", fontsize=7)
        _caveat(fig, doc)
        files += _save(plt, fig, d, "latency-curve")
    if doc.get("loaded"):
        fig = loaded.plot(plt, doc["loaded"], "Loaded latency: %s%s" % (
            doc.get("cpu") or "?", " [%s]" % (doc.get("run") or runkind.kind(doc))["kind"]
            if runkind.caveat(doc) else ""), runkind.caveat(doc))
        files += _save(plt, fig, d, "loaded-latency")
    if doc.get("bandwidth"):
        fig = bandwidth.plot(plt, doc["bandwidth"], "Bandwidth per level: %s%s" % (
            doc.get("cpu") or "?", " [%s]" % (doc.get("run") or runkind.kind(doc))["kind"]
            if runkind.caveat(doc) else ""), runkind.caveat(doc))
        files += _save(plt, fig, d, "bandwidth")
    for k in doc["kernels"]:
        for src, levels in (("log", k["levels"]),
                            ("raw", (k["decoded"] or {}).get("levels") or [])):
            levels = [lv for lv in levels if lv.get("log2")]
            if not levels or (src == "raw" and k["levels"]):
                continue
            fig, axes = plt.subplots(len(levels), 1, figsize=(FIG_W, FIG_H), squeeze=False,
                                     sharex=True)
            top = max(max(lv["log2"]) for lv in levels)
            for ax, lv in zip(axes[:, 0], levels):
                xs = list(range(0, top + 1))
                ax.bar(xs, [lv["log2"].get(x, 0) for x in xs], color="tab:green")
                ax.set_ylabel(lv["id"], rotation=0, ha="right", fontsize=8)
                ax.text(0.99, 0.9, "%s: %d, p50 %s" % (lv["level"], lv["count"], lv["p50"]),
                        transform=ax.transAxes, ha="right", va="top", fontsize=8)
            axes[-1, 0].set_xticks(list(range(0, top + 1)))
            axes[-1, 0].set_xticklabels(["%d" % (1 << x) for x in range(0, top + 1)],
                                        fontsize=7)
            axes[-1, 0].set_xlabel("latency (core cycles, log2 buckets [2^k, 2^(k+1)))")
            fig.suptitle("PEBS latency by data source: %s%s" % (
                k["kernel"], " (decoded raw dump)" if src == "raw" else ""), fontsize=10)
            _caveat(fig, doc)
            files += _save(plt, fig, d, "hist-" + _safe(k["kernel"]))
    for mx in doc.get("matrices", []):      # heat maps (matrix.py)
        if mx["rows"]:
            fig = matrix.plot(plt, mx, runkind.caveat(doc), (FIG_W, FIG_H))
            files += _save(plt, fig, d, "matrix-" + _safe(mx["name"]))
    return files


def _size(b):
    for s, m in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if b % m == 0:
            return "%d%s" % (b // m, s)
    return str(b)


def plot_fleet(doc, d):
    """`--fleet DIR --plots OUT`: fleet-latency.{png,svg}: ns per load (log scale) per level
    (L1, L2, L3, DRAM) for every machine with timing, one line per machine, one colour per
    CPU model; software emulation dashed; outliers (fleet.py) circled in red."""
    from .fleet import LEVELS
    os.makedirs(d, exist_ok=True)
    plt = _plt()
    rows = [r for r in doc["machines"] if r["latency_ns"]]
    if not rows:
        return []
    models = sorted({r["model"] for r in rows})
    cmap = plt.get_cmap("tab10")
    fig, ax = plt.subplots(figsize=(FIG_W, FIG_H))
    xs = list(range(len(LEVELS)))
    for r in rows:
        pts = [(i, r["latency_ns"][lv]) for i, (lv, _) in enumerate(LEVELS)
               if lv in r["latency_ns"]]
        colour = cmap(models.index(r["model"]) % 10)
        ax.plot([p[0] for p in pts], [p[1] for p in pts],
                "--" if r["emulated"] or r.get("simulated") else "-",
                marker="o", ms=3, lw=1, color=colour, alpha=0.8)
        if len(rows) <= 8:
            ax.annotate(r["machine"], pts[-1], xytext=(4, 0),
                        textcoords="offset points", fontsize=6, color=colour, va="center")
        for o in r["outliers"]:
            if o["metric"] == "latency":
                i = [lv for lv, _ in LEVELS].index(o["level"])
                ax.plot([i], [o["value"]], "o", ms=11, mfc="none", mec="tab:red", mew=1.5)
                ax.annotate("outlier %s" % r["machine"], (i, o["value"]), xytext=(-10, 9),
                            textcoords="offset points", fontsize=7, color="tab:red",
                            ha="right")
    for m in models:
        ax.plot([], [], "-", color=cmap(models.index(m) % 10), label=m[:60])
    ax.set_yscale("log")
    ax.set_xticks(xs)
    ax.set_xticklabels([lv for lv, _ in LEVELS])
    ax.set_xlim(-0.3, len(LEVELS) - 0.4)
    ax.set_xlabel("level (load kernel's working set)")
    ax.set_ylabel("ns per load (median, log scale; dashed: emulated or simulated)")
    ax.set_title("Latency per level per machine: %d machines" % len(rows), fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="upper left", fontsize=6)
    return _save(plt, fig, d, "fleet-latency")
