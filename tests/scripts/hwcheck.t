#!/usr/bin/env python3
"""hwcheck.t: tools/hwcheck (`make hwcheck`) over fake machines, and once for real here.

Each fake machine is a sysfs, a procfs and a /dev root (HWCHECK_SYSFS, HWCHECK_PROC,
HWCHECK_DEV), a build folder with stand-ins for pebs-preflight and loadbench (HWCHECK_BUILD),
and a PATH that holds only this system's tools minus perf, taskset, modprobe and QEMU, plus
the stand-ins a case gives: `perf` (its `perf record` succeeds only where the fake sysfs has the
PMU it names and the fake perf_event_paranoid lets this user in), `taskset` (logs its CPU list),
`qemu-system-x86_64` (logs its command line, prints a kernel log, exits as isa-debug-exit 0
makes QEMU exit). Cases: no PMU and a paravirtual KVM (this machine's case), a PMU with
mem-loads and a usable KVM, a hybrid CPU, perf_event_paranoid 3 and 2 for a user that is not
root, missing tools (perf, QEMU, taskset, the built preflight), no /dev/kvm, bad arguments.
Each checks the bundle's files, hwcheck.json and the summary's lines. Then one real run on
this machine, whose summary must agree with what its own /sys says about the PMU and with
tests/boot/accel.sh about KVM.
"""
import json
import os
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taplib import ok, done  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
HWCHECK = os.path.join(ROOT, "tools", "hwcheck")
T = tempfile.mkdtemp(prefix="hwcheck-t.")
os.chmod(T, 0o755)
HIDDEN = ("perf", "taskset", "modprobe", "qemu-system-x86_64")
IS_ROOT = os.geteuid() == 0


def write(path, text, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)


def sysbin():
    """One folder of links to every command on this system's PATH but the HIDDEN ones."""
    d = os.path.join(T, "sysbin")
    os.makedirs(d, exist_ok=True)
    for p in os.environ.get("PATH", "/usr/bin:/bin").split(":") + ["/usr/sbin", "/sbin"]:
        if not os.path.isdir(p):
            continue
        for n in os.listdir(p):
            f = os.path.join(p, n)
            if (n in HIDDEN or n.startswith("perf_") or n.startswith("qemu-system")
                    or os.path.lexists(os.path.join(d, n))):
                continue
            if os.path.isfile(f) and os.access(f, os.X_OK):
                os.symlink(f, os.path.join(d, n))
    return d


SYSBIN = sysbin()

FAKE_PERF = r"""#!/bin/sh
# perf stand-in: version, `mem record -e list`, `mem record`, `record -e EV ... -- CMD`, each
# decided by the fake roots: the PMU in the fake sysfs, the fake perf_event_paranoid
echo "$*" >>"$FAKE_LOG/perf.calls"
d=$HWCHECK_SYSFS/bus/event_source/devices
# allowed: exit 255 as perf does where perf_event_paranoid keeps this user out
allowed() {
	if [ "$(id -u)" != 0 ] && [ "$(cat "$HWCHECK_PROC/sys/kernel/perf_event_paranoid")" -gt 2 ]; then
		echo "Error: Access to performance monitoring and observability operations is limited." >&2
		exit 255
	fi
}
case $1 in
version) echo "perf version 6.1.0-fake"; exit 0 ;;
mem)
	if [ ! -e "$d/cpu/type" ] && [ ! -e "$d/cpu_core/type" ]; then
		echo "failed: memory events not supported" >&2; exit 255
	fi
	[ "$3" = -e ] && { echo "ldlat-loads  : available"; exit 0; }
	allowed
	echo "[ perf record: Captured and wrote 0.002 MB $4 (2 samples) ]" >&2
	exit 0 ;;
record)
	ev=$3 pmu=${3%%/*}
	if [ ! -e "$d/$pmu/type" ]; then
		printf "event syntax error: '%s'\n                     \\___ Cannot find PMU \`%s'. Missing kernel support?\nRun 'perf list' for a list of valid events\n" "$ev" "$pmu" >&2
		exit 129
	fi
	allowed
	echo "[ perf record: Captured and wrote 0.002 MB $7 (3 samples) ]" >&2
	exit 0 ;;
esac
exit 1
"""

FAKE_TASKSET = r"""#!/bin/sh
# taskset stand-in: logs the CPU list, runs the command unpinned
echo "$2 ${3##*/}" >>"$FAKE_LOG/taskset.calls"
shift 2
exec "$@"
"""

