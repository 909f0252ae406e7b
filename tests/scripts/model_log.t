#!/usr/bin/env python3
# model_log.t (issue 29 item 7): build/host/model-log, the way to see a PEBS run without PEBS
# hardware. Its header says the log is simulated; `--kernels all` covers every load kernel of
# the kernel's table in the table's order (load_l1..load_dram, load_lfb, load_store,
# load_stlb, load_remote, load_snoop, load_hitm; then load_cpus on the hybrid part), each with
# its PEBS step and the subtests the kernel gives it (loads/kpebs.c, ktests/load_special.c,
# load_remote.c, load_xcore.c); tools/pebs-report and the KTAP parsers read it cleanly; the
# default (`levels`) prints what it always printed; `--kernels loaded` adds load_loaded (issue
# 32) with one line per step of the delay sweep and its verdicts passing over the model. On
# zen3/zen4 the same kernels run their step through IBS (LFB, store, STLB from the DTLB-miss
# bits, remote from RmtNode) and load_snoop/load_hitm SKIP theirs as loads/xcore_pebs.c does on
# an IBS part.
import os
import re
import subprocess
import sys

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, "tests/scripts")
from taplib import done, ok  # noqa: E402

ML = "build/host/model-log"
table = open("ktests/table.c").read()
order = [n for n in re.findall(r'\.name = "(load_[a-z0-9_]+)"', table)
         if n not in ("load_curve", "load_loaded", "load_matrix", "load_c2c")]	# on request
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


for cpu in ("haswell", "skylake", "icelake_sp", "sapphire_rapids", "alderlake", "zen3", "zen4"):
    rc, out, err = run(["--cpu", cpu, "--kernels", "all", "--seed", "3"])
    tops = re.findall(r"^(?:not )?ok \d+ (\S+)", out, re.M)
    want = [n for n in order if n != "load_cpus" or cpu == "alderlake"]
    ok(rc == 0 and tops == want and re.search(r"^1\.\.%d$" % len(want), out, re.M),
       "%s: every load kernel, in the table's order" % cpu, (rc, tops, want, err[-300:]))
    bad = []
    for k, subs in SUBS.items():
        if cpu.startswith("zen") and k not in ("load_snoop", "load_hitm"):
            subs = [n.replace("pebs_", "ibs_") for n in subs]	# the IBS step's own names
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
    if cpu.startswith("zen"):   # the IBS path of the other kernels (loads/kibs_report.c)
        want = [r"^  ok \d+ ibs_source # LFB/MAB hit [\d.]+% >= 40%",
                r"^  ok \d+ ibs_store # SKIP IBS path: store samples are not judged",
                r"^  ok \d+ ibs_stlb # STLB miss 100\.0% of \d+",
                r"^  ok \d+ ibs_remote # remote [\d.]+% >= 50%, of \d+ \(IbsOpData2 RmtNode\)",
                r"^  ok \d+ pebs_source # SKIP the cross-core step samples through PEBS only "
                r"\(loads/xcore_pebs\.c\): CPU vendor AMD"]
        ok(all(re.search(w, out, re.M) for w in want) and
           len(re.findall(r"PEBS only \(loads/xcore_pebs", out)) == 2,
           "%s: LFB, store, STLB and remote through IBS; snoop/HITM SKIP as the kernel does" % cpu,
           [w for w in want if not re.search(w, out, re.M)])

# issue 31: Nova Lake's P-core (Coyote Cove) and E-core (Arctic Wolf) rows, arch PEBS, end to end
for cpu, uarch in (("nvl-p", "Nova Lake (Coyote Cove)"), ("nvl-e", "Nova Lake (Arctic Wolf)")):
    rc, out, err = run(["--cpu", cpu, "--seed", "3"])
    ok(rc == 0 and not err and "# pmu: uarch %s " % uarch in out and
       re.findall(r"^ok \d+ (\S+)", out, re.M) == ["load_l1", "load_l2", "load_l3", "load_dram"]
       and not re.search(r"^ *not ok ", out, re.M) and
       len(re.findall(r"^  # load_\w+: pebs event=load ", out, re.M)) == 4,
       "%s: %s, every load kernel's PEBS step passes" % (cpu, uarch), (rc, err[-300:]))
    # the store-latency codes of the Panther Cove / Arctic Wolf tables: pebs_store judged
    rc, out, err = run(["--cpu", cpu, "--kernels", "all", "--seed", "3"])
    blk = re.search(r"# Subtest: load_store\n(.*?)^(?:not )?ok \d+ load_store", out, re.S | re.M)
    got = re.findall(r"^  (?:not )?ok \d+ (\S+)", blk.group(1), re.M) if blk else None
    ok(rc == 0 and got == SUBS["load_store"] and
       re.search(r"^  ok \d+ pebs_store # L1 hit 9\d\.\d% of \d+, needs >= 80%$", blk.group(1), re.M),
       "%s --kernels all: load_store's PEBS step runs, pebs_store judged (L1 hit share)" % cpu,
       (rc, got, err[-300:]))

