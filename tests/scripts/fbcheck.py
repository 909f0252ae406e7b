#!/usr/bin/env python3
"""fbcheck.py: read a QEMU screendump (PPM) back as text by matching every character cell
pixel-exactly against the kernel's font (tools/gen-font8x16.py, the source of
platform/font8x16.c) and compare it with the serial log of the same boot.

  fbcheck.py SCREEN.ppm SERIAL.log [--png OUT.png]
      the screen after the run: the result page (ktests/screen.c) above the verdict banner
  fbcheck.py --running SCREEN.ppm AT_STOP.log FINAL.log [--png OUT.png]
      the screen of a run stopped mid-way (AT_STOP.log: the serial log at that moment,
      FINAL.log: the same boot's whole log): the log mirror and the status line
  fbcheck.py --drawn SCREEN.ppm AT_STOP.log
      the mid-run checks that need no whole log: every cell a glyph (a stop that lands while
      the console draws shows half a scroll), the log mirror, a status line

Both: the geometry the kernel printed ("# framebuffer: WxH ... text CxR scale S") matches the
dump, and every cell read is a glyph of the font (foreground in any colour on the
background). After the run: the banner spells the verdict from the serial totals in large
letters; the page's first line is the run's identity (version, run id and time of `# run:`),
the `# cpu:` and `# smbios:` lines follow (wrapped lines joined), the table header and one
row per level L1..DRAM with the working set and ns/load of that test's `time` line and its
pebs_source result (share, or `none (k)` with note (k) the SKIP reason), the totals line
from `# Totals:` and `# Top-level tests:`, and a line per failed subtest (or "no FAIL").
Mid-run: the rows above the bottom one are a contiguous stretch of the log at the stop, the
bottom row reads "test K of N: NAME  so far: pass P, fail F, skip S" with N the plan, NAME the
K-th test of the whole log, P/F/S the verdicts of the K-1 before it, and the log at the stop
holds K-1 or K results. Exit 1 with the first problem.
"""
import contextlib, io, os, re, runpy, struct, sys, zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
LEVELS = [("L1", "load_l1"), ("L2", "load_l2"), ("L3", "load_l3"), ("DRAM", "load_dram")]


def load_font():
    with contextlib.redirect_stdout(io.StringIO()):
        ns = runpy.run_path(os.path.join(ROOT, "tools", "gen-font8x16.py"))
    return {tuple(ns["cell"](rows)): ch for ch, rows in ns["G"].items()}


def read_ppm(path):
    data = open(path, "rb").read()
    m = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    if not m:
        sys.exit("fbcheck: %s is not a binary PPM" % path)
    w, h = int(m.group(1)), int(m.group(2))
    return w, h, data[m.end():m.end() + 3 * w * h]


def write_png(path, w, h, px):
    raw = b"".join(b"\x00" + px[3 * w * y:3 * w * (y + 1)] for y in range(h))
    chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def fail(msg):
    print("fbcheck: " + msg)
    sys.exit(1)


def read_log(path):
    return open(path, "rb").read().decode("latin-1").replace("\r", "").split("\n")


class Screen:
    def __init__(self, ppm, lines):
        self.w, self.h, self.px = read_ppm(ppm)
        m = re.search(r"^# framebuffer: (\d+)x(\d+) (\d+) bpp pitch \d+, text (\d+)x(\d+) "
                      r"scale (\d+)$", "\n".join(lines), re.M)
        if not m:
            fail("serial log has no '# framebuffer:' line (no framebuffer console?)")
        fw, fh, _, self.cols, self.rows, self.s = map(int, m.groups())
        if (fw, fh) != (self.w, self.h):
            fail("kernel says %dx%d, screendump is %dx%d" % (fw, fh, self.w, self.h))
        self.font = load_font()
        self.bg = self.px[0:3]

    def on(self, x, y):
        o = 3 * (y * self.w + x)
        return self.px[o:o + 3] != self.bg

    def cell(self, x0, y0, sc):
        """the glyph at pixel (x0, y0) with scale sc, or None when not pixel-exact"""
        rows_ = []
        for gy in range(16):
            b = 0
            for gx in range(8):
                on = self.on(x0 + gx * sc, y0 + gy * sc)
                for sy in range(sc):    # every pixel of the scaled dot must agree
                    for sx in range(sc):
                        if self.on(x0 + gx * sc + sx, y0 + gy * sc + sy) != on:
                            return None
                b |= (0x80 >> gx) if on else 0
            rows_.append(b)
        return self.font.get(tuple(rows_))

    def text_rows(self, n):
        out = []
        for r in range(n):
            line = ""
            for c in range(self.cols):
                ch = self.cell(c * 8 * self.s, r * 16 * self.s, self.s)
                if ch is None:
                    fail("cell (%d,%d) is not a glyph of the font" % (c, r))
                line += ch
            out.append(line.rstrip())
        return out