KLOG = """KTAP version 1
1..1
# output-format: 2
# pebs-kernel fake
# cpu: GenuineIntel 06_55H stepping 4 "Fake CPU"
  KTAP version 1
  # Subtest: boot
  1..1
  ok 1 sane
# boot: pass:1 fail:0 skip:0 total:1
ok 1 boot
# Totals: pass:1 fail:0 skip:0 total:1
# Top-level tests: pass:1 fail:0 skip:0 total:1
# EXIT: STATUS=0
"""

FAKE_QEMU = r"""#!/bin/sh
# qemu-system-x86_64 stand-in: logs its arguments, prints a kernel log, exits 1 (= verdict 0)
echo "$*" >>"$FAKE_LOG/qemu.calls"
cat "$FAKE_LOG/kernel.log"
exit 1
"""

FAKE_MODPROBE = r"""#!/bin/sh
echo "$*" >>"$FAKE_LOG/modprobe.calls"
exit 1
"""

FAKE_PREFLIGHT = r"""#!/bin/sh
# pebs-preflight stand-in
echo "# preflight: CPUID executed on CPU 0 (pinned); MSRs from /dev/cpu/0/msr"
echo "# cpu: GenuineIntel 06_55H stepping 4 \"Fake CPU\""
echo "# pmu: pebs: format 3, fake"
echo "# plan: boot: runs"
echo "# plan: pmu: runs; PEBS steps SKIP fake reason"
"""

FAKE_LOADBENCH = r"""#!/bin/sh
# loadbench stand-in: the sweep prints its level lines; --pebs refuses as loadbench does
# (exit 3 no core PMU in LOADBENCH_SYSFS, 4 paranoid > 2 for a user that is not root) or
# prints a kernel log
echo "$*" >>"$FAKE_LOG/loadbench.calls"
if [ "$1" != --pebs ]; then
	echo "# level L1   plateau 1.10 ns (median of 1 points in 0..16K)"
	echo "# level DRAM plateau 90.00 ns (median of 1 points in 64M..)"
	exit 0
fi
for p in cpu cpu_core cpu_atom ibs_op; do [ -e "$LOADBENCH_SYSFS/$p/type" ] && found=1; done
if [ -z "${found:-}" ]; then
	echo "loadbench --pebs: no PMU: $LOADBENCH_SYSFS has no cpu, cpu_core/cpu_atom or ibs_op" >&2
	exit 3
fi
if [ "$(id -u)" != 0 ] && [ "$(cat "$LOADBENCH_PARANOID")" -gt 2 ]; then
	echo "loadbench --pebs: no permission: $LOADBENCH_PARANOID is 3" >&2
	exit 4
fi
cat "$FAKE_LOG/kernel.log"
exit 0
"""