# Lion Cove (lnl-p: format 6, timed PEBS) and the arch-PEBS rows, --kernels all: every
# cross-core step judged. Lion Cove's only clean cross-core hit is 0CH "L3 Hit Snoop Fwd" (Linux
# ds.c lnc_pebs_data_source), which load_snoop counts (loads/xcore_expect.c: Hit or Fwd), so the
# feed must draw it; its table has no remote code at all (one-socket parts: Lunar Lake, Arrow
# Lake), so load_remote SKIPs as on such a machine, naming the table. Panther Cove's and Arctic
# Wolf's remote codes are OMR codes above FFH (pebs/datasrc.h PEBS_DSRC_CODES): pebs_remote
# judged, not SKIPped for a table that seemed to have none.
XSRC = r"^  ok 4 pebs_source # \d+ of (\d+) records from another core's cache are %s "
for cpu in ("lnl-p", "nvl-p", "nvl-e"):
    rc, out, err = run(["--cpu", cpu, "--kernels", "all", "--seed", "3"])
    tops = re.findall(r"^(?:not )?ok \d+ (\S+)", out, re.M)
    ok(rc == 0 and not err and tops == [n for n in order if n != "load_cpus"] and
       not re.search(r"^ *not ok ", out, re.M) and "no such data source" not in out,
       "%s --kernels all: every load kernel, no verdict fails, none SKIPs for want of a code"
       % cpu, (rc, tops, re.findall(r"^ *(?:not ok|ok .*# SKIP).*$", out, re.M)[:4]))
    ok(re.search(XSRC % "Hit or Fwd", out, re.M) and re.search(XSRC % "HitM", out, re.M),
       "%s: load_snoop and load_hitm judge their PEBS step" % cpu,
       re.findall(r"^  ok \d+ pebs_source .*$", out, re.M)[-2:])
    if cpu == "lnl-p":
        rem = r"^ok 8 load_remote # SKIP one NUMA node: data-source table lnc has no remote code"
    else:   # Panther Cove / Arctic Wolf: remote is bit 4 of the OMR codes, 100H..1FFH
        rem = r"^  ok 4 pebs_remote # remote [\d.]+% >= 50%, of \d+ \(codes 112H .* \+\d+, table"
    ok(re.search(rem, out, re.M), "%s: load_remote %s" % (cpu, "SKIPs naming the table" if
       cpu == "lnl-p" else "judges pebs_remote"), re.findall(r"^.*(?:load_remote|pebs_remote) .*$",
                                                              out, re.M)[-1:])

# issue 31: the retire-latency and counter-snapshot verdicts through the kernel's own code
# (loads/kpebs_judge.c), where the records carry them: timed PEBS on Lion Cove's format 6
# (lnl-p: IA32_PERF_CAPABILITIES[17]) and arch PEBS (nvl-p, nvl-e); each knob of the PMU model
# that breaks its field fails its verdict at every level.
RET = r"^  (not )?ok \d+ pebs_latency # p50 \d+ vs [\d.]+ core/load, band \d+\.\.\d+; retire p50 (\d+) "
CNT = r"^  (not )?ok 2 pebs_counters # "
for cpu in ("lnl-p", "nvl-p", "nvl-e"):
    rc, out, err = run(["--cpu", cpu, "--seed", "3", "--pebs-counters", "on"])
    got, cnt = re.findall(RET, out, re.M), re.findall(CNT, out, re.M)
    ok(rc == 0 and len(got) == 4 and not any(g[0] for g in got) and
       [int(g[1]) for g in got] == [5, 15, 60, 295],
       "%s: pebs_latency judges the retire latency at every level, passing" % cpu, got)
    ok(rc == 0 and len(cnt) == 4 and not any(cnt) and
       len(re.findall(r"^  # load_\w+: counters (L1|L2|L3|RAM) windows=\d+ cycles/window=\d+$",
                      out, re.M)) >= 4,
       "%s --pebs-counters on: counters lines and pebs_counters at every level, passing" % cpu,
       (cnt, err[-300:]))
    # both knobs at once: each breaks only its own field, so each fails only its own verdict
    rc, out, err = run(["--cpu", cpu, "--seed", "3", "--pebs-counters", "on", "--retire-pct",
                        "30", "--snap-skew", "1000"])
    got, cnt = re.findall(RET, out, re.M), re.findall(CNT, out, re.M)
    ok(rc == 0 and len(got) == 4 and all(g[0] for g in got) and
       re.search(r"^  not ok \d+ pebs_latency # p50 5 vs [\d.]+ core/load, band 2\.\.\d+; retire p50 1 ",
                 out, re.M),
       "%s --retire-pct 30: retire latencies at 30 %% of the load's fail pebs_latency" % cpu,
       re.findall(r"^ *(?:not )?ok \d+ pebs_latency .*$", out, re.M))
    ok(rc == 0 and len(cnt) == 4 and all(cnt),
       "%s --snap-skew 1000: snapshots that are not the counter fail pebs_counters" % cpu, cnt)
