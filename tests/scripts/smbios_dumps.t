#!/usr/bin/env python3
# smbios_dumps.t: the kernel's SMBIOS parser (platform/smbios.c, through `pebs-preflight
# --smbios`) on dumps of real servers (tests/fixtures/smbios/README.md says whose), checked
# against the tool a lab already trusts for them: Debian's dmidecode reading the same file
# (`dmidecode --from-dump`). Every field of the four `# smbios:` lines is compared: BIOS,
# system and board strings, populated sockets with their core and thread sums, and the memory
# population (populated of all slots, total size, type, speed and configured speed, maker and
# part number of the first module). Then broken input: a truncated dump, a bad checksum, a
# file that is not one: exit 2 with the reason, never a crash.
import os
import re
import shutil
import subprocess
import sys
import tempfile

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PF = "build/host/pebs-preflight"
FX = "tests/fixtures/smbios"
CPUID = "tests/fixtures/cpuid/skylake.txt"
DUMPS = sorted(f for f in os.listdir(FX) if f.endswith(".bin"))
n = 0
failed = 0


def ok(cond, what, detail=""):
    global n, failed
    n += 1
    if not cond:
        failed += 1
        for line in detail.splitlines():
            print("# " + line)
    print(("ok" if cond else "not ok") + " %d - %s" % (n, what))


if not shutil.which("dmidecode"):
    print("1..0 # SKIP dmidecode not installed (scripts/install-deps.sh --test installs it)")
    sys.exit(0)


def ours(path):
    r = subprocess.run([PF, "--cpuid", CPUID, "--smbios", path], capture_output=True,
                       text=True)
    return r.returncode, r.stdout, r.stderr


def clean(s):
    """What the kernel keeps of a string: printable ASCII, '"' as '?', 47 bytes, no padding."""
    s = "".join(c if 0x20 <= ord(c) < 0x7f and c != '"' else "?" for c in s)
    return s[:47].rstrip(" ") or "-"


def dmi_s(path, key):
    r = subprocess.run(["dmidecode", "-q", "--from-dump", path, "-s", key],
                       capture_output=True, text=True)
    v = r.stdout.rstrip("\n").split("\n")[0] if r.returncode == 0 else "?"
    return "-" if v == "Not Specified" else clean(v)  # dmidecode's word for string 0


def devices(path, t):
    out = subprocess.run(["dmidecode", "-q", "--from-dump", path, "-t", str(t)],
                         capture_output=True, text=True).stdout
    devs = []
    for block in out.split("\n\n"):
        d = {}
        for line in block.splitlines():
            m = re.match(r"^\t([^\t:][^:]*): (.*)$", line)
            if m:
                d[m.group(1)] = m.group(2)
        if d:
            devs.append(d)
    return devs


def mib(size):
    m = re.match(r"(\d+) (MB|GB|TB)$", size)
    return int(m.group(1)) * {"MB": 1, "GB": 1024, "TB": 1 << 20}[m.group(2)] if m else 0


def mts(v):
    m = re.match(r"(\d+) MT/s$", v or "")
    return int(m.group(1)) if m else 0


TYPES = {"DDR3": "DDR3", "DDR4": "DDR4", "DDR5": "DDR5", "Other": "type Other",
         "Unknown": "type Unknown"}

for f in DUMPS:
    path = os.path.join(FX, f)
    rc, out, err = ours(path)
    ok(rc == 0, "%s: pebs-preflight --smbios exit 0" % f, err)
    lines = {m.group(1): m.group(0) for m in re.finditer(r"^# smbios: (\w+) .*$", out, re.M)}
    b = '# smbios: bios "%s" version "%s" date %s' % (
        dmi_s(path, "bios-vendor"), dmi_s(path, "bios-version"),
        dmi_s(path, "bios-release-date"))
    ok(lines.get("bios", "").startswith(b + " (SMBIOS "), "%s: bios line as dmidecode reads it"
       % f, "want %s\ngot  %s" % (b, lines.get("bios")))
    s = '# smbios: system "%s" "%s" version "%s"; board "%s" "%s" version "%s"' % tuple(
        dmi_s(path, k) for k in ("system-manufacturer", "system-product-name",
                                 "system-version", "baseboard-manufacturer",
                                 "baseboard-product-name", "baseboard-version"))
    ok(lines.get("system") == s, "%s: system and board line as dmidecode reads them" % f,
       "want %s\ngot  %s" % (s, lines.get("system")))
    procs = devices(path, 4)
    pop = [p for p in procs if p.get("Status", "").startswith("Populated")]
    p = '# smbios: processors %d of %d sockets populated, %d cores, %d threads, "%s"' % (
        len(pop), len(procs), sum(int(x.get("Core Count", 0)) for x in pop),
        sum(int(x.get("Thread Count", 0)) for x in pop),
        clean(pop[0].get("Version", "")) if pop else "-")
    ok(lines.get("processors") == p, "%s: processors line as dmidecode reads it" % f,
       "want %s\ngot  %s" % (p, lines.get("processors")))
    dimms = devices(path, 17)
    have = [d for d in dimms if mib(d.get("Size", ""))]
    first = have[0] if have else {}
    conf = first.get("Configured Memory Speed") or first.get("Configured Clock Speed")
    want = "# smbios: memory %d of %d slots populated, %d MiB, %s %d MT/s (configured %d)" % (
        len(have), len(dimms), sum(mib(d["Size"]) for d in have),
        TYPES.get(first.get("Type"), first.get("Type")), mts(first.get("Speed")), mts(conf))
    got = lines.get("memory", "")
    ok(got.startswith(want + ", channels "), "%s: memory population as dmidecode reads it" % f,
       "want %s, channels ...\ngot  %s" % (want, got))
    tail = '; "%s" "%s"' % (clean(first.get("Manufacturer", "")),
                            clean(first.get("Part Number", "")))
    ok(tail in got, "%s: first module's maker and part number" % f,
       "want ...%s\ngot  %s" % (tail, got))

# channels: the locators' letters where the board names channels (Intel and Quanta boards:
# DIMM_A1 / DIMM_A0, 2 sockets x 4 channels), unknown where they name sockets (Dell: A1..B12)
for f, ch in (("s2600wtt.bin", "ABCDEFGH"), ("quanta_d51.bin", "ABCDEFGH"),
              ("dell_r640.bin", "unknown")):
    out = ours(os.path.join(FX, f))[1]
    ok(", channels %s;" % ch in out, "%s: channels %s" % (f, ch), out)

# broken input: exit 2 with the reason, nothing half-printed as if it were whole
tmp = tempfile.mkdtemp()
try:
    raw = open(os.path.join(FX, "dell_r640.bin"), "rb").read()
    cases = (("truncated", raw[:0x40], "past the end|runs past|not terminated|left out"),
             ("bad-checksum", raw[:4] + bytes([raw[4] ^ 1]) + raw[5:], "checksum"),
             ("not-smbios", b"\x7fELF" + bytes(60), "no SMBIOS anchor"),
             ("missing", None, "No such file"))
    for name, data, why in cases:
        p = os.path.join(tmp, name)
        if data is not None:
            open(p, "wb").write(data)
        rc, out, err = ours(p)
        said = out + err
        ok((rc == 2 and re.search(why, err)) or (rc == 0 and re.search(why, out)),
           "%s dump: a clear reason (%s)" % (name, why), "rc %d\n%s" % (rc, said))
finally:
    shutil.rmtree(tmp)

print("1..%d" % n)
sys.exit(1 if failed else 0)