def machine(name, pmus=(), memloads=True, hybrid=False, kvm="pvm", flags="fpu tsc msr sse2",
            paranoid=2, tools=("perf", "taskset", "modprobe", "qemu"), preflight=True,
            msrdev=True):
    """A fake machine: returns (env, its folder)."""
    m = os.path.join(T, name)
    s, p, d, b, bin_, log = (os.path.join(m, x) for x in ("sys", "proc", "dev", "build", "bin", "log"))
    for x in (s, p, d, b, bin_, log):
        os.makedirs(x)
    write(os.path.join(s, "devices/system/cpu/online"), "0-1\n")
    ev = os.path.join(s, "bus/event_source/devices")
    for i, pm in enumerate(("software", "tracepoint", "breakpoint") + tuple(pmus)):
        write(os.path.join(ev, pm, "type"), "%d\n" % (i + 1 if pm != "cpu" else 4))
        if pm in ("cpu", "cpu_core", "cpu_atom") and memloads:
            write(os.path.join(ev, pm, "events/mem-loads"), "event=0xcd,umask=0x1,ldlat=3\n")
            write(os.path.join(ev, pm, "format/ldlat"), "config1:0-15\n")
    if hybrid:
        for pm, cpus in (("cpu_core", "0"), ("cpu_atom", "1")):
            write(os.path.join(ev, pm, "cpus"), cpus + "\n")
            write(os.path.join(s, "devices", pm, "cpus"), cpus + "\n")
    if kvm:
        os.makedirs(os.path.join(s, "module", "kvm"))
        os.makedirs(os.path.join(s, "module", {"pvm": "kvm_pvm", "intel": "kvm_intel"}[kvm]))
        write(os.path.join(d, "kvm"), "", 0o666)
    if msrdev:
        write(os.path.join(d, "cpu/0/msr"), "")
    cpuinfo = ""
    for c in (0, 1):
        cpuinfo += ("processor\t: %d\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n"
                    "model name\t: Fake Xeon\nflags\t\t: %s\n\n" % (c, flags))
    write(os.path.join(p, "cpuinfo"), cpuinfo)
    write(os.path.join(p, "sys/kernel/perf_event_paranoid"), "%d\n" % paranoid)
    write(os.path.join(p, "cmdline"), "fake\n")
    write(os.path.join(log, "kernel.log"), KLOG)
    os.chmod(log, 0o777)
    if preflight:
        write(os.path.join(b, "host/pebs-preflight"), FAKE_PREFLIGHT, 0o755)
    write(os.path.join(b, "host/loadbench"), FAKE_LOADBENCH, 0o755)
    write(os.path.join(b, "pebs-kernel.iso"), "not an ISO\n")
    fakes = {"perf": FAKE_PERF, "taskset": FAKE_TASKSET, "qemu": FAKE_QEMU, "modprobe": FAKE_MODPROBE}
    for t in tools:
        write(os.path.join(bin_, "qemu-system-x86_64" if t == "qemu" else t), fakes[t], 0o755)
    env = dict(os.environ, HWCHECK_SYSFS=s, HWCHECK_PROC=p, HWCHECK_DEV=d, HWCHECK_BUILD=b,
               FAKE_LOG=log, PATH=bin_ + ":" + SYSBIN, TMPDIR=m)
    for k in ("LOADBENCH_SYSFS", "LOADBENCH_PARANOID"):
        env.pop(k, None)
    return env, m


class Run:
    def __init__(self, env, m, args=(), user=None):
        self.m = m
        self.out = os.path.join(m, "bundle")
        cmd = [HWCHECK, "--out", self.out] + list(args)
        if user:
            os.makedirs(self.out)
            shutil.chown(self.out, user)
            for dirpath, _, _ in os.walk(m):
                os.chmod(dirpath, os.stat(dirpath).st_mode | 0o755)
            shutil.chown(m, user)	# its TMPDIR
            cmd = ["runuser", "-u", user, "--", "env"] + ["%s=%s" % kv for kv in env.items()
                                                          if kv[0] != "HOME"] + cmd
            env = None
        t0 = time.time()
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=240)
        self.secs = time.time() - t0
        self.rc, self.stdout, self.stderr = p.returncode, p.stdout, p.stderr
        self.tar = self.out + ".tar.gz"
        try:
            with tarfile.open(self.tar) as tf:
                self.files = sorted(os.path.relpath(n, os.path.basename(self.out))
                                    for n in tf.getnames() if n != os.path.basename(self.out))
                self.summary = tf.extractfile(os.path.basename(self.out) + "/summary.txt").read().decode()
                self.json = json.load(tf.extractfile(os.path.basename(self.out) + "/hwcheck.json"))
        except (OSError, KeyError, ValueError, tarfile.TarError) as e:
            self.files, self.summary, self.json = [], "", {}
            self.err = str(e)

    def diag(self):
        return "rc %d\nstdout:\n%s\nstderr:\n%s\nfiles: %s" % (self.rc, self.stdout, self.stderr,
                                                               self.files)

    def line(self, prefix):
        return next((l for l in self.summary.splitlines() if l.startswith(prefix)), "")

    def step(self, name):
        return next((s for s in self.json.get("steps", []) if s["name"] == name), {})

    def calls(self, tool):
        try:
            with open(os.path.join(self.m, "log", tool + ".calls")) as f:
                return f.read().splitlines()
        except OSError:
            return []


def base_checks(r, what):
    ok(r.rc == 0 and r.json, "%s: exit 0, a bundle with hwcheck.json" % what, r.diag())
    ok(r.stdout == r.summary and len(r.summary.splitlines()) <= 24,
       "%s: the summary (at most 24 lines) is printed and in the bundle" % what, r.diag())
    want = {"summary.txt", "hwcheck.json", "hwcheck.log", "system.txt"}
    ok(want <= set(r.files), "%s: bundle has %s" % (what, " ".join(sorted(want))), r.files)
    ok(all(f in r.files for s in r.json.get("steps", []) for f in s["files"]),
       "%s: every file a step names is in the bundle" % what, r.json.get("steps"))
    ok(r.summary.rstrip().endswith("bundle: %s (send us this file)" % r.tar),
       "%s: the last line names the bundle" % what, r.summary)


