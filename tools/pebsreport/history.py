"""history.py: `pebs-report --db URL ingest LOG|DIR...`: store every run of the given logs (a
directory: every regular file in it, as `--fleet` reads them) in the history database
(db.py). A run already stored (same run identity, runinfo.py) is not stored again, so
ingesting a directory twice adds nothing, except that a more complete capture of a run
stored damaged (one console of two cut off) takes its place; a damaged log is stored with
its damage named and never stops the ingest; a file that cannot be read at all is named and
skipped."""
import os
import sys

from . import db, runinfo

SKIP_EXT = (".py", ".sh", ".md", ".json", ".csv")


def files_of(paths):
    """[(path, name)] of every log named or found in a named directory, in name order;
    missing paths are returned in the second list."""
    out, missing = [], []
    for p in paths:
        if os.path.isdir(p):
            for n in sorted(os.listdir(p)):
                f = os.path.join(p, n)
                if os.path.isfile(f) and not n.startswith(".") and not n.endswith(SKIP_EXT):
                    out.append((f, n))
        elif os.path.isfile(p):
            out.append((p, os.path.basename(p)))
        else:
            missing.append(p)
    return out, missing


def ingest(d, paths, out=sys.stdout, err=sys.stderr):
    """Returns the exit status: 0 every file read, 1 a file could not be read, 2 nothing to
    read."""
    files, missing = files_of(paths)
    for p in missing:
        err.write("pebs-report: ingest: no such file or directory: %s\n" % p)
    if not files:
        err.write("pebs-report: ingest: no log to read\n")
        return 2
    added = same = damaged = replaced = 0
    unread = len(missing)
    for path, name in files:
        ident = runinfo.identify(path)
        if ident[1] is None:
            err.write("pebs-report: ingest: cannot read %s\n" % path)
            unread += 1
            continue
        have = d.stored(ident[0])
        if have is not None and not have[0]:
            same += 1                   # stored intact: nothing to learn from this copy
            continue
        rec = runinfo.read(path, name, ident=ident)
        if have is not None:            # a damaged copy stored: keep the more complete one
            if not _better(rec, have):
                same += 1
                continue
            d.add_run(rec, replace=True)
            replaced += 1
            out.write("replaced %s: a more complete capture of run %s (stored: %s)\n" % (
                name, rec["key"][:24], have[0]))
            continue
        if d.add_run(rec):
            added += 1
            if rec["damage"]:
                damaged += 1
                out.write("damaged %s: %s\n" % (name, "; ".join(rec["damage"])))
        else:
            same += 1
    out.write("ingest: %d file(s): %d run(s) added (%d damaged), %d already stored, "
              "%d replaced by a more complete capture\n" % (len(files), added, damaged, same,
                                                          replaced))
    return 1 if unread else 0


def _better(rec, have):
    """A new capture of a stored, damaged run is kept instead when it is less damaged, or as
    damaged with more verdicts (two consoles of one run: the other one cut off)."""
    n = len(rec["results"])
    bad = len(rec["damage"])
    old_bad = len([x for x in have[0].split("; ") if x])
    return bad < old_bad or (bad == old_bad and n > have[1])


def open_db(url):
    try:
        return db.DB(url)
    except db.DBError as e:
        sys.stderr.write("pebs-report: --db %s: %s\n" % (url, e))
        return None
