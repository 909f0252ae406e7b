#!/usr/bin/env python3
# sol_capture.t: TAP tests of tools/sol-capture against a fake ipmitool (first on PATH) that
# records its arguments, answers `mc getsysinfo system_fw_version`, and for `sol activate`
# plays a pebs-kernel log (build/host/model-log) in chunks, then waits for ipmitool's `~.`
# escape like the real one: stops at `# EXIT`, the file's name and content, exit statuses
# 0/1/2/124, stale-session cleanup, power cycle / PXE order, password never on the command
# line, and `pebs-report --fleet` reading the capture (machine, BIOS).
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, "tests/scripts")
from taplib import done, ok  # noqa: E402
ROOT = os.getcwd()
tmp = tempfile.mkdtemp(prefix="sol-capture-t.")

FAKE = r"""#!/usr/bin/env bash
echo "$*" >>"$FAKE_CALLS"
case "$*" in
*"mc getsysinfo system_fw_version"*) [ -n "${FAKE_BIOS:-}" ] && echo "$FAKE_BIOS" || exit 1 ;;
*"sol activate"*)
	case $FAKE_SOL in
	fail) echo "Error: Unable to establish IPMI v2 / RMCP+ session" >&2; exit 1 ;;
	hang) head -c 300 "$FAKE_LOG" ;;
	*) printf '[SOL Session operational.  Use ~? for help]\r\n'
	   total=$(wc -c <"$FAKE_LOG")
	   for off in 0 1000 2000; do tail -c +$((off + 1)) "$FAKE_LOG" | head -c 1000; sleep 0.2; done
	   tail -c +3001 "$FAKE_LOG"
	   printf 'after the exit line\r\n' ;;
	esac
	read -r -t 60 -n 2 esc; echo "[terminated ipmitool]"; exit 0 ;;
esac
exit 0
"""



os.makedirs(tmp + "/bin")
with open(tmp + "/bin/ipmitool", "w") as f:
    f.write(FAKE)
os.chmod(tmp + "/bin/ipmitool", 0o755)
logs = {}
for name, args in (("pass", []), ("fail", ["--mix", "mixed"])):
    p = subprocess.run(["build/host/model-log", "--cpu", "skylake", "--seed", "5"] + args,
                       capture_output=True)
    if p.returncode:
        sys.exit(print("Bail out! build/host/model-log missing (`make host`)") or 1)
    logs[name] = tmp + "/%s.log" % name
    with open(logs[name], "wb") as f:
        f.write(p.stdout.replace(b"\n", b"\r\n"))


def cap(sol, log="pass", extra=(), env=None, name="rack1-node03"):
    d = tempfile.mkdtemp(dir=tmp)
    calls = d + "/calls"
    e = dict(os.environ, PATH=tmp + "/bin:" + os.environ["PATH"], FAKE_CALLS=calls,
             FAKE_SOL=sol, FAKE_LOG=logs[log], FAKE_BIOS="2.19.1 (03/14/2025)")
    e.pop("IPMI_PASSWORD", None)
    e.update(env or {})
    p = subprocess.run([ROOT + "/tools/sol-capture", "--name", name, "-H", "10.1.2.3", "-U",
                        "admin", "--dir", d + "/out"] + list(extra), env=e,
                       capture_output=True, timeout=120)
    files = glob.glob(d + "/out/*")
    c = open(calls).read().splitlines() if os.path.exists(calls) else []
    return p.returncode, p.stderr.decode(), files, c


rc, err, files, calls = cap("play", env={"IPMI_PASSWORD": "s3cret"})
ok(rc == 0, "passing run: exit 0", err)
ok(len(files) == 1 and re.match(r"^rack1-node03-\d{8}T\d{6}Z\.log$", os.path.basename(files[0])),
   "file name: machine name and UTC stamp", files)
data = open(files[0], "rb").read() if files else b""
src = open(logs["pass"], "rb").read()
first, _, rest = data.partition(b"\r\n")
ok(re.match(rb'^pebs-lab: machine=rack1-node03 bmc=10\.1\.2\.3 bios="2\.19\.1 \(03/14/2025\)" '
            rb'started=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$', first), "metadata line", first)
ok(src in rest and rest.endswith(src) or rest.index(src) >= 0 and b"# EXIT: STATUS=0" in rest,
   "the whole log is in the capture", rest[-200:])
ok(calls and calls[0].endswith("mc getsysinfo system_fw_version") and
   calls[1].endswith("sol deactivate") and calls[2].endswith("sol activate") and
   calls[-1].endswith("sol deactivate"), "stale session ended first, own session last", calls)
ok(all(" -E " in " %s " % c for c in calls) and not any("s3cret" in c for c in calls),
   "password from $IPMI_PASSWORD (-E), never on the command line", calls)
rc, out, _ = subprocess.run(["tools/pebs-report", "--fleet", os.path.dirname(files[0]),
                             "--json"], capture_output=True).returncode, None, None
doc = json.loads(subprocess.run(["tools/pebs-report", "--fleet", os.path.dirname(files[0]),
                                 "--json"], capture_output=True).stdout)
r = doc["machines"][0] if doc.get("machines") else {}
ok(r.get("machine") == "rack1-node03" and r.get("bios") == "2.19.1 (03/14/2025)" and
   r.get("status") == "pass" and r.get("bmc") == "10.1.2.3" and not r.get("damage"),
   "pebs-report --fleet reads the capture: machine, BIOS, BMC, verdict", r)

rc, err, files, calls = cap("play", "fail")
ok(rc == 1 and b"# EXIT: STATUS=1" in open(files[0], "rb").read(), "failing run: exit 1", err)
rc, err, files, calls = cap("hang", extra=["--timeout", "2"])
ok(rc == 124 and "no '# EXIT' line after 2s" in err and os.path.getsize(files[0]) > 300,
   "no EXIT line: exit 124 at the timeout, what came is kept", (rc, err))
rc, err, files, calls = cap("fail")
ok(rc == 2 and "Unable to establish IPMI v2" in err, "ipmitool fails: exit 2 with its message",
   (rc, err))
with open(tmp + "/pw", "w") as f:
    f.write("x\n")
rc, err, files, calls = cap("play", extra=["--power-cycle", "--pxe", "--password-file",
                                           tmp + "/pw"], env={"FAKE_BIOS": ""})
i = {k: next((j for j, c in enumerate(calls) if c.endswith(k)), -1)
     for k in ("sol activate", "chassis bootdev pxe", "chassis power cycle")}
ok(rc == 0 and 0 <= i["sol activate"] < i["chassis bootdev pxe"] < i["chassis power cycle"],
   "--power-cycle --pxe: SOL first, then bootdev pxe, then power cycle", calls)
ok(all("-f %s/pw" % tmp in c for c in calls), "--password-file goes to ipmitool -f", calls)
ok(b"bios=" not in open(files[0], "rb").readline(), "no BIOS line when the BMC does not know it")
rc, err, files, calls = cap("play", name="../etc")
ok(rc == 2 and not files and "--name" in err, "a name that is not a file name is refused",
   (rc, err))

shutil.rmtree(tmp)
done()
