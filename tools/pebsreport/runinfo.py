"""runinfo.py: one log file -> one run record for the history database (history.py) and the
KCIDB export (kcidb.py): the run's identity, the machine and what it was running (CPU,
microcode, BIOS, memory, options, pebs-kernel version), every verdict and every number.

Identity: the kernel's `# run: id=<hex> time=<ISO 8601>` header line where the log has one
(planned, docs/output.md "Run identity"): one run captured on two consoles is one run, and
runs order by that time. A log without it is identified by a hash of its KTAP text (from
`KTAP version` on, cleaned of escapes and line ends) and the `pebs-lab: machine=` name, so
the same capture read twice is one run; its time is the `pebs-lab: started=` of
tools/sol-capture, else the file name's `-YYYYmmddTHHMMSSZ` stamp, else unknown.
"""
import hashlib
import re

from . import fleet, logread, report

RE_RUN = re.compile(r"^run: id=([0-9a-fA-F]{4,64}) time=(\S+)")
RE_STAMP = re.compile(r"^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$")
# measures per load kernel: (name suffix, where in the kernel dict, unit)
KERNEL_MEASURES = (("ns", "time", "ns", "ns"), ("core", "time", "core", "cycles"),
                   ("tsc", "time", "tsc", "ticks"), ("purity", "pebs", "share", "%"),
                   ("p50", "pebs", "p50", "cycles"))
LEVEL_OF = dict((k, lv) for lv, k in fleet.LEVELS)


def _stamp_iso(stamp):
    m = RE_STAMP.match(stamp or "")
    return "%s-%s-%sT%s:%s:%sZ" % m.groups() if m else None


def content_key(lines):
    """sha256 of the machine a `pebs-lab:` line names (two machines that printed the same
    text are two runs) and of the KTAP text (from the first `KTAP version` line on)."""
    h = hashlib.sha256(fleet._meta(None, lines).get("machine", "").encode() + b"\n")
    started = False
    for ln in lines:
        if not started and "KTAP version" not in ln.text:
            continue
        started = True
        h.update(ln.text.encode("utf-8", "replace") + b"\n")
    return h.hexdigest()


def _env(doc):
    return {e["key"]: e["value"] for e in doc.get("environment", []) if e["key"]}


def _smbios(doc):
    """(BIOS, DIMM population) from the planned `# smbios:` header lines (issue 29; docs/
    output.md "Run identity"): a line starting `bios` names the BIOS, lines starting
    `memory`, `dimm` or `slot` together are the DIMM population. (None, None) without."""
    lines = [e["value"] for e in doc.get("environment", []) if e["key"] == "smbios"]
    bios = next((v for v in lines if v.lower().startswith("bios")), None)
    dimms = [v for v in lines if v.lower().startswith(("memory", "dimm", "slot"))]
    return bios, "; ".join(dimms) or None


def _results(tests, prefix=()):
    for t in tests:
        path = prefix + (t["name"] or "?",)
        yield "/".join(path), t["status"], t["reason"] if t["reason"] is not None else \
            (t["detail"] or "")
        yield from _results(t["subtests"], path)


def measures(doc):
    """[(name, value, unit)]: per load kernel `<kernel>.ns|core|tsc|purity|p50`, and the
    per-level shorthands `L1.ns` ... `DRAM.purity` that the fleet table shows."""
    out = []
    for k in doc.get("kernels", []):
        for suffix, part, key, unit in KERNEL_MEASURES:
            src = k.get(part)
            v = src.get(key) if src else None
            if isinstance(v, (int, float)):
                out.append(("%s.%s" % (k["kernel"], suffix), float(v), unit))
                lv = LEVEL_OF.get(k["kernel"])
                if lv and suffix in ("ns", "core", "purity") and \
                        (part != "time" or src.get("unit") == "load"):
                    out.append(("%s.%s" % (lv, suffix), float(v), unit))
    return out


def identify(path):
    """(key, read) of a log file without parsing it: the run's key (`run:<id>` from a
    readable `# run:` header line, else `sha256:<hash of the KTAP text>`, else of the file's
    bytes) and what logread.read_log returned (None when the file cannot be read)."""
    try:
        read = logread.read_log(path)
    except OSError:
        return "sha256:" + hashlib.sha256(path.encode()).hexdigest(), None
    started = False
    for ln in read[0]:
        if started and ln.text.startswith((" ", "ok ", "not ok ")):
            break                                   # the header is over
        started = started or "KTAP version" in ln.text
        t = ln.text.strip()
        m = RE_RUN.match(t[2:]) if t.startswith("# run:") else None
        if m:
            return "run:" + m.group(1).lower(), read
    if any("KTAP version" in ln.text for ln in read[0]):
        return "sha256:" + content_key(read[0]), read
    with open(path, "rb") as f:
        return "sha256:" + hashlib.sha256(f.read()).hexdigest(), read


def read(path, fname=None, decoder=None, ident=None):
    """The run record of one log file (never raises for a bad log: it is recorded with its
    damage). fname: the name that gives the machine when no `pebs-lab:` line does; ident:
    what identify(path) returned, when the caller has it."""
    import os
    fname = fname or os.path.basename(path)
    key, got = ident or identify(path)
    doc, _ = report.load(path, decoder, decode_raw=False, read=got)
    lines = got[0] if got else []
    row = fleet._row(path, fname, doc, lines)
    meta = fleet._meta(path, lines)
    env = _env(doc)
    run_id = time = None
    m = RE_RUN.match("run: " + env["run"]) if "run" in env else None
    if m:
        run_id, time = m.group(1).lower(), m.group(2)
    elif "run" in env:
        row["damage"].append("run line unreadable: %r" % env["run"][:60])
    time = time or meta.get("started") or _stamp_iso(row["stamp"])
    opts = (doc.get("cmdline") or "").strip()
    smbios = _smbios(doc)
    return {
        "key": key, "run_id": run_id, "time": time, "machine": row["machine"],
        "source": fname,
        "model": row["model"], "cpu": doc.get("cpu"), "microcode": row["microcode"],
        "bios": row["bios"] or smbios[0], "memory": env.get("memory"), "dimms": smbios[1],
        "options": opts, "version": (doc.get("kernel_version") or "")[len("pebs-kernel "):]
        or None, "output_format": doc.get("output_format"), "emulated": row["emulated"],
        "status": row["status"], "counts": row["counts"] or {},
        "damage": row["damage"], "results": list(_results(doc.get("tests", []))),
        "measures": measures(doc), "doc": doc,
    }
