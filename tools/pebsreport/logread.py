"""logread.py: turn the bytes of a captured serial log into clean text lines.

A LAVA job log (lava-run's JSON lines, or the server's output.yaml: `- {"dt": ..., "lvl":
..., "msg": ...}` per line) is reduced to its `target` messages, the device's serial output.
Real captures mix CRLF, LF and lone CR (GRUB redraws), carry ANSI/VT100 escapes (GRUB menu,
OVMF), bytes that are not UTF-8 (line noise, a wrong baud rate), lines cut short and logs
that end mid-run. Every returned line keeps the 1-based number of the physical line ('\\n')
it came from, so problems can be reported against the file the user has.
"""
import re

# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST), two-byte escapes (ESC x), lone 8-bit CSI
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
                   r"|\x1b[@-Z\\-_=>()][0-9A-Za-z]?|\x9b[0-?]*[ -/]*[@-~]|\x1b")
_CTRL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class Line:
    __slots__ = ("no", "text", "raw_bad")

    def __init__(self, no, text, raw_bad=False):
        self.no = no          # 1-based physical line number in the input
        self.text = text      # cleaned text (no CR/LF, no escapes, no control chars)
        self.raw_bad = raw_bad  # the physical line held bytes that are not UTF-8

    def __repr__(self):
        return "Line(%d, %r)" % (self.no, self.text)


def clean_text(s):
    """Drop ANSI escapes and control characters (tabs become spaces)."""
    s = _ANSI.sub("", s)
    s = s.replace("\t", "    ")
    return _CTRL.sub("", s)


def split_lines(data):
    """bytes -> list of Line. A lone CR inside a physical line starts a new logical line
    (that is what the terminal showed); empty logical lines are dropped."""
    out = []
    for no, phys in enumerate(data.split(b"\n"), 1):
        bad = False
        try:
            text = phys.decode("utf-8")
        except UnicodeDecodeError:
            text = phys.decode("utf-8", errors="replace")
            bad = True
        for seg in text.split("\r"):
            seg = clean_text(seg).rstrip()
            if seg.strip():
                out.append(Line(no, seg, bad))
    return out


def lava_target(data):
    """The serial output inside a LAVA job log (bytes), or None when data is not one.
    LAVA writes each quote of the device's output as backslash-quote: undone here."""
    import json
    head = data.lstrip()[:8]
    if not (head.startswith(b'{"dt"') or head.startswith(b'- {"dt"')):
        return None
    out = []
    for raw in data.split(b"\n"):
        raw = raw.strip()
        if raw.startswith(b"- "):
            raw = raw[2:]
        try:
            rec = json.loads(raw.decode("utf-8", "replace"))
        except ValueError:
            continue
        if isinstance(rec, dict) and rec.get("lvl") == "target" and isinstance(rec.get("msg"),
                                                                              str):
            out.append(rec["msg"].replace('\\"', '"'))
    return ("\n".join(out) + "\n").encode("utf-8", "replace") if out else None


def read_log(path):
    """Read a log file ('-' = stdin). Returns (lines, nbytes); raises OSError when the file
    cannot be read."""
    import sys
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    return split_lines(lava_target(data) or data), len(data)