# 1. this machine's case: no PMU, a paravirtual KVM
env, m = machine("nopmu-pvm", flags="fpu tsc msr sse2 hypervisor")
r = Run(env, m)
base_checks(r, "no PMU, kvm_pvm")
ok(r.line("PMU: none: ") and "has no cpu, cpu_core/cpu_atom or ibs_op, only: breakpoint software tracepoint" in r.summary
   and "a VM whose hypervisor gives it no virtual PMU" in r.summary,
   "no PMU: the summary says none, lists the PMUs there are, says it is a VM", r.summary)
ok(r.json.get("pmu", {}).get("present") is False and r.json["perf"]["can_sample_memory"] is False,
   "no PMU: hwcheck.json pmu.present and perf.can_sample_memory false", r.json.get("pmu"))
ok("memory sampling: no: no PMU (above); perf record -e cpu/mem-loads,ldlat=30/P: event syntax error: "
   "'cpu/mem-loads,ldlat=30/P' Cannot find PMU `cpu'. Missing kernel support?" in r.line("perf: "),
   "no PMU: the perf line gives perf's own words", r.line("perf: "))
ok(r.line("KVM: not usable: ") and "paravirtual KVM (module kvm_pvm)" in r.line("KVM: ")
   and r.json["kvm"]["usable"] is False, "kvm_pvm: KVM not usable, and why", r.summary)
ok(r.calls("qemu") == [] and r.step("kvm run").get("status") == "skip",
   "kvm_pvm: no QEMU started, the kvm run step skipped", r.calls("qemu"))
ok(r.step("loadbench --pebs all").get("status") == "skip"
   and r.step("loadbench --pebs all")["result"].startswith("no PMU: "),
   "no PMU: loadbench --pebs could not run, with loadbench's reason", r.step("loadbench --pebs all"))
ok({"preflight-all.txt", "perf-probe.txt", "loadbench-all.txt"} <= set(r.files)
   and r.step("preflight all").get("status") == "ok", "no PMU: preflight, perf probe and sweep ran",
   r.files)
ok("  loadbench --pebs all" in r.summary.split("could not run:")[-1]
   and "  kvm run " in r.summary.split("could not run:")[-1],
   "no PMU: 'could not run' lists loadbench --pebs and the kvm run", r.summary)
ok(r.calls("taskset") == [], "one core type: nothing pinned", r.calls("taskset"))

# 2. a PMU with mem-loads, a usable KVM (VT-x)
env, m = machine("pmu-kvm", pmus=("cpu",), kvm="intel", flags="fpu tsc msr vmx sse2")
r = Run(env, m)
base_checks(r, "PMU, KVM")
ok(r.line("PMU: cpu in ") and "memory events: cpu/mem-loads,ldlat=30/P" in r.summary
   and r.json["pmu"]["present"] is True, "PMU: named with its memory event", r.summary)
ok("memory sampling: yes: works: perf record -e cpu/mem-loads,ldlat=30/P; perf mem record" in r.line("perf: ")
   and r.json["perf"]["can_sample_memory"] is True, "PMU: perf can sample memory events",
   r.line("perf: "))
ok(any(c.startswith("record -e cpu/mem-loads,ldlat=30/P ") for c in r.calls("perf")),
   "PMU: perf record tried with the PMU's event", r.calls("perf"))
ok(r.step("loadbench --pebs all").get("status") == "ok" and "loadbench-pebs-all.json" in r.files
   and "PASS pass:1 fail:0 skip:0 total:1" in r.step("loadbench --pebs all")["result"],
   "PMU: loadbench --pebs ran, its log read by pebs-report --json", r.step("loadbench --pebs all"))
q = r.calls("qemu")
ok(len(q) == 1 and "-accel kvm -cpu host,pmu=on,host-cache-info=on,migratable=off" in q[0]
   and os.path.join(m, "build", "pebs-kernel.iso") in q[0], "KVM usable: one QEMU boot under KVM",
   q)
ok(r.step("kvm run").get("status") == "ok" and "PASS pass:1" in r.step("kvm run")["result"]
   and {"kvm-run.log", "kvm-run.json"} <= set(r.files), "KVM usable: the run's verdict, log, JSON",
   r.step("kvm run"))
