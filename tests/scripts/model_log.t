#!/usr/bin/env python3
# model_log.t (issue 29 item 7): build/host/model-log, the way to see a PEBS run without PEBS
# hardware. Its header says the log is simulated; `--kernels all` covers every load kernel of
# the kernel's table in the table's order (load_l1..load_dram, load_lfb, load_store,
# load_stlb, load_remote, load_snoop, load_hitm; then load_cpus on the hybrid part), each with
# its PEBS step and the subtests the kernel gives it (loads/kpebs.c, ktests/load_special.c,
# load_remote.c, load_xcore.c); tools/pebs-report and the KTAP parsers read it cleanly; the
# default (`levels`) prints what it always printed.
import os
import re
import subprocess
import sys

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, "tests/scripts")
from taplib import done, ok  # noqa: E402

ML = "build/host/model-log"
table = open("ktests/table.c").read()
order = [n for n in re.findall(r'\.name = "(load_[a-z0-9_]+)"', table) if n != "load_curve"]
SUBS = {"load_lfb": ["pebs_overhead", "pebs_source", "chain_cycle", "chain_placement",
                     "lfb_rides_fill"],
        "load_store": ["pebs_overhead", "pebs_store", "chain_cycle", "chain_placement",
                       "store_off_path"],
        "load_stlb": ["pebs_overhead", "pebs_stlb", "chain_cycle", "chain_placement",
                      "walk_cost"],
        "load_remote": ["buffer_on_node", "pebs_overhead", "pebs_source", "pebs_remote",
                        "chain_cycle", "chain_placement", "remote_over_local"],
        "load_snoop": ["handshake_every_line", "values_from_helper", "xcore_slower_than_l1",
                       "pebs_source"],
        "load_hitm": ["handshake_every_line", "values_from_helper", "xcore_slower_than_l1",
                      "pebs_source"]}


def run(args):
    p = subprocess.run([ML] + args, capture_output=True, timeout=300)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


for cpu in ("haswell", "skylake", "icelake_sp", "sapphire_rapids", "alderlake"):
    rc, out, err = run(["--cpu", cpu, "--kernels", "all", "--seed", "3"])
    tops = re.findall(r"^(?:not )?ok \d+ (\S+)", out, re.M)
    want = [n for n in order if n != "load_cpus" or cpu == "alderlake"]
    ok(rc == 0 and tops == want and re.search(r"^1\.\.%d$" % len(want), out, re.M),
       "%s: every load kernel, in the table's order" % cpu, (rc, tops, want, err[-300:]))
    bad = []
    for k, subs in SUBS.items():
        blk = re.search(r"# Subtest: %s\n(.*?)^(?:not )?ok \d+ %s" % (k, k), out, re.S | re.M)
        got = re.findall(r"^  (?:not )?ok \d+ (\S+)", blk.group(1), re.M) if blk else None
        if got != subs:
            bad.append((k, got))
        if k not in ("load_snoop", "load_hitm") and blk and \
                not re.search(r"^  # %s: pebs event=(load|store) " % k, blk.group(1), re.M):
            bad.append((k, "no pebs line"))
    ok(not bad, "%s: each kernel's subtests as the kernel names them, with a PEBS step" % cpu,
       bad)
    ok(not re.search(r"^(  )?not ok ", out, re.M), "%s: every verdict passes (clean records)"
       % cpu, re.findall(r"^ *not ok .*$", out, re.M)[:5])
    path = "/tmp/model_log_t.%d.log" % os.getpid()
    with open(path, "w") as f:
        f.write(out)
    p = subprocess.run(["tools/pebs-report", path], capture_output=True, text=True)
    ok(p.returncode == 0 and not p.stderr and "CAVEAT: simulated: model-log" in p.stdout and
       "nothing was measured by PEBS" not in p.stdout and
       re.search(r"^  load_lfb +\S+ step8 ", p.stdout, re.M),
       "%s: pebs-report reads it: simulated, PEBS data, no complaint" % cpu,
       (p.returncode, p.stderr[-300:]))
    p = subprocess.run(["tests/scripts/ktap_check.py", path], capture_output=True, text=True)
    ok(p.returncode == 0, "%s: kunit.py and TAP::Parser read the same" % cpu, p.stdout[-300:])
    os.unlink(path)

# issue 31: Nova Lake's P-core (Coyote Cove) and E-core (Arctic Wolf) rows, arch PEBS, end to end
for cpu, uarch in (("nvl-p", "Nova Lake (Coyote Cove)"), ("nvl-e", "Nova Lake (Arctic Wolf)")):
    rc, out, err = run(["--cpu", cpu, "--seed", "3"])
    ok(rc == 0 and not err and "# pmu: uarch %s " % uarch in out and
       re.findall(r"^ok \d+ (\S+)", out, re.M) == ["load_l1", "load_l2", "load_l3", "load_dram"]
       and not re.search(r"^ *not ok ", out, re.M) and
       len(re.findall(r"^  # load_\w+: pebs event=load ", out, re.M)) == 4,
       "%s: %s, every load kernel's PEBS step passes" % (cpu, uarch), (rc, err[-300:]))

rc, out, err = run(["--cpu", "skylake"])
ok(rc == 0 and re.search(r"^# simulated: model-log, the PMU model of Skylake: .*no hardware ran "
                         r"this$", out, re.M) and
   re.findall(r"^ok \d+ (\S+)", out, re.M) == ["load_l1", "load_l2", "load_l3", "load_dram"],
   "default: load_l1..load_dram, marked simulated", out[:400])
rc, out, err = run(["--cpu", "zen3", "--kernels", "all"])
ok(rc == 2 and "Intel parts only" in err, "--kernels all on an IBS part: refused, exit 2", err)
done()