def diag(lines, prefix):
    return [l[2:] for l in lines if l.startswith("# " + prefix)]


def block(lines, test):
    """the lines of a top-level test's block, up to its result line"""
    out = []
    for l in lines:
        if re.match(r"^(ok|not ok) \d+ %s( |$)" % re.escape(test), l):
            return out, l
        if l.startswith("  KTAP version 1"):
            out = []
        out.append(l)
    return None, None


def results(lines):
    return [(m.group(1), m.group(2), m.group(3) or "") for m in
            (re.match(r"^(ok|not ok) \d+ (\S+)(?: # (.*))?$", l) for l in lines) if m]


def check_page(scr, lines):
    t = re.search(r"^# Totals: pass:(\d+) fail:(\d+) skip:(\d+) total:(\d+)", "\n".join(lines), re.M)
    tl = re.search(r"^# Top-level tests: pass:(\d+) fail:(\d+) skip:(\d+) total:(\d+)",
                   "\n".join(lines), re.M)
    st = re.search(r"^# EXIT: STATUS=(\d)", "\n".join(lines), re.M)
    if not t or not tl or not st:
        fail("serial log has no totals/EXIT line")
    s, w, h = scr.s, scr.w, scr.h
    banner = "%s  pass:%s fail:%s skip:%s" % ("FAIL" if st.group(1) != "0" else "PASS",
                                              t.group(1), t.group(2), t.group(3))
    bs = min(4 * s, w // (len(banner) * 8), h // 48) or 1
    bh = 16 * bs + 16 * s
    grid_rows = (h - bh) // (16 * s)
    bh = h - grid_rows * 16 * s
    bx = (w - len(banner) * 8 * bs) // 2
    by = h - bh + (bh - 16 * bs) // 2
    got = "".join(scr.cell(bx + i * 8 * bs, by, bs) or "?" for i in range(len(banner)))
    if got != banner:
        fail("banner reads %r, expected %r (scale %d at y=%d)" % (got, banner, bs, by))
    rows = scr.text_rows(grid_rows)
    page = []       # logical lines: a wrapped line's rest is indented by 4
    for r in rows:
        if r.startswith("    ") and page and r.strip():
            page[-1] += " " + r.strip()
        else:
            page.append(r)
    if not page or not page[0]:
        fail("no result page: the screen's first line is empty")

    def want(line, what):
        if line not in page:
            fail("%s: %r is not a line of the page:\n  %s" % (what, line, "\n  ".join(page)))

    ver, run = diag(lines, "pebs-kernel "), diag(lines, "run: ")
    rid = re.match(r"run: (id=\S+ time=\S+)", run[0]) if run else None
    if not ver or not rid:
        fail("serial log has no '# pebs-kernel' / '# run:' line")
    if page[0] != "%s  run %s" % (ver[0], rid.group(1)):
        fail("identity line %r, serial says %r and %r" % (page[0], ver[0], rid.group(1)))
    for l in diag(lines, "cpu: ") + diag(lines, "hypervisor: ") + diag(lines, "smbios: "):
        if not l.startswith("smbios: processors"):
            want(l, "identity")
    hdr = [i for i, l in enumerate(page) if l.startswith("level  working set   ns/load  core cycles  ")]
    if not hdr:
        fail("no table header ('level  working set   ns/load  core cycles ...')")
    amd = any("AuthenticAMD" in l for l in diag(lines, "cpu: "))
    if ("IBS share" if amd else "PEBS share") not in page[hdr[0]]:
        fail("table header %r names the wrong sampler" % page[hdr[0]])
    notes = {m.group(1): m.group(2) for m in (re.match(r"^\((\d)\) (.*)$", l) for l in page) if m}
    for i, (lvl, test) in enumerate(LEVELS):
        row = page[hdr[0] + 1 + i]
        blk, res = block(lines, test)
        if not re.match(r"^%s +" % lvl, row):
            fail("table row %d is %r, want level %s" % (i, row, lvl))
        if blk is None:
            if "not run" not in row:
                fail("%s did not run, its row says %r" % (test, row))
            continue
        tm = [m for m in (re.match(r"^  # %s: time .* ns=([\d.]+) " % test, l) for l in blk) if m]
        ch = [m for m in (re.match(r"^  # %s: chain ws=(\S+) " % test, l) for l in blk) if m]
        src = [m for m in (re.match(r"^  (ok|not ok) \d+ pebs_source(?: # (.*))?$", l) for l in blk) if m]
        if not tm or not ch:
            continue    # not timed (SKIP): the row says why
        cells = row.split()
        if cells[1] != ch[-1].group(1) or cells[2] != tm[-1].group(1):
            fail("%s row %r: serial says ws=%s ns=%s" % (lvl, row, ch[-1].group(1), tm[-1].group(1)))
        if src:
            d = src[-1].group(2) or ""
            if d.startswith("SKIP "):
                m = re.search(r"none \((\d)\)$", row)
                if not m or notes.get(m.group(1)) != d[5:]:
                    fail("%s row %r: pebs_source SKIP %r, note %r" % (lvl, row, d[5:],
                                                                     notes.get(m.group(1) if m else "")))
            elif not row.endswith(("FAIL: " if src[-1].group(1) == "not ok" else "") + d):
                fail("%s row %r does not end with the pebs_source result %r" % (lvl, row, d))
    tot = ("Totals: pass:%s fail:%s skip:%s total:%s; top-level tests: %s, %s failed" %
           (t.group(1), t.group(2), t.group(3), t.group(4), tl.group(4), tl.group(2)))
    want(tot, "totals")
    fails, cur, subs = [], None, 0
    for l in lines:
        m = re.match(r"^  # Subtest: (\S+)", l)
        if m:
            cur, subs = m.group(1), 0
        m = re.match(r"^  not ok \d+ (.*)$", l)
        if m:
            fails.append("FAIL %s: %s" % (cur, m.group(1)))
            subs += 1
        m = re.match(r"^not ok \d+ (\S+)(?: # (.*))?$", l)
        if m and not (subs and cur == m.group(1)):   # no failed subtest: the test's reason
            fails.append("FAIL %s: %s" % (m.group(1), m.group(2) or "failed"))
        if re.match(r"^(not )?ok \d+ ", l):
            cur, subs = None, 0
    if not fails:
        want("no FAIL", "no failure in the log")
    for f in fails[:3]:
        if not any(p.startswith(f[:scr.cols - 1]) for p in page):
            fail("failure %r is not on the page" % f)
    return "result page (%d lines, table of %d levels, %d FAIL), banner %r (scale %d)" % (
        len([p for p in page if p]), len(LEVELS), len(fails), banner, bs)


def wrapped_log(lines, cols):
    start = next((i for i, l in enumerate(lines) if l == "KTAP version 1"), None)
    if start is None:
        fail("no 'KTAP version 1' in the serial log")
    out = []
    for l in lines[start:]:
        l = l.expandtabs(8)
        while len(l) > cols:
            out.append(l[:cols].rstrip())
            l = l[cols:]
        out.append(l.rstrip())
    return out


def check_running(scr, at_stop, final=None):
    screen = scr.text_rows(scr.rows)
    status = screen.pop()
    m = re.match(r"^test (\d+) of (\d+): (\S+) +so far: pass (\d+), fail (\d+), skip (\d+)$", status)
    if not m:
        fail("bottom row %r is no status line" % status)
    while screen and not screen[-1]:
        screen.pop()
    wrapped = wrapped_log(at_stop, scr.cols)
    if screen and not any(wrapped[i:i + len(screen)] == screen for i in range(len(wrapped))):
        fail("the rows above the status line are not a stretch of the log at the stop")
    if final is None:
        return "drawn: %r" % status
    k, n, name, p, f, sk = int(m.group(1)), int(m.group(2)), m.group(3), *map(int, m.group(4, 5, 6))
    plan = re.search(r"^1\.\.(\d+)$", "\n".join(final), re.M)
    res, res_stop = results(final), results(at_stop)
    if not plan or int(plan.group(1)) != n:
        fail("status says %d tests, the plan %s" % (n, plan.group(0) if plan else None))
    if not 1 <= k <= len(res) or res[k - 1][1] != name:
        fail("status names test %d %r, the log's test %d is %r" %
             (k, name, k, res[k - 1][1] if 0 < k <= len(res) else None))
    before = res[:k - 1]
    want = (sum(r[0] == "ok" and not r[2].startswith("SKIP") for r in before),
            sum(r[0] == "not ok" for r in before), sum(r[2].startswith("SKIP") for r in before))
    if (p, f, sk) != want:
        fail("status counts pass %d fail %d skip %d, the log before test %d: %r" % (p, f, sk, k, want))
    if len(res_stop) not in (k - 1, k):
        fail("status says test %d, the log at the stop has %d results" % (k, len(res_stop)))
    return "mid-run: %r, %d rows above it match the log at the stop" % (status, len(screen))


def main():
    args = sys.argv[1:]
    png = None
    if "--png" in args:
        i = args.index("--png")
        png = args[i + 1]
        del args[i:i + 2]
    running = args and args[0] in ("--running", "--drawn")
    logs = [read_log(p) for p in args[2 if running else 1:]]
    scr = Screen(args[1 if running else 0], logs[-1])
    if png:     # first: it shows what a failed check saw
        write_png(png, scr.w, scr.h, scr.px)
    msg = check_running(scr, *logs) if running else check_page(scr, logs[0])
    print("fbcheck: %dx%d scale %d: %s" % (scr.w, scr.h, scr.s, msg))


if __name__ == "__main__":
    main()
