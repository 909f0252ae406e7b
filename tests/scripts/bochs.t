#!/usr/bin/env python3
"""bochs.t: Bochs, an x86 implementation independent of QEMU, in the boot matrix
(tests/boot/bochs-run.sh).

First the runner itself, with a stand-in for Bochs (BOCHS=...): the bochsrc it writes for
each option, the kernel options on the FAT disk GRUB reads them from, the `c` it feeds the
debugger, the exit status it maps from the log's `# EXIT:` line (0, 1), from a Bochs that dies
without one (2) and one that never ends (124), that no Bochs process outlives it, and its
refusals of bad arguments (2).

Then three real boots of build/pebs-kernel.iso under Debian's Bochs 2.7 (SeaBIOS ROM), each
limited by tests= to what it checks (a Bochs boot takes 30-50 s here):
  bochs-msrs-0    cpu: ignore_bad_msrs=0, tests=boot,exceptions: unknown MSRs raise #GP as on
                  hardware; `exceptions` must pass.
  bochs-msrs-1    Bochs's default ignore_bad_msrs=1 (an unknown MSR reads 0, a write is
                  dropped, no #GP: what KVM's ignore_msrs=1 does), tests=boot,exceptions.
                  The header says so (`# platform:`, kernel/msr_platform.h) and
                  gp_from_rdmsr_safe / gp_from_wrmsr_safe SKIP with that reason.
  bochs-skylake-x cpu: model=corei7_skylake_x (GenuineIntel 06_55H, no hypervisor bit,
                  invariant TSC, no cache hierarchy to time), tests=load_l1,load_l2: each load
                  test must pass or SKIP with a reason; step_over_L1 SKIPs naming why every
                  level times alike (loads/alike.h): the buffer is WB, so emulation, which
                  the swallowed MSRs give away.
  bochs-skx-msrs-0 the same with ignore_bad_msrs=0: MSRs #GP as on hardware, but IA32_MPERF,
                  which CPUID.06H:ECX[0] advertises, #GPs (kernel/trust.h
                  trust_emulation_hint): step_over_L1 SKIPs naming that.
Every log also goes through
tests/scripts/ktap_check.py. Without Bochs or its ROM the real boots SKIP, naming the package
(scripts/install-deps.sh --test). Logs: build/boot-logs/bochs-*.log.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taplib import ok, skip, done  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
RUN = os.path.join(ROOT, "tests", "boot", "bochs-run.sh")
ISO = os.path.join(ROOT, "build", "pebs-kernel.iso")
LOGS = os.path.join(ROOT, "build", "boot-logs")
T = tempfile.mkdtemp(prefix="bochs-t.")

FAKE = r"""#!/bin/bash
# Bochs stand-in: records its arguments, bochsrc, debugger commands and options disk, then
# plays FAKE_MODE on the COM1 file the bochsrc names
echo $$ >"$FAKE_DIR/pid"
echo "$*" >"$FAKE_DIR/args"
while [ $# -gt 0 ]; do
	case $1 in -f) rc=$2; shift 2 ;; -rc) cp "$2" "$FAKE_DIR/debugger.rc"; shift 2 ;; *) shift ;; esac
