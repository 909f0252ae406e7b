#!/usr/bin/env python3
"""fbcheck.py: read a QEMU screendump (PPM) back as text by matching every character cell
pixel-exactly against the kernel's font (tools/gen-font8x16.py, the source of
platform/font8x16.c) and compare it with the serial log of the same boot.

  fbcheck.py SCREEN.ppm SERIAL.log [--png OUT.png]

Checks (exit 1 with the first problem): the geometry the kernel printed ("# framebuffer:
WxH ... text CxR scale S") matches the dump; every cell of the text grid is a known glyph
(foreground or background pixels only); the screen's first line is the serial log's first
KTAP line and the screen lines are the serial lines, in order, wrapped at C columns; the
verdict banner at the bottom spells the verdict from the serial totals in large letters.
"""
import contextlib, io, os, re, runpy, struct, sys, zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


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


def main():
    args = sys.argv[1:]
    png = None
    if "--png" in args:
        i = args.index("--png")
        png = args[i + 1]
        del args[i:i + 2]
    ppm, log = args
    w, h, px = read_ppm(ppm)
    if png:
        write_png(png, w, h, px)
    lines = open(log, "rb").read().decode("latin-1").replace("\r", "").split("\n")
    text = "\n".join(lines)
    m = re.search(r"^# framebuffer: (\d+)x(\d+) (\d+) bpp pitch \d+, text (\d+)x(\d+) scale (\d+)$",
                  text, re.M)
    if not m:
        fail("serial log has no '# framebuffer:' line (no framebuffer console?)")
    fw, fh, _, cols, rows, s = map(int, m.groups())
    if (fw, fh) != (w, h):
        fail("kernel says %dx%d, screendump is %dx%d" % (fw, fh, w, h))
    font = load_font()
    bg = px[0:3]

    def pixel_on(x, y):
        o = 3 * (y * w + x)
        return px[o:o + 3] != bg

    def cell(x0, y0, sc):
        """the glyph at pixel (x0, y0) with scale sc, or None when not pixel-exact"""
        rows_ = []
        for gy in range(16):
            b = 0
            for gx in range(8):
                on = pixel_on(x0 + gx * sc, y0 + gy * sc)
                # every pixel of the scaled dot must agree
                for sy in range(sc):
                    for sx in range(sc):
                        if pixel_on(x0 + gx * sc + sx, y0 + gy * sc + sy) != on:
                            return None
                b |= (0x80 >> gx) if on else 0
            rows_.append(b)
        return font.get(tuple(rows_))

    # The banner, from the totals in the serial log (fbcon.c: banner scale and geometry).
    t = re.search(r"^# Totals: pass:(\d+) fail:(\d+) skip:(\d+)", text, re.M)
    st = re.search(r"^# EXIT: STATUS=(\d)", text, re.M)
    if not t or not st:
        fail("serial log has no totals/EXIT line")
    banner = "%s  pass:%s fail:%s skip:%s" % ("FAIL" if st.group(1) != "0" else "PASS",
                                              t.group(1), t.group(2), t.group(3))
    bs = min(4 * s, w // (len(banner) * 8), h // 48) or 1
    bh = 16 * bs + 16 * s
    grid_rows = (h - bh) // (16 * s)
    bh = h - grid_rows * 16 * s
    bx = (w - len(banner) * 8 * bs) // 2
    by = h - bh + (bh - 16 * bs) // 2
    got = "".join(cell(bx + i * 8 * bs, by, bs) or "?" for i in range(len(banner)))
    if got != banner:
        fail("banner reads %r, expected %r (scale %d at y=%d)" % (got, banner, bs, by))

    screen = []
    for r in range(grid_rows):
        line = ""
        for c in range(cols):
            ch = cell(c * 8 * s, r * 16 * s, s)
            if ch is None:
                fail("cell (%d,%d) is not a glyph of the font" % (c, r))
            line += ch
        screen.append(line.rstrip())
    while screen and not screen[-1]:
        screen.pop()

    start = next((i for i, l in enumerate(lines) if l == "KTAP version 1"), None)
    if start is None:
        fail("no 'KTAP version 1' in the serial log")
    wrapped = []
    for l in lines[start:]:
        l = l.expandtabs(8)
        while len(l) > cols:
            wrapped.append(l[:cols])
            l = l[cols:]
        wrapped.append(l.rstrip())
    if not screen:
        fail("nothing on the screen")
    # the screen holds a contiguous window of the log: from its start when everything fit,
    # else (after scrolling) a later stretch; every screen line must match in order
    k = next((k for k in range(len(wrapped)) if wrapped[k:k + len(screen)] == screen), None)
    if k is None:
        first = next((k for k in range(len(wrapped)) if wrapped[k] == screen[0]), 0)
        for i, l in enumerate(screen):
            if first + i >= len(wrapped) or wrapped[first + i] != l:
                fail("screen line %d %r differs from serial %r" %
                     (i, l, wrapped[first + i] if first + i < len(wrapped) else None))
    print("fbcheck: %dx%d scale %d: %d screen lines match serial lines %d.. of the log, "
          "banner %r (scale %d)" % (w, h, s, len(screen), k, banner, bs))


def fail(msg):
    print("fbcheck: " + msg)
    sys.exit(1)


if __name__ == "__main__":
    main()
