"""cli.py: command line of tools/pebs-report (see `pebs-report --help`)."""
import argparse
import json
import os
import sys

from . import compare, report

USAGE = """pebs-report [options] LOG            summary of one serial log ('-' = stdin)
       pebs-report [options] A.log B.log    side-by-side comparison of two runs
       pebs-report --fleet DIR [--json] [--csv DIR] [--plots DIR]
                                            one row per machine of a lab (docs/lab.md)
       pebs-report --kcidb LOG              the run as KernelCI KCIDB JSON
       pebs-report --db URL ingest LOG|DIR...   store runs in the history database
       pebs-report --db URL changes [MACHINE|MODEL]   what moved since the previous run
       pebs-report --db URL html DIR        the dashboard: a static site in DIR
       pebs-report --extract DIR LOG        each kernel's dump=raw records into
                                            DIR/<kernel>.bin, for build/host/pebs-decode
exit status: 0 all passed or skipped, 1 a failure (or a run that ended early) in a log,
2 unreadable input (no file, or no KTAP in it); --fleet: 0 every machine passed with an
intact log and no outlier, 1 otherwise, 2 no directory or no log in it; --db: 0 done
(changes: nothing moved), 1 a file unreadable (changes: something moved), 2 bad database or
arguments"""
DB_COMMANDS = ("ingest", "changes", "html")


def _args(argv):
    ap = argparse.ArgumentParser(prog="pebs-report", usage=USAGE)
    ap.add_argument("logs", nargs="*", metavar="LOG")
    ap.add_argument("--fleet", metavar="DIR", help="every log in DIR: one row per machine, "
                    "outliers among machines of one CPU model, damaged logs named")
    ap.add_argument("--json", action="store_true", help="print the JSON document instead of"
                    " the summary")
    ap.add_argument("--csv", metavar="DIR", help="write environment/tests/timing/curve/"
                    "levels/histogram .csv into DIR")
    ap.add_argument("--plots", metavar="DIR", help="write latency-curve and per-kernel "
                    "histogram plots (PNG and SVG) into DIR")
    ap.add_argument("--extract", metavar="DIR", help="write each kernel's raw PEBS records "
                    "(dump=raw lines, CRC-checked) to DIR/<kernel>.bin and print the "
                    "pebs-decode command for each")
    ap.add_argument("--subtests", action="store_true", help="list every subtest, not only "
                    "failed ones")
    ap.add_argument("--decoder", metavar="PATH", help="pebs-decode binary (default "
                    "build/host/pebs-decode, or $PEBS_DECODE)")
    ap.add_argument("--no-decode", action="store_true", help="do not decode raw dumps")
    ap.add_argument("-q", "--quiet", action="store_true", help="do not list unparsed lines "
                    "on stderr")
    ap.add_argument("--db", metavar="URL", help="history database: sqlite:///FILE (or a "
                    "path) or postgresql://...; commands ingest, changes, html")
    ap.add_argument("--kcidb", action="store_true", help="print the log as KCIDB JSON "
                    "(KernelCI's report schema)")
    a = ap.parse_args(argv)
    if a.db:
        if not a.logs or a.logs[0] not in DB_COMMANDS:
            ap.error("--db URL takes a command: %s" % ", ".join(DB_COMMANDS))
        if a.logs[0] == "ingest" and len(a.logs) < 2:
            ap.error("--db URL ingest LOG|DIR...")
        if a.logs[0] == "html" and len(a.logs) != 2:
            ap.error("--db URL html DIR")
        if a.logs[0] == "changes" and len(a.logs) > 2:
            ap.error("--db URL changes [MACHINE|MODEL]")
        return a
    if a.kcidb and len(a.logs) != 1:
        ap.error("--kcidb LOG")
    if a.fleet and a.logs:
        ap.error("--fleet DIR takes no LOG")
    if not a.fleet and not a.logs:
        ap.error("a LOG, two to compare, or --fleet DIR")
    if len(a.logs) > 2:
        ap.error("one log, or two to compare")
    if a.extract and len(a.logs) != 1:
        ap.error("--extract DIR takes one LOG")
    return a


def module_or_reexec(module, why):
    """Debian's python3-* modules live in /usr/bin/python3's dist-packages; another python3
    first in PATH (pyenv, venv) may lack them: run again under /usr/bin/python3."""
    try:
        __import__(module)
        return
    except ImportError:
        pass
    sysp = "/usr/bin/python3"
    if os.environ.get("PEBS_REPORT_REEXEC") or not os.path.exists(sysp) or \
            os.path.realpath(sys.executable) == os.path.realpath(sysp):
        sys.stderr.write("pebs-report: %s\n" % why)
        sys.exit(2)
    os.environ["PEBS_REPORT_REEXEC"] = "1"
    os.execv(sysp, [sysp, os.path.abspath(sys.argv[0])] + sys.argv[1:])


