"""histgen.py: synthetic lab histories for the history tests (tests/scripts/history*.t,
dashboard.t) and the scale bench (tests/bench/history.bench): logs of build/host/model-log
(the kernel's printing and verdict code over the PMU model) given machine identities as a lab
collects them: a `pebs-lab: machine=... bios=... started=...` line (tools/sol-capture), the
kernel's planned `# run: id=... time=...` header line (docs/output.md "Run identity") on
every other run and planned `# smbios: memory ...` line, and a microcode revision in the
`# pmu: cpu` line. Deterministic: the same
arguments give the same files."""
import os
import random
import re
import subprocess

CPUS = ("skylake", "icelake_sp", "sapphire_rapids", "haswell")
RE_UCODE = re.compile(rb"(# pmu: cpu [^\n]* microcode )0x[0-9a-f]+")
RE_CMDLINE = re.compile(rb"# cmdline: [^\n]*")
RE_NS = re.compile(rb"( time unit=load tsc=)(\d+\.\d+)( [^\n]* ns=)(\d+\.\d+)")


def after_format(body, lines, eol=b"\r\n"):
    """body with `lines` inserted after its `# output-format: N` line (any N)."""
    return re.sub(rb"(# output-format: \d+" + eol + rb")", lambda m: m.group(1) + lines, body,
                  count=1)


def model_log(cpu, seed, ram_pct=100):
    p = subprocess.run(["build/host/model-log", "--cpu", cpu, "--seed", str(seed),
                        "--ram-pct", str(ram_pct)], capture_output=True, timeout=120)
    if p.returncode:
        raise RuntimeError("model-log %s: %s (`make all` builds it)" % (cpu, p.stderr))
    return p.stdout


def stamp(day, hour):
    return "2026-%02d-%02dT%02d:00:00Z" % (1 + day // 28, 1 + day % 28, hour)


DIMMS = (b"memory 8 of 8 slots: 8x 16 GB DDR4-3200", b"memory 4 of 8 slots: 4x 32 GB DDR4-3200")


def dress(log, machine, bios, ucode, when, run_id=None, jitter=None, dimms=DIMMS[0]):
    """A model log as a lab's capture of `machine`: metadata line, microcode, run line, the
    same command line on every run, and each timed load's TSC ticks and ns moved by up to 1 % (a
    random.Random: run-to-run noise, which also makes every run's text its own)."""
    body = RE_UCODE.sub(lambda m: m.group(1) + ucode.encode(), log)
    body = RE_CMDLINE.sub(b"# cmdline: ", body)
    if jitter:
        def move(m):
            f = 1 + jitter.uniform(-0.01, 0.01)
            return b"%s%.2f%s%.2f" % (m.group(1), float(m.group(2)) * f, m.group(3),
                                      float(m.group(4)) * f)
        body = RE_NS.sub(move, body)
    body = after_format(body, b"# smbios: %s\n" % dimms, b"\n")
    if run_id:
        body = after_format(body, b"# run: id=%s time=%s\n" % (run_id.encode(), when.encode()),
                            b"\n")
    head = b'pebs-lab: machine=%s bios="%s" started=%s\n' % (
        machine.encode(), bios.encode(), when.encode())
    return (head + body).replace(b"\n", b"\r\n")


def lab(out, machines, runs_per_machine, seeds=3, slow=()):
    """Write machines x runs_per_machine logs into out (one file per run). Machine i has CPU
    CPUS[i % 4]; its runs are days apart. Machines in `slow` get, in their last run, RAM
    1.3x slower together with a microcode update, a new BIOS and half the DIMMs (the planted
    regression and its likely causes). Returns the list of file names."""
    os.makedirs(out, exist_ok=True)
    base = {}
    rnd = random.Random(33)
    names = []
    for i in range(machines):
        cpu = CPUS[i % len(CPUS)]
        m = "m%03d-%s" % (i, cpu.split("_")[0][:3])
        for r in range(runs_per_machine):
            last = r == runs_per_machine - 1
            planted = last and m in slow
            key = (cpu, i % seeds, 130 if planted else 100)
            if key not in base:
                base[key] = model_log(key[0], 100 + key[1], key[2])
            when = stamp(r, i % 24)
            rid = "%016x" % rnd.getrandbits(64) if r % 2 else None
            text = dress(base[key], m, "2.%d" % (1 + planted), "0x%x" % (0x100 + planted),
                         when, rid, rnd, DIMMS[planted])
            name = "%s-%s.log" % (m, when.replace("-", "").replace(":", ""))
            with open(os.path.join(out, name), "wb") as f:
                f.write(text)
            names.append(name)
    return names