done
cp "$rc" "$FAKE_DIR/bochsrc"
com=$(sed -n 's/^com1: .*dev="\(.*\)"$/\1/p' "$rc")
img=$(sed -n 's/^ata0-slave: type=disk, path="\([^"]*\)".*/\1/p' "$rc")
[ -n "$img" ] && mtype -i "$img" ::/pebs-kernel/cmdline.cfg >"$FAKE_DIR/cmdline.cfg" 2>&1
read -r -t 5 first && echo "$first" >"$FAKE_DIR/stdin"
log() { printf '%s\r\n' "$@" >>"$com"; }
log "KTAP version 1" "1..1"
case $FAKE_MODE in
pass) log "ok 1 boot" "# EXIT: STATUS=0"; exec sleep 60 ;;
fail) log "not ok 1 boot" "# EXIT: STATUS=1"; exec sleep 60 ;;
die) exit 1 ;;
hang) exec sleep 60 ;;
esac
"""


def write(path, text, mode=0o644):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)


def alive(pid):
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    try:  # a zombie is dead
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False


# ---- the runner, over a stand-in ----
fake_dir = os.path.join(T, "fake")
os.makedirs(fake_dir)
write(os.path.join(T, "bochs"), FAKE, 0o755)
write(os.path.join(T, "rom"), "rom")
write(os.path.join(T, "vgarom"), "vga")
write(os.path.join(T, "x.iso"), "iso")
fenv = dict(os.environ, BOCHS=os.path.join(T, "bochs"), BOCHS_ROM=os.path.join(T, "rom"),
            BOCHS_VGAROM=os.path.join(T, "vgarom"), FAKE_DIR=fake_dir, TMPDIR=T)


def fake_run(mode, args, timeout=60):
    for f in os.listdir(fake_dir):
        os.unlink(os.path.join(fake_dir, f))
    t0 = time.time()
    p = subprocess.run([RUN, os.path.join(T, "x.iso")] + args, env=dict(fenv, FAKE_MODE=mode),
                       capture_output=True, text=True, timeout=timeout)
    p.secs = time.time() - t0

    def rd(n):
        try:
            with open(os.path.join(fake_dir, n)) as f:
                return f.read()
        except OSError:
            return ""
    p.rd = rd
    return p


p = fake_run("pass", ["--cpu", "corei7_skylake_x", "--ignore-bad-msrs", "0", "--", "tests=boot",
                      "exceptions"])
rc = p.rd("bochsrc")
ok(p.returncode == 0 and "# EXIT: STATUS=0" in p.stdout, "EXIT STATUS=0 in the log: exit 0, the log on stdout",
   p.stderr + p.stdout)
ok("\ncpu: model=corei7_skylake_x, ignore_bad_msrs=0\n" in rc, "--cpu, --ignore-bad-msrs: the bochsrc cpu line", rc)
ok('romimage: file="%s/rom"' % T in rc and 'vgaromimage: file="%s/vgarom"' % T in rc and
   'ata0-master: type=cdrom, path="%s/x.iso", status=inserted' % T in rc and "\nboot: cdrom\n" in rc
   and 'display_library: rfb, options="timeout=0"' in rc and "plugin_ctrl: speaker=0" in rc,
   "bochsrc: SeaBIOS ROM, the ISO as CD-ROM, rfb display, no PC speaker", rc)
ok(p.rd("cmdline.cfg") == 'set pebs_args="tests=boot exceptions"\n',
   "kernel options: /pebs-kernel/cmdline.cfg on the FAT disk", p.rd("cmdline.cfg") + rc)
ok(p.rd("debugger.rc") == "c\n" and p.rd("stdin") == "c\n", "the debugger gets `c` (-rc file and stdin)",
   repr(p.rd("debugger.rc")) + repr(p.rd("stdin")))
pid = int(p.rd("pid") or 0)
ok(pid and not alive(pid) and p.secs < 30, "Bochs ended after the EXIT line (%.1f s)" % p.secs, p.rd("pid"))

p = fake_run("fail", [])
rc = p.rd("bochsrc")
ok(p.returncode == 1, "EXIT STATUS=1: exit 1", p.stderr)
ok("\ncpu:" not in rc and "ata0-slave" not in rc, "no options: Bochs's own CPU defaults, no options disk", rc)
p = fake_run("die", [])
ok(p.returncode == 2 and "Bochs ended with status 1 and kernel verdict 'none'" in p.stderr,
   "Bochs ends without an EXIT line: exit 2, says so", p.stderr)
p = fake_run("hang", ["--timeout", "2"])
pid = int(p.rd("pid") or 0)
ok(p.returncode == 124 and "timed out after 2s" in p.stderr and pid and not alive(pid),
   "no EXIT line within --timeout: exit 124, Bochs killed", p.stderr)
for args, want in ((["--ignore-bad-msrs", "2"], "--ignore-bad-msrs must be 0 or 1"),
                   (["--cpu", "Skylake X"], "not a Bochs model name"),
                   (["--timeout", "0"], "--timeout must be seconds >= 1"),
                   (["--frob"], "unknown argument --frob")):
    p = fake_run("pass", args)
    ok(p.returncode == 2 and want in p.stderr and not p.rd("args"), "bad %s: exit 2 before Bochs starts" % args[0],
       p.stderr)
p = subprocess.run([RUN, os.path.join(T, "none.iso")], env=fenv, capture_output=True, text=True)
ok(p.returncode == 2 and "none.iso: no such file (make iso)" in p.stderr, "missing ISO: exit 2, says so", p.stderr)
p = subprocess.run([RUN, os.path.join(T, "x.iso")], env=dict(fenv, BOCHS="no-such-bochs"),
                   capture_output=True, text=True)
ok(p.returncode == 2 and "no 'no-such-bochs' on PATH (Debian package bochs" in p.stderr,
   "no Bochs: exit 2, names the package", p.stderr)

# ---- real boots ----
CASES = [
    # name, runner options, kernel options, header lines wanted, checks: (tests, todo)
    ("bochs-msrs-0", ["--ignore-bad-msrs", "0"], "tests=boot,exceptions",
     ["# cpu: AuthenticAMD 06_03H", "# cmdline: tests=boot,exceptions"],
     [("exceptions/gp_from_rdmsr_safe exceptions/gp_from_wrmsr_safe exceptions", None)], 0),
    ("bochs-msrs-1", ["--ignore-bad-msrs", "1"], "tests=boot,exceptions",
     ["# cpu: AuthenticAMD 06_03H", "# cmdline: tests=boot,exceptions",
      "# platform: unknown MSRs do not #GP here (MSR 0xdeadbeef reads 0x0, writes dropped)",
      "  ok 2 gp_from_rdmsr_safe # SKIP unknown MSRs do not #GP here"],
     [("exceptions/gp_from_rdmsr_safe exceptions/gp_from_wrmsr_safe exceptions", None)], 0),
    ("bochs-skylake-x", ["--cpu", "corei7_skylake_x"], "tests=load_l1,load_l2",
     ["# cpu: GenuineIntel 06_55H", "# cmdline: tests=load_l1,load_l2",
      "# platform: unknown MSRs do not #GP here",
      "  ok 5 step_over_L1 # SKIP load_l2 times like L1"],
     [("load_l1 load_l2 load_l2/step_over_L1", None)], 0),
    ("bochs-skx-msrs-0", ["--cpu", "corei7_skylake_x", "--ignore-bad-msrs", "0"],
     "tests=load_l1,load_l2",
     ["# cpu: GenuineIntel 06_55H", "# trust: SMI_COUNT #GP",
      "  ok 5 step_over_L1 # SKIP load_l2 times like L1"],
     [("load_l1 load_l2 load_l2/step_over_L1", None)], 0),
]

bochs = shutil.which("bochs")
rom = "/usr/share/seabios/bios-256k.bin"
missing = ("no bochs on PATH" if not bochs else "no %s (package seabios)" % rom
           if not os.path.isfile(rom) else "no %s (make iso)" % ISO if not os.path.isfile(ISO) else "")


def results(log):
    """{'name': line, 'parent/name': line} for every result line of the log."""
    out, parent = {}, None
    for line in log.splitlines():
        m = re.match(r"^ {2}# Subtest: (\S+)", line)
        if m:
            parent = m.group(1)
            continue
        m = re.match(r"^( *)(?:not )?ok \d+ (\S+)", line)
        if m:
            key = m.group(2) if not m.group(1) else "%s/%s" % (parent, m.group(2))
            out[key] = line
            if not m.group(1):
                parent = None
    return out


def pass_or_skip(line):
    """ok (its `# text` a plain comment), or ok with `# SKIP <a reason>`; never not ok, never a
    SKIP without a reason."""
    m = re.match(r"^ *ok \d+ \S+(?: # ?(.*))?$", line or "")
    d = re.match(r"(?i)skip\S*(\s+\S.*)?$", (m.group(1) or "").strip()) if m else None
    return bool(m) and (d is None or d.group(1) is not None)


table = []
for name, ropts, kopts, header, checks, _ in CASES:
    if missing:
        for what in ["boots to a verdict", "header"] + [c[0] for c in checks]:
            skip("%s: %s" % (name, what), missing + " (scripts/install-deps.sh --test)")
        continue
    os.makedirs(LOGS, exist_ok=True)
    logf = os.path.join(LOGS, name + ".log")
    t0 = time.time()
    p = subprocess.run([RUN, ISO] + ropts + ["--timeout", "300", "--log", logf, "--", kopts],
                       capture_output=True, text=True, timeout=330)
    secs = time.time() - t0
    with open(logf, "rb") as f:
        log = f.read().decode("utf-8", "replace").replace("\r", "")
    res = results(log)
    bad = [l for l in res.values() if re.match(r"^ *not ok ", l)]
    plan = re.search(r"^1\.\.(\d+)$", log, re.M)
    ok(p.returncode in (0, 1) and plan and "# EXIT: STATUS=%d" % p.returncode in log
       and re.search(r"^# Totals: pass:\d+ fail:\d+ skip:\d+ total:\d+$", log, re.M)
       and len([k for k in res if "/" not in k]) == int(plan.group(1)),
       "%s: boots to a verdict, a well-formed log (%.0f s, exit %d)" % (name, secs, p.returncode),
       p.stderr + "\n" + "\n".join(log.splitlines()[-8:]))
    kc = subprocess.run([os.path.join(ROOT, "tests/scripts/ktap_check.py"), logf], capture_output=True, text=True)
    if kc.returncode == 2:
        skip("%s: the log reads the same through kunit.py and TAP::Parser" % name,
             (kc.stdout + kc.stderr).strip().splitlines()[-1:] or "no kunit.py")
    else:
        ok(kc.returncode == 0, "%s: the log reads the same through kunit.py and TAP::Parser" % name,
           kc.stdout + kc.stderr)
    hdr = [l for l in log.splitlines() if re.match(r"^# (cpu|hypervisor|tsc|timing|pmu: pebs|cmdline):", l)]
    ok(all(any(l.startswith(h) for l in log.splitlines()) for h in header),
       "%s: header says %s" % (name, "; ".join(header)), "\n".join(hdr))
    why = {"bochs-skylake-x": "unknown MSRs do not #GP",
           "bochs-skx-msrs-0": "IA32_MPERF #GPs though CPUID.06H:ECX[0]=1"}.get(name)
    if why:
        alike = [l for l in log.splitlines() if "step_over_L1 # SKIP" in l]
        ok(any(l.endswith("yet no cache effect: emulation likely (%s)" % why) for l in alike),
           "%s: step_over_L1 names why the levels time alike: emulation likely (%s)" % (name, why),
           "\n".join(alike) or "(no step_over_L1 SKIP line)")
    if name == "bochs-msrs-0":
        ok(not any(l.startswith("# platform:") for l in log.splitlines()),
           "%s: MSRs #GP: no '# platform:' line" % name,
           "\n".join(l for l in log.splitlines() if l.startswith("# platform:")))
    if name == "bochs-skylake-x":
        ok(not any(l.startswith("# hypervisor:") for l in log.splitlines()),
           "%s: no hypervisor bit: no '# hypervisor:' line" % name, "\n".join(hdr))
    for tests, todo in checks:
        lines = [res.get(t) for t in tests.split()]
        times = [l for l in log.splitlines() if re.match(r"^  # load_l\d: time ", l)]
        ok(all(pass_or_skip(l) for l in lines),
           "%s: %s pass or SKIP with a reason" % (name, ", ".join(tests.split())),
           "the log says:\n" + "\n".join(l or "(no result line for it)" for l in lines) +
           ("\n" + "\n".join(times) if times else ""), todo=todo)
    table.append("%-16s %-40s %-24s exit %d %5.0f s  %s; not ok: %s" % (
        name, " ".join(ropts), kopts, p.returncode, secs,
        (re.search(r"^# Totals: (.*)$", log, re.M) or [None, "-"])[1] if log else "-",
        ", ".join(l.strip().split(" ", 3)[-1] for l in bad) or "none"))

for line in table:
    print("# " + line)
shutil.rmtree(T, ignore_errors=True)
done()
