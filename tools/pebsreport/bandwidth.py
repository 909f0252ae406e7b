"""bandwidth.py: the `bandwidth` test's lines (ktests/bandwidth.c; docs/output.md) parsed into
points, their text, CSV rows and the picture, per-level bars:

  bandwidth: <L1|L2|L3|DRAM> <mode> ws <n>K: 1 cpu <GB/s> GB/s (...); <n> cpus <GB/s|-> GB/s (...)
  bandwidth: DRAM read node <n> ws <n>K: cpu<c> (node <m>) <GB/s> GB/s (...)

A level line gives one point for the boot CPU alone and, with more than one CPU, one for all
of them at once; a node line one point per NUMA node's memory. GB is 10^9 bytes."""
import re

RE_LEVEL = re.compile(r"^bandwidth: (L1|L2|L3|DRAM) (\S+) ws (\d+)K: 1 cpu (\d+\.\d+) GB/s "
                      r"\([^)]*\); (\d+) cpus (\d+\.\d+|-) GB/s")
RE_NODE = re.compile(r"^bandwidth: DRAM read node (\d+) ws (\d+)K: cpu(\d+) \(node (\d+)\) "
                     r"(\d+\.\d+) GB/s")
LEVELS = ("L1", "L2", "L3", "DRAM")


def parse(body):
    """A bandwidth line -> point dict, None for any other line, False for a cut one."""
    if not body.startswith("bandwidth: ") or ": 1 cpu" not in body and " node " not in body:
        return None
    m = RE_LEVEL.match(body)
    if m:
        return {"level": m.group(1), "mode": m.group(2), "ws_bytes": int(m.group(3)) << 10,
                "gbps_1": float(m.group(4)), "cpus": int(m.group(5)),
                "gbps_all": None if m.group(6) == "-" else float(m.group(6)), "node": None}
    m = RE_NODE.match(body)
    if m:
        return {"level": "DRAM", "mode": "read", "ws_bytes": int(m.group(2)) << 10,
                "gbps_1": float(m.group(5)), "cpus": 1, "gbps_all": None,
                "node": int(m.group(1)), "from_node": int(m.group(4))}
    if ": not run: " in body or ": the measurement failed" in body:
        return None
    return False


def text(points, w):
    w("")
    w("Bandwidth (GB/s = 10^9 B/s; program bytes read + written)")
    w("  %-5s %-9s %10s %10s %12s" % ("level", "mode", "ws", "1 cpu", "all cpus"))
    for p in points:
        if p["node"] is None:
            w("  %-5s %-9s %9dK %10.2f %12s" % (
                p["level"], p["mode"], p["ws_bytes"] >> 10, p["gbps_1"],
                "-" if p["gbps_all"] is None else "%.2f (%d)" % (p["gbps_all"], p["cpus"])))
    for p in points:
        if p["node"] is not None:
            w("  node %d memory, read from node %d: %.2f GB/s (ws %dK)" % (
                p["node"], p["from_node"], p["gbps_1"], p["ws_bytes"] >> 10))


def csv_rows(points):
    return (["level", "mode", "node", "ws_bytes", "gbps_1cpu", "cpus", "gbps_all"],
            [(p["level"], p["mode"], "" if p["node"] is None else p["node"], p["ws_bytes"],
              p["gbps_1"], p["cpus"], "" if p["gbps_all"] is None else p["gbps_all"])
             for p in points])


def peak(points):
    """The largest all-CPU DRAM read figure (else the one-CPU one): --fleet compares it."""
    vals = [p["gbps_all"] if p["gbps_all"] is not None else p["gbps_1"] for p in points
            if p["level"] == "DRAM" and p["mode"] == "read" and p["node"] is None]
    return max(vals) if vals else None


def plot(plt, points, title, caveat):
    """Per-level bars: one group per level, one bar per mode, one CPU and (hatched) all."""
    lv = [p for p in points if p["node"] is None]
    modes = [m for m in dict.fromkeys(p["mode"] for p in lv)]
    fig, ax = plt.subplots(figsize=(9, 4.5))
    width = 0.8 / max(1, len(modes))
    for i, mode in enumerate(modes):
        xs = [LEVELS.index(p["level"]) + i * width for p in lv if p["mode"] == mode]
        one = [p["gbps_1"] for p in lv if p["mode"] == mode]
        ax.bar(xs, one, width * 0.9, label="%s, 1 cpu" % mode)
        allv = [(x, p["gbps_all"]) for x, p in zip(xs, [q for q in lv if q["mode"] == mode])
                if p["gbps_all"] is not None]
        if allv:
            ax.scatter([x for x, _ in allv], [v for _, v in allv], marker="_", s=120,
                       color="black", zorder=3)
    ax.set_xticks([k + 0.4 - width / 2 for k in range(len(LEVELS))])
    ax.set_xticklabels(LEVELS)
    ax.set_ylabel("GB/s (bars: 1 CPU; black marks: all CPUs at once)")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, ncol=3)
    ax.grid(True, axis="y", alpha=0.3)
    if caveat:
        fig.text(0.01, 0.01, caveat, fontsize=7, color="tab:red")
    return fig
