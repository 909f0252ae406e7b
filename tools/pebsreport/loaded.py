"""loaded.py: test load_loaded's curve (ktests/load_loaded.c, loadbench --loaded, model-log
--kernels loaded; issue 32): its step lines

  load_loaded: step <i> delay=<n|idle> bw=<GB/s>GB/s lat=<ns>ns core=<x|-> p50=<n|-> p99=<n|-> n=<n|-> src <LVL=pct,...|none|->

parsed into points, the curve's figures (peak injected bandwidth, the knee, idle and peak
latency), the text, CSV and comparison rows, and the picture: bandwidth on x, latency on y
(timed ns and, on a second axis, the samples' p50 and p99 in core cycles), the data-source
shares as a stacked band under it. The knee: the injected bandwidth at which the timed latency
first reaches KNEE_PCT of the idle step's, interpolated linearly between the two steps around
it (None when no step reaches it)."""
import re

RE_STEP = re.compile(r"^load_loaded: step (\d+) delay=(\d+|idle) bw=(\d+\.\d+)GB/s "
                     r"lat=(\d+\.\d+)ns core=(\S+) p50=(\S+) p99=(\S+) n=(\S+) src (\S+)$")
PREFIX = "load_loaded: step "
KNEE_PCT = 150


def _num(v):
    if v == "-":
        return None
    return float(v) if "." in v else int(v)


def parse(body):
    """A step line -> point dict, None for another line, False for a cut step line."""
    if not body.startswith(PREFIX):
        return None
    m = RE_STEP.match(body)
    if not m:
        return False
    shares = {}
    if m.group(9) not in ("-", "none"):
        for part in m.group(9).split(","):
            k, _, v = part.partition("=")
            try:
                shares[k] = float(v)
            except ValueError:
                return False
    try:
        return {"step": int(m.group(1)),
                "delay": None if m.group(2) == "idle" else int(m.group(2)),
                "gbps": float(m.group(3)), "ns": float(m.group(4)), "core": _num(m.group(5)),
                "p50": _num(m.group(6)), "p99": _num(m.group(7)),
                "samples": _num(m.group(8)), "shares": shares if m.group(9) != "-" else None}
    except ValueError:      # a field cut or garbled on the serial line: a cut step line
        return False


def figures(points):
    """{"steps", "peak_gbps", "peak_ns", "idle_ns", "knee_gbps"} of a curve (None: no
    points)."""
    if not points:
        return None
    idle = next((p for p in points if p["delay"] is None), None)
    peak = max(points, key=lambda p: p["gbps"])
    out = {"steps": len(points), "peak_gbps": peak["gbps"], "peak_ns": peak["ns"],
           "idle_ns": idle["ns"] if idle else None, "knee_gbps": None}
    if idle and idle["ns"] > 0:
        thr = idle["ns"] * KNEE_PCT / 100.0
        pts = sorted(points, key=lambda p: (p["gbps"], p["ns"]))
        for q, p in zip(pts, pts[1:]):
            if p["ns"] >= thr > q["ns"]:
                f = (thr - q["ns"]) / (p["ns"] - q["ns"])
                out["knee_gbps"] = round(q["gbps"] + f * (p["gbps"] - q["gbps"]), 3)
                break
    return out


def levels(points):
    """Every data-source level any step names, in a stable order."""
    from .extract import LEVEL_ORDER
    seen = {k for p in points for k in (p["shares"] or {})}
    return [lv for lv in LEVEL_ORDER if lv in seen] + sorted(seen - set(LEVEL_ORDER))


def text(points, w):
    """The report's section."""
    f = figures(points)
    w("")
    w("Loaded latency (%d steps; peak %.3f GB/s at %.2f ns, idle %s ns, knee %s)" % (
        f["steps"], f["peak_gbps"], f["peak_ns"], _f(f["idle_ns"]),
        "%.3f GB/s (%d%% of idle latency)" % (f["knee_gbps"], KNEE_PCT)
        if f["knee_gbps"] is not None else "not reached"))
    w("  %4s %6s %9s %9s %9s %7s %7s %7s  %s" % ("step", "delay", "GB/s", "ns", "core",
                                                 "p50", "p99", "n", "sources %"))
    for p in points:
        w("  %4d %6s %9.3f %9.2f %9s %7s %7s %7s  %s" % (
            p["step"], "idle" if p["delay"] is None else p["delay"], p["gbps"], p["ns"],
            _f(p["core"]), _f(p["p50"], "%d"), _f(p["p99"], "%d"), _f(p["samples"], "%d"),
            " ".join("%s=%.1f" % kv for kv in (p["shares"] or {}).items()) or "-"))