# Redwood Cove rows with timed PEBS: Granite Rapids-X (gnr: format 4, no aux event, skl-pmem
# table) and Meteor Lake's P-core (mtl-p: format 5, hybrid core type 0x40, skl table): every
# load kernel end to end with the kernel's verdicts, the retire latency judged at every level;
# the knob --retire-pct fails pebs_latency at every level.
for cpu, uarch, fmt, dsrc in (("gnr", "Granite Rapids", 4, "skl-pmem"),
                              ("mtl-p", "Redwood Cove (MTL P)", 5, "skl")):
    rc, out, err = run(["--cpu", cpu, "--kernels", "all", "--seed", "3"])
    tops = re.findall(r"^(?:not )?ok \d+ (\S+)", out, re.M)
    got = re.findall(RET, out, re.M)
    ok(rc == 0 and not err and tops == [n for n in order if n != "load_cpus"] and
       re.search(r"^# pmu: uarch %s pebs_gp 0xff ll_event 0x01cd/0xfe store 0x02cd/0x1 aux "
                 r"0x0000 dsrc %s " % (re.escape(uarch), dsrc), out, re.M) and
       re.search(r"^# pmu: IA32_PERF_CAPABILITIES \S+ pebs_fmt %d .* timing 1 " % fmt, out, re.M)
       and not re.search(r"^ *not ok |# SKIP", out, re.M) and
       [int(g[1]) for g in got] == [5, 15, 60, 295] and not any(g[0] for g in got),
       "%s --kernels all: %s, every kernel passes, retire latency judged at every level"
       % (cpu, uarch), (rc, tops, got, re.findall(r"^ *not ok .*$", out, re.M)[:3], err[-300:]))
    rc, out, err = run(["--cpu", cpu, "--seed", "3", "--retire-pct", "30"])
    got = re.findall(RET, out, re.M)
    ok(rc == 0 and len(got) == 4 and all(g[0] for g in got) and
       [int(g[1]) for g in got] == [1, 4, 18, 89],
       "%s --retire-pct 30: retire latencies at 30 %% of the load's fail pebs_latency" % cpu, got)
rc, out, err = run(["--cpu", "skylake", "--seed", "3"])
ok(rc == 0 and "pebs_counters" not in out and "retire p50" not in out,
   "skylake (format 3, no timing info): neither verdict, as on the kernel", "")
rc, out, err = run(["--cpu", "zen4", "--retire-pct", "30"])
ok(rc == 2 and "Intel parts only" in err, "the PMU model's knobs on an IBS part: refused", err)

rc, out, err = run(["--cpu", "skylake"])
ok(rc == 0 and re.search(r"^# simulated: model-log, the PMU model of Skylake: .*no hardware ran "
                         r"this$", out, re.M) and
   re.findall(r"^ok \d+ (\S+)", out, re.M) == ["load_l1", "load_l2", "load_l3", "load_dram"],
   "default: load_l1..load_dram, marked simulated", out[:400])
rc, out, err = run(["--cpu", "sapphire_rapids", "--kernels", "loaded", "--seed", "5"])
steps = re.findall(r"^  # load_loaded: step (\d+) delay=(\S+) bw=([0-9.]+)GB/s lat=([0-9.]+)ns "
                   r"core=\S+ p50=(\d+) p99=(\d+) n=(\d+) src (\S+)$", out, re.M)
lat = [float(s[3]) for s in steps]
ok(rc == 0 and re.findall(r"^ok \d+ (\S+)", out, re.M)[-1:] == ["load_loaded"] and
   len(steps) >= 8 and steps[0][1] == "0" and steps[-1][1] == "idle" and
   float(steps[-1][2]) == 0 and lat[0] > 2 * lat[-1] and int(steps[0][4]) > int(steps[-1][4]) and
   all("RAM=" in s[7] for s in steps) and not re.search(r"^ *not ok ", out, re.M) and
   re.findall(r"^  ok \d+ (\S+)", out.split("Subtest: load_loaded")[-1], re.M) ==
   ["injectors_ran", "steps_printed", "samples_accounted", "curve_monotone", "idle_is_dram"],
   "--kernels loaded: load_loaded, every step a line, the curve rising with bandwidth, p50 too, "
   "verdicts pass", (rc, steps[:3], err[-300:]))