ok(r.line("KVM: usable: ") and "opens read-write and the CPU has vmx" in r.summary,
   "KVM usable: says why", r.summary)
ok("could not run:\n  nothing" in r.summary, "PMU, KVM: nothing left out", r.summary)
if IS_ROOT:
    ok(r.line("MSRs: root, %s/cpu/0/msr present: the preflight reads" % os.path.join(m, "dev"))
       and r.calls("modprobe") == [], "root, /dev/cpu/0/msr present: MSRs read, no modprobe", r.summary)

# 3. hybrid: a preflight and loadbench run pinned to each core type's CPUs
env, m = machine("hybrid", pmus=("cpu_core", "cpu_atom"), hybrid=True, kvm="intel", flags="fpu vmx")
r = Run(env, m, ["--no-kvm"])
base_checks(r, "hybrid")
ok("hybrid: cpu_core CPUs 0; cpu_atom CPUs 1" in r.line("cpu: ") and r.json["host"]["hybrid"] is True,
   "hybrid: the core types and their CPUs", r.line("cpu: "))
ok({"preflight-cpu_core.txt", "preflight-cpu_atom.txt", "loadbench-cpu_core.txt",
    "loadbench-cpu_atom.txt", "loadbench-pebs-cpu_core.log", "loadbench-pebs-cpu_atom.log"}
   <= set(r.files), "hybrid: preflight, sweep and --pebs per core type", r.files)
ok(sorted(r.calls("taskset")) == sorted(["0 pebs-preflight", "1 pebs-preflight", "0 loadbench",
                                         "1 loadbench", "0 loadbench", "1 loadbench"]),
   "hybrid: each pinned with taskset -c to its type's CPUs", r.calls("taskset"))
ok(sum(c.startswith("record -e cpu_core/mem-loads,ldlat=30/P ") or
       c.startswith("record -e cpu_atom/mem-loads,ldlat=30/P ") for c in r.calls("perf")) == 2,
   "hybrid: perf record tried on cpu_core and cpu_atom", r.calls("perf"))
ok(r.step("kvm run").get("result", "").startswith("--no-kvm (KVM usable: ") and r.calls("qemu") == [],
   "--no-kvm: no QEMU, and the summary says why", r.step("kvm run"))

# 4. perf_event_paranoid for a user that is not root: 3 forbids, 2 lets it sample itself
user = "nobody" if IS_ROOT else None
for par, want in ((3, "memory sampling: no: no permission: perf_event_paranoid is 3: "
                      "perf_event_open refused to unprivileged users"),
                  (2, "memory sampling: yes: works: perf record -e cpu/mem-loads,ldlat=30/P")):
    env, m = machine("paranoid%d" % par, pmus=("cpu",), paranoid=par)
    r = Run(env, m, user=user)
    base_checks(r, "paranoid %d, not root" % par)
    ok(want in r.line("perf: ") and r.json["perf"]["blocks"] is (par == 3),
       "paranoid %d, not root: %s" % (par, want.split(": ", 1)[1][:40]), r.line("perf: "))
    ok(r.line("MSRs: not root: the preflight reads no MSR"), "paranoid %d, not root: MSRs not read, why"
       % par, r.summary)
    if par == 3:
        ok(r.step("loadbench --pebs all").get("result", "").startswith("no permission: "),
           "paranoid 3, not root: loadbench --pebs refused, with its reason",
           r.step("loadbench --pebs all"))

# 5. missing tools: no perf, no QEMU, no taskset on a hybrid CPU, the preflight not built
env, m = machine("missing", pmus=("cpu_core", "cpu_atom"), hybrid=True, kvm="intel",
                 flags="fpu vmx", tools=("modprobe",), preflight=False, msrdev=False)
r = Run(env, m)
base_checks(r, "missing tools")
miss = r.summary.split("missing here (nothing is installed by hwcheck):")[-1]
for tool in ("perf (Debian linux-perf", "qemu-system-x86_64 (package qemu-system-x86)",
             "taskset (util-linux)", os.path.join(m, "build/host/pebs-preflight (make)")):
    ok("\n  " + tool in miss, "missing tools: '%s' listed" % os.path.basename(tool.split(" (")[0]), r.summary)
ok(r.step("kvm run").get("result", "").startswith("no qemu-system-x86_64 on PATH (KVM usable: "),
   "missing QEMU: the kvm run could not run, and why", r.step("kvm run"))