def _f(v, fmt="%.2f"):
    return "-" if v is None else fmt % v


def csv_rows(points):
    lv = levels(points)
    head = ["step", "delay", "gbps", "ns", "core", "p50", "p99", "samples"] + \
        ["share_%s" % x for x in lv]
    rows = [[p["step"], "idle" if p["delay"] is None else p["delay"], p["gbps"], p["ns"],
             _e(p["core"]), _e(p["p50"]), _e(p["p99"]), _e(p["samples"])] +
            [_e((p["shares"] or {}).get(x)) for x in lv] for p in points]
    return head, rows


def _e(v):
    return "" if v is None else v


def compare(a, b, w, res):
    """`pebs-report A B`: the two curves step by step (same step number and delay)."""
    pa = {(p["step"], p["delay"]): p for p in a}
    pb = {(p["step"], p["delay"]): p for p in b}
    both = sorted(set(pa) & set(pb))
    if not both:
        return
    w("")
    w("Loaded latency (A->B): step, delay, GB/s, ns, p50, p99 (core cycles)")
    for key in both:
        x, y = pa[key], pb[key]
        w("  %4d %6s  GB/s %.3f->%.3f  ns %.2f->%.2f  p50 %s->%s  p99 %s->%s" % (
            key[0], "idle" if key[1] is None else key[1], x["gbps"], y["gbps"], x["ns"],
            y["ns"], _f(x["p50"], "%d"), _f(y["p50"], "%d"), _f(x["p99"], "%d"),
            _f(y["p99"], "%d")))
        res.append({"step": key[0], "delay": key[1], "a": x, "b": y})
    fa, fb = figures(a), figures(b)
    w("  peak %.3f->%.3f GB/s, knee %s->%s GB/s" % (fa["peak_gbps"], fb["peak_gbps"],
                                                   _f(fa["knee_gbps"], "%.3f"),
                                                   _f(fb["knee_gbps"], "%.3f")))


def plot(plt, points, title, caveat):
    """The loaded-latency figure: (fig) with the curve above, the shares band below."""
    pts = sorted(points, key=lambda p: p["gbps"])
    fig, (ax, band) = plt.subplots(2, 1, figsize=(8.0, 5.0), sharex=True,
                                   gridspec_kw={"height_ratios": [3, 1]})
    xs = [p["gbps"] for p in pts]
    ax.plot(xs, [p["ns"] for p in pts], "o-", color="tab:blue", label="timed ns/load (median)")
    ax.set_ylabel("probe latency (ns)")
    f = figures(points)
    if f["knee_gbps"] is not None:
        ax.axvline(f["knee_gbps"], color="tab:red", ls="--", lw=1)
        ax.annotate("knee %.2f GB/s (%d%% of idle)" % (f["knee_gbps"], KNEE_PCT),
                    (f["knee_gbps"], 0.03), xycoords=("data", "axes fraction"),
                    xytext=(-3, 0), textcoords="offset points", color="tab:red", fontsize=7,
                    ha="right")
    sampled = [p for p in pts if p["p50"] is not None]
    if sampled:
        ax2 = ax.twinx()
        ax2.plot([p["gbps"] for p in sampled], [p["p50"] for p in sampled], "s--",
                 color="tab:green", ms=4, label="sampled p50 (core cycles)")
        ax2.plot([p["gbps"] for p in sampled], [p["p99"] for p in sampled], "^--",
                 color="tab:orange", ms=4, label="sampled p99 (core cycles)")
        ax2.set_ylabel("sampled latency (core cycles)")
        ax2.legend(loc="upper right", fontsize=7)
    ax.legend(loc="upper left", fontsize=7)
    ax.grid(True, alpha=0.3)
    ax.set_title(title, fontsize=10)
    lv = levels(points)
    shared = [p for p in pts if p["shares"]]
    if lv and shared:
        sx = [p["gbps"] for p in shared]
        band.stackplot(sx, [[(p["shares"] or {}).get(x, 0.0) for p in shared] for x in lv],
                       labels=lv, alpha=0.8)
        band.set_ylim(0, 100)
        band.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=6)
    else:
        band.text(0.5, 0.5, "no samples: data-source shares not measured", ha="center",
                  va="center", transform=band.transAxes, fontsize=8)
    band.set_ylabel("source %", fontsize=8)
    band.set_xlabel("injected bandwidth (GB/s, measured by the injectors)")
    if caveat:
        fig.text(0.01, 0.005, "CAVEAT: " + caveat, fontsize=7, color="tab:red", ha="left",
                 va="bottom")
    return fig