rc, out, err = run(["--cpu", "zen3", "--kernels", "loaded"])
ok(rc == 2 and "Intel parts only" in err, "--kernels loaded on an IBS part: refused, exit 2", err)
rc, out, err = run(["--cpu", "zen4", "--kernels", "all", "--seed", "3"])
rc2, out2, err2 = run(["--cpu", "zen4", "--kernels", "all", "--seed", "3"])
ok(rc == 0 and out == out2, "zen4 --kernels all: the same seed, the same log", err)

# --kernels matrix (issue 30): load_matrix and load_c2c over the model's topology, with the
# kernel's lines and verdicts (loads/latmatrix_judge.c); a remote cell faster than local FAILs.
MSUBS = {"load_matrix": ["matrix_complete", "buffer_on_node", "chain_cycle", "rows_cover_nodes",
                         "remote_over_local", "order_slit", "order_hmat", "dsrc_remote"],
         "load_c2c": ["coverage", "snoop_complete", "snoop_order", "snoop_dsrc", "hitm_complete",
                      "hitm_order", "hitm_dsrc"]}
for topo, rows, cols in (("2s", 2, 2), ("2s-snc2-cxl", 4, 5), ("2s-512", 6, 6)):
    rc, out, err = run(["--cpu", "sapphire_rapids", "--kernels", "matrix", "--topo", topo])
    tops = re.findall(r"^(?:not )?ok \d+ (\S+)", out, re.M)
    subs = {k: re.findall(r"^  (?:not )?ok \d+ (\S+)", re.search(
        r"# Subtest: %s\n(.*?)^(?:not )?ok \d+ %s" % (k, k), out, re.S | re.M).group(1), re.M)
        for k in MSUBS} if rc == 0 else None
    ok(rc == 0 and tops[4:] == ["load_matrix", "load_c2c"] and subs == MSUBS and
       not re.search(r"^ *not ok ", out, re.M),
       "%s: load_matrix and load_c2c after the levels, the kernel's subtests, all pass" % topo,
       (rc, tops, subs, re.findall(r"^ *not ok .*$", out, re.M)[:3], err[-300:]))
    rl = re.findall(r"^  # load_matrix: from node (\d+) \(cpu \d+\):((?: \d+)+) ns \(dsrc(.*)\)$",
                    out, re.M)
    ok(len(rl) == rows and all(len(r[1].split()) == cols == len(r[2].split()) for r in rl) and
       "R-DRAM" in rl[0][2] and all("-" not in r[2].split() for r in rl),
       "%s: %d x %d node matrix, one line per row, every cell's data source" %
       (topo, rows, cols), rl)
    cl = re.findall(r"^  # load_c2c/hitm: from cpu \d+:((?: -| \d+)+) ns", out, re.M)
    ok(len(cl) == 16 and all(len(c.split()) == 16 for c in cl) and
       all(ord(ch) < 128 for ch in out),
       "%s: 16 x 16 HITM matrix, ASCII only" % topo, cl[:2])
    if topo == "2s-snc2-cxl":
        ok("SNC-DRAM" in rl[0][2] and re.search(r"^  # load_matrix: columns node 0 1 2 3 4; "
                                              r"package 0 0 1 1 -$", out, re.M),
           "SNC neighbour labelled SNC-DRAM, the CXL node memory-only", rl[0])
rc, out, err = run(["--cpu", "lnl-p", "--kernels", "matrix", "--seed", "3"])
ok(rc == 0 and re.search(r"^  ok \d+ snoop_dsrc # \d+ cells, each's records Hit or Fwd$", out, re.M),
   "lnl-p --kernels matrix: load_c2c's snoop cells drawn from 0CH (Fwd), snoop_dsrc judged",
   re.findall(r"^  .*snoop_dsrc.*$", out, re.M))
rc, out, err = run(["--cpu", "sapphire_rapids", "--kernels", "matrix", "--remote-faster", "30"])
ok(rc == 0 and re.search(r"^  not ok \d+ remote_over_local # from node 1: node 0 \S+ ns < 90% "
                         r"of local ", out, re.M) and re.search(r"^not ok 5 load_matrix", out, re.M),
   "--remote-faster 30: a remote cell faster than local FAILs remote_over_local",
   re.findall(r"^ *not ok .*$", out, re.M))
rc, out, err = run(["--cpu", "zen4", "--kernels", "matrix"])
ok(rc == 2 and "Intel parts only" in err, "--kernels matrix on an IBS part: refused", err)
rc, out, err = run(["--cpu", "skylake", "--kernels", "matrix", "--topo", "4s"])
ok(rc == 2 and "--topo 4s: want 2s|2s-snc2-cxl|2s-512" in err, "an unknown --topo: exit 2", err)
done()