ok(r.step("perf probe").get("result") == "no perf on PATH" and r.json["perf"]["version"] == "",
   "missing perf: the probe could not run", r.step("perf probe"))
ok(r.step("preflight").get("status") == "skip", "preflight not built: skipped with why",
   r.step("preflight"))
ok(r.step("loadbench --pebs cpu_core").get("status") == "ok"
   and r.step("loadbench --pebs cpu_atom").get("status") == "ok",
   "no taskset: loadbench still runs per core type (unpinned)", r.json.get("steps"))
if IS_ROOT:
    ok(r.calls("modprobe") == ["msr"] and "`modprobe msr` failed" in r.line("MSRs: "),
       "root without /dev/cpu/N/msr: modprobe msr tried, its failure reported", r.summary)
    env["HWCHECK_MODPROBE"] = "0"
    os.makedirs(m + "-nomod")
    r = Run(env, m + "-nomod")
    ok(r.calls("modprobe") == [] and Run.calls(r, "modprobe") == [] and "HWCHECK_MODPROBE=0" in r.line("MSRs: ")
       and open(os.path.join(m, "log", "modprobe.calls")).read() == "msr\n",
       "HWCHECK_MODPROBE=0: no modprobe", r.line("MSRs: "))

# 6. no /dev/kvm
env, m = machine("nokvm", kvm=None, flags="fpu vmx")
r = Run(env, m)
ok(r.rc == 0 and "KVM: not usable: %s/kvm does not exist" % os.path.join(m, "dev") in r.summary,
   "no /dev/kvm: not usable, and why", r.diag())

# 7. bad arguments
env, m = machine("args")
for args, want in ((["--budget", "x"], "--budget needs whole seconds >= 10"),
                   (["--frobnicate"], "unknown argument '--frobnicate'"),
                   (["--out"], "--out needs a folder")):
    p = subprocess.run([HWCHECK] + args, env=env, capture_output=True, text=True, timeout=30)
    ok(p.returncode == 2 and want in p.stderr, "bad arguments %s: exit 2, says why" % args,
       p.stderr)
os.makedirs(os.path.join(m, "full"))
write(os.path.join(m, "full", "x"), "x")
p = subprocess.run([HWCHECK, "--out", os.path.join(m, "full")], env=env, capture_output=True,
                   text=True, timeout=30)
ok(p.returncode == 2 and "exists and is not empty" in p.stderr, "--out not empty: refused", p.stderr)

# 8. one real run on this machine (no fakes): its summary agrees with this machine
ev = "/sys/bus/event_source/devices"
core = [p for p in ("cpu", "cpu_core", "cpu_atom", "ibs_op") if os.path.exists(os.path.join(ev, p, "type"))]
acc = subprocess.run([os.path.join(ROOT, "tests/boot/accel.sh"), "kvm"], capture_output=True, text=True)
env = {k: v for k, v in os.environ.items() if not k.startswith(("HWCHECK_", "LOADBENCH_"))}
env["HWCHECK_MODPROBE"] = "0"	# a test loads no module
env["HWCHECK_BUILD"] = os.path.join(ROOT, "build")
# a usable KVM would boot the whole ISO (up to 3 minutes): here only the decision is checked
os.makedirs(os.path.join(T, "real"))
r = Run(env, os.path.join(T, "real"), [] if acc.returncode else ["--no-kvm"])
base_checks(r, "real run")
ok(r.line("PMU: none: ") if not core else r.line("PMU: %s " % " ".join(core)),
   "real run: the PMU line agrees with %s (%s)" % (ev, " ".join(core) or "no core PMU"), r.summary)
ok(r.line("KVM: usable: " if acc.returncode == 0 else "KVM: not usable: ")
   and acc.stdout.split("\n", 1)[1].strip().replace("unusable: ", "") in r.line("KVM: "),
   "real run: the KVM line agrees with tests/boot/accel.sh", r.line("KVM: ") + "\n" + acc.stdout)
ok(r.json.get("wall_s", 999) < 60 or acc.returncode == 0,
   "real run: done in under a minute where there is no KVM run (%.1f s)" % r.secs, r.summary)
ok(os.path.isfile(os.path.join(ROOT, "build/host/pebs-preflight")) is
   (r.step("preflight all").get("status") == "ok" or r.step("preflight cpu_core").get("status") == "ok"),
   "real run: the preflight ran where it is built", r.json.get("steps"))

shutil.rmtree(T, ignore_errors=True)
done()