def _problems(doc, quiet):
    if quiet:
        return
    for p in doc.get("problems", []):
        sys.stderr.write("%s:%d: %s\n" % (doc["source"], p["line"], p["message"]))
    bad = doc.get("noise", {}).get("non_utf8_lines") or []
    if bad:
        sys.stderr.write("%s: %d line(s) with bytes that are not UTF-8 (replaced): %s\n" % (
            doc["source"], len(bad), ",".join(map(str, bad[:20])) + (",..." if len(bad) > 20
                                                                      else "")))
    if doc["status"] == 2:
        for r in doc.get("reasons", []):
            sys.stderr.write("%s: %s\n" % (doc["source"], r))


def _wrote(files):
    """Say which files --plots wrote (stderr: stdout may be the JSON document)."""
    sys.stderr.write("pebs-report: wrote %d plot file(s)%s\n" % (
        len(files), ": " + ", ".join(files) if files else " (nothing to plot)"))


def _fleet(a):
    from . import fleet
    doc = fleet.load_dir(a.fleet, a.decoder)
    if a.json:
        json.dump(doc, sys.stdout, indent=1, sort_keys=True)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(fleet.summary(doc))
    if doc.get("machines"):
        if a.csv:
            fleet.write_csv(doc, a.csv)
        if a.plots:
            from . import plots
            _wrote(plots.plot_fleet(doc, a.plots))
    return doc["status"]


def _db(a):
    from . import history
    if a.db.startswith(("postgresql://", "postgres://")):
        module_or_reexec("psycopg2", "--db %s: PostgreSQL needs psycopg2 (Debian: "
                         "python3-psycopg2)" % a.db)
    d = history.open_db(a.db)
    if d is None:
        return 2
    try:
        cmd, rest = a.logs[0], a.logs[1:]
        if cmd == "ingest":
            return history.ingest(d, rest)
        if cmd == "changes":
            from . import changes
            doc = changes.changes(d, rest[0] if rest else None)
            if a.json:
                json.dump(doc, sys.stdout, indent=1, sort_keys=True)
                sys.stdout.write("\n")
            else:
                sys.stdout.write(changes.text(doc))
            return doc["status"]
        from . import site
        return site.write(d, rest[0])
    finally:
        d.close()


def _extract(a):
    from . import rawdump
    try:
        done = rawdump.extract_files(a.logs[0], a.extract)
    except OSError as e:
        sys.stderr.write("pebs-report: %s: cannot read: %s\n" % (a.logs[0], e.strerror or e))
        return 2
    if not done:
        sys.stderr.write("pebs-report: %s: no dump=raw lines (boot with dump=raw to get "
                         "them)\n" % a.logs[0])
        return 2
    dec = os.path.relpath(rawdump.default_decoder())
    for kernel, f, n, bad, missing, args in done:
        sys.stdout.write("%s: %d records -> %s%s\n  %s %s %s\n" % (
            kernel, n, f, " (%d CRC errors, %d missing: left out)" % (len(bad), len(missing))
            if bad or missing else "", dec, " ".join(args), f))
    return 1 if any(d[3] or d[4] for d in done) else 0


def main(argv=None):
    a = _args(sys.argv[1:] if argv is None else argv)
    if a.extract:
        return _extract(a)
    if a.db:
        return _db(a)
    if a.kcidb:
        from . import kcidb
        return kcidb.main(a.logs[0])
    if a.plots:
        module_or_reexec("matplotlib", "--plots needs matplotlib (Debian: python3-matplotlib)")
    if a.fleet:
        return _fleet(a)
    if len(a.logs) == 2 and a.logs[0] == "-" and a.logs[1] == "-":
        sys.stderr.write("pebs-report: only one log can come from stdin\n")
        return 2
    docs = []
    for path in a.logs:
        doc, _ = report.load(path, a.decoder, not a.no_decode)
        _problems(doc, a.quiet)
        docs.append(doc)
    status = max(d["status"] for d in docs)
    if len(docs) == 2:
        text, res = compare.compare(*docs)
        if a.json:
            json.dump({"a": docs[0], "b": docs[1], "compare": res}, sys.stdout, indent=1,
                      sort_keys=True)
            sys.stdout.write("\n")
        else:
            sys.stdout.write(text)
        return 2 if res["no_data"] else status
    doc = docs[0]
    if a.json:
        json.dump(doc, sys.stdout, indent=1, sort_keys=True)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(report.summary(doc, a.subtests))
    if "tests" in doc:
        if a.csv:
            report.write_csv(doc, a.csv)
        if a.plots:
            from . import plots
            _wrote(plots.plot_all(doc, a.plots))
    return status
