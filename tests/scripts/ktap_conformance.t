#!/usr/bin/env python3
# ktap_conformance.t: the serial log is KTAP that Linux's own parser reads (docs/output.md).
# Logs: QEMU boots (the default run with its SKIPs, the same run with more memory, a test
# failing by an injected #UD, a double fault that bails out, a watchdog TIMEOUT; a log that
# tests/boot/boot.t or apic_timeout.t wrote after the ISO was built is reused, anything else is
# booted here into build/ktap-logs/) and build/host/model-log logs with PEBS lines (passing,
# failing PEBS verdicts, raw and decoded dumps). Each goes through tests/scripts/ktap_check.py:
# kunit.py parse --json from every Debian linux-source tree installed (6.1 and 6.12), with a
# timeout, no [CRASHED]/[ERROR], the same test-case counts as `# Totals:` and the same status
# for every test as the log's own result lines; Perl's TAP::Parser on the un-nested view.
# Then test names: stable identifiers, and the same set of names at 512M and 2G.
import os
import re
import subprocess
import sys

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, "tests/scripts")
import ktap_check  # noqa: E402

ISO = "build/pebs-kernel.iso"
OUT = "build/ktap-logs"
# name: (qemu-run.sh arguments, kernel options, expected verdict, boot log that may be reused)
BOOTS = {
    "default-512M": ("--cpu max --mem 512M", "", 0, "build/boot-logs/seabios-default.log"),
    "default-2G": ("--cpu max --mem 2G", "", 0, None),
    "inject-ud": ("--cpu max --mem 256M", "tests=boot,inject,load_l1 inject=ud", 1,
                  "build/boot-logs/inject-ud.log"),
    "inject-stack": ("--cpu max --mem 256M", "tests=inject inject=stack", 1,
                     "build/boot-logs/inject-stack.log"),
    "timeout": ("--cpu max --mem 256M", "tests=apic_hang,apic_watchdog", 1,
                "build/boot-logs/apic-timeout.log"),
}
MODELS = {
    "model-skylake": ["--cpu", "skylake", "--seed", "3"],
    "model-icx-mixed": ["--cpu", "icelake_sp", "--seed", "8", "--mix", "mixed", "--dump", "raw"],
    "model-hsw-l1": ["--cpu", "haswell", "--seed", "11", "--mix", "l1", "--dump", "raw"],
    "model-spr-decoded": ["--cpu", "sapphire_rapids", "--seed", "1", "--dump", "decoded"],
}
NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
n = failed = 0


def ok(cond, name, diag=()):
    global n, failed
    n += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, name))
    if not cond:
        failed += 1
    for line in list(diag)[:20]:
        print("# " + line)


def reused(name, reuse, want):
    """A snapshot of another test's log of this ISO, if that log is complete (its EXIT line
    is the last thing written: under `prove -j` the other test may be writing it now) and
    ended with the expected status."""
    try:
        if os.path.getmtime(reuse) <= os.path.getmtime(ISO):
            return None
        with open(reuse, "rb") as f:
            data = f.read()
    except OSError:
        return None
    m = re.search(rb"^# EXIT: STATUS=([01])\r?$", data, re.M)
    if not m or int(m.group(1)) != want:
        return None
    snap = os.path.join(OUT, name + ".reused.log")
    with open(snap, "wb") as f:
        f.write(data)
    return snap


def boot_log(name):
    qargs, kopts, want, reuse = BOOTS[name]
    snap = reused(name, reuse, want) if reuse else None
    if snap:
        return snap, None
    log = os.path.join(OUT, name + ".log")
    p = subprocess.run(["tests/boot/qemu-run.sh", ISO, "--fw", "bios"] + qargs.split() +
                       ["--timeout", "180", "--log", log, "--"] + kopts.split(),
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=240)
    return log, None if p.returncode == want else "qemu-run.sh status %d, want %d" % (
        p.returncode, want)


def names(log):
    cases, groups, _, _ = ktap_check.own_verdicts(ktap_check.read_log(log))
    return set(cases) | set(groups)


print("1..%d" % (1 + len(BOOTS) + len(MODELS) + 2))
os.makedirs(OUT, exist_ok=True)
trees = ktap_check.kunit_trees()
ok(len(trees) > 0, "kunit.py from the linux-source packages: %s"
   % (", ".join(v for v, _ in trees) or "none (scripts/install-deps.sh installs them)"))
logs = {}
for name in BOOTS:
    if not os.path.exists(ISO):
        ok(False, "%s: %s missing (make iso)" % (name, ISO))
        continue
    log, err = boot_log(name)
    problems = ([err] if err else []) + ktap_check.check_log(log, trees)
    logs[name] = log
    ok(trees and not problems, "boot %s (%s) conforms" % (name, log), problems)
for name, args in MODELS.items():
    log = os.path.join(OUT, name + ".log")
    with open(log, "wb") as f:
        p = subprocess.run(["build/host/model-log"] + args, stdout=f, timeout=120)
    problems = (["model-log status %d" % p.returncode] if p.returncode else []) + \
        ktap_check.check_log(log, trees)
    ok(trees and not problems, "model-log %s conforms" % " ".join(args), problems)

# test names: stable identifiers (values go after '#'), the same at every memory size
allnames = set().union(*(names(p) for p in logs.values())) if logs else set()
bad = sorted("/".join(k) for k in allnames if not all(NAME.match(w) for w in k))
ok(allnames and not bad, "test names are identifiers (%d names)" % len(allnames), bad)
a, b = (names(logs[k]) if k in logs else set() for k in ("default-512M", "default-2G"))
ok(a and a == b, "512M and 2G boots report the same test names",
   sorted("/".join(k) for k in a ^ b))
sys.exit(1 if failed else 0)
