"""runkind.py: what a log's numbers are worth. A run was measured on a CPU (bare metal), on a
virtual CPU under hardware virtualisation (KVM & co.: real caches, the host's noise), under
software emulation (QEMU TCG: no cache timing at all) or simulated (tools/model-log: the PMU
model's records and synthesized timing, no machine at all: the `# simulated:` header line,
docs/output.md). Every report (summary, comparison, plots, --fleet) asks here, so a simulated
or emulated run is never read as a real machine's. Also: did PEBS (or IBS) measure anything?"""


def _env(doc):
    return {e["key"]: e["value"] for e in doc.get("environment", [])}


def kind(doc):
    """{"kind": "simulated"|"emulated"|"virtualised"|"hardware"|"unknown", "why": str}."""
    env = _env(doc)
    hyp = doc.get("hypervisor") or env.get("hypervisor") or ""
    timing = env.get("timing") or ""
    if "simulated" in env:
        return {"kind": "simulated", "why": "simulated: %s" % env["simulated"]}
    if "software emulation" in hyp or "software emulation" in timing or "TCGTCG" in hyp \
            or "QEMU TCG" in hyp:
        return {"kind": "emulated", "why": "software emulation (%s): no cache timing, every "
                "latency is the emulator's" % (hyp.split(":")[0].strip() or "QEMU TCG")}
    if hyp:
        return {"kind": "virtualised", "why": "under a hypervisor (%s): timings include the "
                "host's noise" % hyp.split(":")[0].strip()}
    if "tests" not in doc or not doc.get("environment"):
        return {"kind": "unknown", "why": "no environment header"}
    return {"kind": "hardware", "why": ""}


def not_a_machine(doc):
    """True for a simulated or software-emulated run: its figures are not a machine's."""
    return kind(doc)["kind"] in ("simulated", "emulated")


def caveat(doc):
    """One line for a run whose figures need a caveat, else None."""
    k = kind(doc)
    return k["why"] if k["kind"] in ("simulated", "emulated", "virtualised") else None


def pebs_records(doc):
    """PEBS/IBS records behind the run's per-level tables: the `pebs` lines' counts, else the
    printed and decoded tables' counts."""
    n = 0
    for k in doc.get("kernels", []):
        p = k.get("pebs") or {}
        if p.get("records"):
            n += p["records"]
        elif k.get("levels"):
            n += sum(lv.get("count") or 0 for lv in k["levels"])
        elif (k.get("decoded") or {}).get("levels"):
            n += sum(lv.get("count") or 0 for lv in k["decoded"]["levels"])
    return n


def has_data(doc):
    """Has the log any result at all (a test, a timing line)?"""
    return bool(doc.get("tests")) or bool(doc.get("kernels"))
