"""site.py: `pebs-report --db URL html DIR`: the dashboard, a static site written from the
history database (no server to run: any web server, or a file:// URL, shows it). Pages:
index.html (the fleet: every machine's latest run, the CPU models, the changes count), one page
per machine (machines/NAME.html: its history, plots of per-level latency in ns and core
cycles and of PEBS purity over its runs, every run's identity and what it ran on), one page
per CPU model (models/N.html: its machines side by side) and changes.html (changes.py). Plots
are inline SVG (svg.py), the one style sheet is written beside the pages: no script, no
external asset. Every number a table shows carries `data-run` (the run's key) and
`data-measure` (the measure's name) so a test can hold the page against the database."""
import os
import re
import statistics
from html import escape

from . import changes, fleet, svg

LEVELS = [lv for lv, _ in fleet.LEVELS]
SHOWN = tuple("%s.%s" % (lv, m) for m in ("ns", "core", "purity") for lv in LEVELS)
CSS = """body{font-family:sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;font-size:13px;margin:.5em 0 1.5em}
th,td{border:1px solid #ccc;padding:2px 6px;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.bad td{background:#fde8e8}.pass{color:#176e17}.fail,.unreadable,.incomplete{color:#b00}
nav a{margin-right:1em}svg{display:block;margin:.5em 0}.small{font-size:12px;color:#555}
"""


def _slug(name):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name or "unknown")


def short_model(mo):
    """`06_5EH "Skylake (PMU model)"` from the model key (fleet.py): a plot label."""
    m = re.match(r'^\S+ (\S+) stepping (\d+) "(.*)"$', mo or "")
    return ("%s s%s %s" % m.groups() if m else mo or "unknown")[:34]


def _num(v, name):
    if v is None:
        return "-"
    return ("%.1f" if name.endswith(".purity") else "%.2f") % v


def _page(title, depth, body):
    up = "../" * depth
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<title>%s</title><link rel="stylesheet" href="%sstyle.css"></head><body>'
            '<nav><a href="%sindex.html">fleet</a><a href="%schanges.html">changes</a></nav>'
            '<h1>%s</h1>%s</body></html>\n' % (escape(title), up, up, up, escape(title), body))


def _cell(run, name, vals):
    v = vals.get(name)
    return '<td class="num" data-run="%s" data-measure="%s">%s</td>' % (
        escape(run["run_key"]), name, _num(v, name))


def _status(r):
    return '<span class="%s">%s</span>' % (r["status"], r["status"].upper() + (
        " (emul)" if r["emulated"] else ""))


def _write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def write(d, out):
    """Write the site into out; returns the exit status (0 written, 2 not)."""
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        import sys
        sys.stderr.write("pebs-report: html %s: %s\n" % (out, e.strerror or e))
        return 2
    runs = d.runs()
    vals = d.measures_named(SHOWN)
    by_machine = {}
    for r in sorted(runs, key=lambda r: (r["time"] or "", r["id"])):
        by_machine.setdefault(r["machine"], []).append(r)
    ch = changes.changes(d) if runs else {"changes": []}
    models = {}
    for m, rs in by_machine.items():
        models.setdefault(rs[-1]["model"] or "unknown", []).append(m)
    model_page = {mo: "models/%d.html" % i for i, mo in enumerate(sorted(models))}
    _write(os.path.join(out, "style.css"), CSS)
    _write(os.path.join(out, "index.html"), _index(by_machine, vals, models, model_page, ch))
    for m, rs in by_machine.items():
        _write(os.path.join(out, "machines", _slug(m) + ".html"),
               _machine(m, rs, vals, model_page, ch))
    for mo, ms in models.items():
        _write(os.path.join(out, model_page[mo]), _model(mo, ms, by_machine, vals, ch))
    _write(os.path.join(out, "changes.html"), _changes(ch))
    return 0


def _latest_row(m, r, vals, model_page, depth):
    up = "../" * depth
    v = vals.get(r["id"], {})
    return ('<tr%s><td><a href="%smachines/%s.html">%s</a></td><td><a href="%s%s">%s</a></td>'
            '<td>%s</td><td>%s</td><td>%s</td><td>%s</td>%s%s</tr>' % (
                ' class="bad"' if r["status"] != "pass" or r["damage"] else "", up,
                escape(_slug(m)), escape(m), up, model_page[r["model"] or "unknown"],
                escape(short_model(r["model"])), escape(r["time"] or "-"), _status(r),
                escape(r["microcode"] or "-"), escape(r["bios"] or "-"),
                "".join(_cell(r, "%s.ns" % lv, v) for lv in LEVELS),
                "".join(_cell(r, "%s.purity" % lv, v) for lv in LEVELS)))


LATEST_HEAD = ("<tr><th>machine</th><th>CPU model</th><th>latest run</th><th>verdict</th>"
               "<th>microcode</th><th>BIOS</th>" + "".join("<th>%s ns</th>" % lv for lv in
                                                            LEVELS) +
               "".join("<th>%s purity %%</th>" % lv for lv in LEVELS) + "</tr>")


