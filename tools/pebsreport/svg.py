"""svg.py: the dashboard's plots (site.py) as inline SVG text: line plots over runs (one line
per series, linear or log-10 y axis) and horizontal bar charts. Plain SVG 1.1, no script and
no external reference, so a page shows them from file:// or any web server."""
import math
from html import escape

COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f")
W, H, LEFT, RIGHT, TOP, BOTTOM = 640, 260, 56, 110, 28, 40


def _ticks(lo, hi, log):
    if log:
        return [10 ** e for e in range(int(math.floor(math.log10(lo))),
                                       int(math.ceil(math.log10(hi))) + 1)]
    step = 10 ** math.floor(math.log10((hi - lo) / 4 or 1))
    for m in (1, 2, 5, 10):
        if (hi - lo) / (step * m) <= 6:
            step *= m
            break
    t = math.floor(lo / step) * step
    out = []
    while t <= hi + step / 2:
        out.append(round(t, 10))
        t += step
    return out


def _fmt(v):
    return "%g" % v if abs(v) >= 0.01 or v == 0 else "%.2g" % v


def line_plot(series, xlabels, title, unit, log=False):
    """series: [(name, [value or None per x])]; xlabels: one label per x (runs, oldest
    first). Returns the <svg> element's text."""
    vals = [v for _, ys in series for v in ys if v is not None and (v > 0 or not log)]
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'role="img" aria-label="%s">' % (W, H, W, H, escape(title)),
           '<text x="%d" y="16" font-size="13" font-family="sans-serif">%s</text>' % (
               LEFT, escape(title))]
    if not vals or not xlabels:
        out.append('<text x="%d" y="%d" font-size="12" font-family="sans-serif">no values'
                   '</text></svg>' % (LEFT, H // 2))
        return "".join(out)
    lo, hi = min(vals), max(vals)
    if log:
        lo, hi = 10 ** math.floor(math.log10(lo)), 10 ** math.ceil(math.log10(hi))
    else:
        lo, hi = (0.0, hi * 1.1) if lo >= 0 else (lo * 1.1, hi * 1.1)
        hi = hi if hi > lo else lo + 1
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM
    n = len(xlabels)

    def x(i):
        return LEFT + (pw * i / (n - 1) if n > 1 else pw / 2)

    def y(v):
        f = (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo)) if log \
            else (v - lo) / (hi - lo)
        return TOP + ph * (1 - f)
    out.append('<g font-size="10" font-family="sans-serif" fill="#333">')
    for t in _ticks(lo, hi, log):
        if lo <= t <= hi:
            out.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>'
                       '<text x="%d" y="%.1f" text-anchor="end">%s</text>' % (
                           LEFT, LEFT + pw, y(t), y(t), LEFT - 4, y(t) + 3, _fmt(t)))
    every = max(1, n // 6)
    for i in range(0, n, every):
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % (
            x(i), TOP + ph + 14, escape(xlabels[i])))
    out.append('<text x="12" y="%d" transform="rotate(-90 12 %d)" text-anchor="middle">%s'
               '</text></g>' % (TOP + ph // 2, TOP + ph // 2, escape(unit + (
                   " (log scale)" if log else ""))))
    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#999"/>' % (
        LEFT, TOP, pw, ph))
    for k, (name, ys) in enumerate(series):
        c = COLOURS[k % len(COLOURS)]
        pts = [(x(i), y(v), v, i) for i, v in enumerate(ys) if v is not None and
               (v > 0 or not log)]
        if len(pts) > 1:
            out.append('<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>' % (
                c, " ".join("%.1f,%.1f" % (px, py) for px, py, _, _ in pts)))
        if len(pts) <= 60:
            for px, py, v, i in pts:
                out.append('<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"><title>%s %s: %s %s'
                           '</title></circle>' % (px, py, c, escape(name), escape(xlabels[i]),
                                                  _fmt(v), escape(unit)))
        out.append('<text x="%d" y="%d" font-size="11" font-family="sans-serif" fill="%s">%s'
                   '</text>' % (LEFT + pw + 8, TOP + 12 + 14 * k, c, escape(name)))
    out.append("</svg>")
    return "".join(out)


def bar_chart(bars, title, unit):
    """bars: [(label, value, marked)]; marked bars are drawn red. Horizontal bars."""
    bh = 16
    h = TOP + 10 + bh * len(bars)
    hi = max([v for _, v, _ in bars if v is not None] or [1.0]) or 1.0
    pw = W - 300
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'role="img" aria-label="%s">' % (W, h, W, h, escape(title)),
           '<text x="8" y="16" font-size="13" font-family="sans-serif">%s (%s)</text>' % (
               escape(title), escape(unit)), '<g font-size="10" font-family="sans-serif">']
    for i, (label, v, marked) in enumerate(bars):
        yy = TOP + bh * i
        out.append('<text x="216" y="%d" text-anchor="end">%s</text>' % (yy + 11,
                                                                          escape(label)))
        if v is not None:
            out.append('<rect x="220" y="%d" width="%.1f" height="%d" fill="%s"><title>%s: %s '
                       '%s</title></rect><text x="%.1f" y="%d">%s</text>' % (
                           yy + 2, pw * v / hi, bh - 4, "#d62728" if marked else "#1f77b4",
                           escape(label), _fmt(v), escape(unit), 224 + pw * v / hi, yy + 11,
                           _fmt(v)))
    out.append("</g></svg>")
    return "".join(out)
