#!/usr/bin/env python3
# readme_sample.t (issue 29 item 11): the documentation of the log and of the reports keeps up
# with the code. README's sample log has the plan and top-level totals a default run has today
# (the tests of ktests/table.c that run without being named, as build/host/pebs-preflight
# plans them) and its header in the kernel's order; docs/output.md's titles cite no issue
# numbers; every key of a `pebs-report --json` document (one log, two logs) is in
# docs/output.md §7; the `# simulated:` header line is documented.
import json
import os
import re
import subprocess
import sys
import tempfile

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, "tests/scripts")
from taplib import done, ok  # noqa: E402

readme = open("README.md").read()
out_md = open("docs/output.md").read()
sample = re.search(r"```\nKTAP version 1\n(.*?)```", readme, re.S).group(1)

p = subprocess.run(["build/host/pebs-preflight", "--cpuid", "tests/fixtures/cpuid/skylake.txt"],
                   capture_output=True, text=True)
plan = [ln for ln in p.stdout.splitlines() if ln.startswith("# plan: ")]
default = [ln for ln in plan if "runs only when named" not in ln]
n = len(default)
ok(p.returncode == 0 and n > 10, "pebs-preflight plans %d default tests" % n, p.stderr)
ok(sample.startswith("1..%d\n" % n), "README sample: plan 1..%d" % n, sample[:20])
m = re.search(r"^# Top-level tests: pass:(\d+) fail:(\d+) skip:(\d+) total:(\d+)$", sample, re.M)
ok(m and int(m.group(4)) == n and sum(map(int, m.groups()[:3])) == n,
   "README sample: top-level totals add up to %d" % n, m and m.group(0))
m = re.search(r"^# Totals: pass:(\d+) fail:(\d+) skip:(\d+) total:(\d+)$", sample, re.M)
ok(m and sum(map(int, m.groups()[:3])) == int(m.group(4)), "README sample: totals add up")
# the header keys in the kernel's order: that of a recent QEMU boot log in the fixtures
boot = open("tests/fixtures/pebs-report/qemu-cpus.log", errors="replace").read()
order = []
for k in re.findall(r"^# ([a-z][a-z -]*?):", boot.split("  KTAP")[0], re.M):
    if k not in order:
        order.append(k)
keys = [k for k in re.findall(r"^# ([a-z][a-z -]*?):", sample.split("  KTAP")[0], re.M)
        if k in order]
ok(keys == sorted(keys, key=order.index) and len(keys) >= 10,
   "README sample: header lines in a boot log's order",
   (keys, order))
ok(re.search(r"^  # load_l1: (chain|time|pebs|lvl|hist) ", sample, re.M) and
   re.search(r"^  # load_l1: time unit=load tsc=\S+ ns=\S+ core=\S+ ws=\S+$", sample, re.M),
   "README sample: load_l1 lines in today's shapes (log=brief: the time line is unit, tsc, "
   "ns, core, ws)")

ok(not re.search(r"^#+ .*issue \d+", out_md, re.M | re.I), "docs/output.md: no issue numbers in titles",
   re.findall(r"^#+ .*issue \d+.*$", out_md, re.M | re.I))
ok("| `# simulated: <what>` |" in out_md, "docs/output.md: the # simulated: header line")

tmp = tempfile.mkdtemp(prefix="readme-sample.")
log = os.path.join(tmp, "m.log")
with open(log, "wb") as f:
    f.write(subprocess.run(["build/host/model-log", "--cpu", "skylake", "--dump", "raw"],
                           capture_output=True, check=True).stdout)
sec7 = out_md[out_md.index("## 7. `tools/pebs-report --json`"):]
doc = json.loads(subprocess.run(["tools/pebs-report", "--json", log], capture_output=True,
                                text=True).stdout)
missing = [k for k in doc if "`%s`" % k not in sec7]
ok(not missing, "docs/output.md §7: every top-level key of the --json document", missing)
kmiss = sorted({k for kd in doc["kernels"] for k in kd if "`%s`" % k not in sec7})
ok(not kmiss, "docs/output.md §7: every kernel key", kmiss)
two = json.loads(subprocess.run(["tools/pebs-report", "--json", log, log], capture_output=True,
                                text=True).stdout)
cmiss = [k for k in list(two) + list(two["compare"]) if "`%s`" % k not in sec7]
ok(not cmiss, "docs/output.md §7: every key of the two-log document", cmiss)
ok(doc["format"] == "pebs-report/1" and "(format `pebs-report/1`)" in sec7,
   "docs/output.md §7 names the format the tool prints")
done()