def _index(by_machine, vals, models, model_page, ch):
    nruns = sum(len(rs) for rs in by_machine.values())
    body = ['<p>%d machines, %d runs, %d CPU models; <a href="changes.html">%d change(s)</a> '
            'beyond the noise floor.</p>' % (len(by_machine), nruns, len(models),
                                              len(ch["changes"]))]
    body.append("<h2>CPU models</h2><table><tr><th>CPU model</th><th>machines</th>" +
                "".join("<th>median %s ns</th>" % lv for lv in LEVELS) + "</tr>")
    bars = []
    for mo in sorted(models):
        latest = [by_machine[m][-1] for m in models[mo]]
        meds = []
        for lv in LEVELS:
            xs = [vals.get(r["id"], {}).get(lv + ".ns") for r in latest]
            xs = [x for x in xs if x is not None]
            meds.append(statistics.median(xs) if xs else None)
        bars.append((short_model(mo), meds[-1], False))
        body.append('<tr><td><a href="%s">%s</a></td><td class="num">%d</td>%s</tr>' % (
            model_page[mo], escape(mo), len(latest), "".join(
                '<td class="num">%s</td>' % _num(x, "ns") for x in meds)))
    body.append("</table>")
    body.append(svg.bar_chart(bars, "DRAM latency, median of each CPU model's machines",
                              "ns"))
    body.append("<h2>Machines (latest run)</h2><table>" + LATEST_HEAD)
    for m in sorted(by_machine):
        body.append(_latest_row(m, by_machine[m][-1], vals, model_page, 0))
    body.append("</table>")
    return _page("pebs-kernel lab", 0, "".join(body))


def _machine(m, rs, vals, model_page, ch):
    xl = [(r["time"] or "#%d" % r["id"])[:10] for r in rs]
    body = ['<p>CPU model: <a href="../%s">%s</a>; %d run(s).</p>' % (
        model_page[rs[-1]["model"] or "unknown"], escape(rs[-1]["model"] or "unknown"),
        len(rs))]
    mine = [c for c in ch["changes"] if c["machine"] == m]
    if mine:
        body.append("<h2>Changes</h2><ul>%s</ul>" % "".join(
            "<li>%s</li>" % escape(changes.sentence(c)) for c in mine))
    for kind, unit, log in (("ns", "ns per load", True), ("core", "core cycles per load",
                                                          True),
                            ("purity", "% of PEBS records from the target level", False)):
        series = [(lv, [vals.get(r["id"], {}).get("%s.%s" % (lv, kind)) for r in rs])
                  for lv in LEVELS]
        if any(v is not None for _, ys in series for v in ys):
            body.append(svg.line_plot(series, xl, "%s: %s by level over its runs" % (
                m, {"ns": "latency in ns", "core": "latency in core cycles",
                    "purity": "PEBS purity"}[kind]), unit, log))
    body.append("<h2>Runs (newest first)</h2><table><tr><th>time</th><th>run</th>"
                "<th>verdict</th><th>pass/fail/skip</th><th>microcode</th><th>BIOS</th>"
                "<th>memory</th><th>pebs-kernel</th><th>options</th>" +
                "".join("<th>%s ns</th>" % lv for lv in LEVELS) +
                "".join("<th>%s core</th>" % lv for lv in LEVELS) +
                "".join("<th>%s purity %%</th>" % lv for lv in LEVELS) +
                "<th>damage</th></tr>")
    for r in reversed(rs):
        v = vals.get(r["id"], {})
        body.append('<tr%s><td>%s</td><td class="small">%s</td><td>%s</td><td>%s</td>'
                    '<td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>%s<td>%s</td>'
                    '</tr>' % (
                        ' class="bad"' if r["status"] != "pass" or r["damage"] else "",
                        escape(r["time"] or "-"), escape(r["run_key"][:24]), _status(r),
                        "%s/%s/%s" % (r["pass"], r["fail"], r["skip"]) if r["total"]
                        is not None else "-", escape(r["microcode"] or "-"),
                        escape(r["bios"] or "-"), escape(r["memory"] or "-"),
                        escape(r["version"] or "-"), escape(r["options"] or "-"),
                        "".join(_cell(r, n, v) for n in SHOWN), escape(r["damage"] or "")))
    body.append("</table>")
    return _page("machine " + m, 1, "".join(body))


def _model(mo, ms, by_machine, vals, ch):
    peers = {(c["machine"], c["measure"].split(".")[0]) for c in ch["changes"]
             if c["against"] == "peers" and not c["measure"].endswith(".purity")}
    body = ["<p>%d machine(s); red: a latency at this level that differs from the same-model "
            'peers (<a href="../changes.html">changes</a>).</p>' % len(ms)]
    for lv in LEVELS:
        bars = [(m, vals.get(by_machine[m][-1]["id"], {}).get(lv + ".ns"), (m, lv) in peers)
                for m in sorted(ms)]
        if any(v is not None for _, v, _ in bars):
            body.append(svg.bar_chart(bars, "%s latency, latest run of each machine" % lv,
                                      "ns"))
    body.append("<h2>Machines (latest run)</h2><table>" + LATEST_HEAD)
    pages = {mo: "models/x.html"}
    for m in sorted(ms):
        body.append(_latest_row(m, by_machine[m][-1], vals, pages, 1).replace(
            'href="../models/x.html"', 'href="#"'))
    body.append("</table>")
    return _page("CPU model " + mo, 1, "".join(body))


def _changes(ch):
    body = ["<p>%d change(s) beyond the noise floor. %s</p><ul>" % (
        len(ch["changes"]), escape(ch.get("rule", "")))]
    for c in ch["changes"]:
        body.append('<li><a href="machines/%s.html">%s</a>: %s</li>' % (
            escape(_slug(c["machine"])), escape(c["machine"]),
            escape(changes.sentence(c).split(": ", 1)[1])))
    body.append("</ul>")
    return _page("Changes", 0, "".join(body))
