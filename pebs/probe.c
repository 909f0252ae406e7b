/*
 * probe.c: probe before trusting (SDM Vol. 3B 20.2 "Architectural Performance Monitoring":
 * IA32_PERFEVTSELx, IA32_PMCx, IA32_FIXED_CTR_CTRL; SDM Vol. 4 MSR_PEBS_LD_LAT_THRESHOLD).
 * Enumeration (CPUID.0AH, IA32_PERF_CAPABILITIES) says what a PMU has, not that this kernel
 * owns it or that writes reach it. As Linux arch/x86/events/core.c check_hw_exists():
 *  - an IA32_PERFEVTSELx with EN[22] set, or a fixed counter enabled in IA32_FIXED_CTR_CTRL,
 *    before this kernel wrote either, belongs to firmware (SMM, a BMC agent): it is left
 *    alone (c->fw_gp, c->fw_fixed; "Broken BIOS detected ... the BIOS has corrupted hw-PMU
 *    resources") and a `# warning` names it; with every GP counter taken there is no PMU;
 *  - one free counter is written and read back: an emulator that accepts and drops PMU
 *    writes ("don't trap on the MSR access and always return 0s") has no usable PMU, and the
 *    reason names the register, what was written and what came back.
 * And as Linux arch/x86/events/intel/core.c check_msr(): MSR_PEBS_LD_LAT_THRESHOLD is written
 * and read back, since a hypervisor with ignore_msrs answers reads of an MSR it swallows.
 * Only _safe accessors; everything written is put back. Last, MSR_TSX_FORCE_ABORT for PMC3 on
 * Skylake-family parts (Q_TFA_PMC3; Linux intel_set_tfa), for pebs/config.c.
 */
#include "pebs/caps.h"
#include "pebs/msr.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"

#define PMC_PROBE_FLIP 0xffffull	/* Linux check_hw_exists(): val ^= 0xffff */
#define LDLAT_PROBE 0x123u		/* >= PEBS_LD_LAT_MIN, an unlikely reset value */

static uint32_t pmc_msr(const struct pebs_caps *c, unsigned i)
{
	return c->fw_write ? MSR_IA32_A_PMC(i) : MSR_IA32_PMC(i);
}

/* Firmware's counters: enabled before this kernel wrote any (0, or the fault vector). */
static int scan_firmware(struct pebs_caps *c)
{
	uint64_t v;
	int vec;

	for (unsigned i = 0; i < c->n_gp && i < 32; i++) {
		vec = rdmsr_safe(MSR_IA32_PERFEVTSEL(i), &v);
		if (vec)
			return vec;
		if (!(v & EVTSEL_EN))
			continue;
		if (!c->fw_gp)
			c->fw_msr = MSR_IA32_PERFEVTSEL(i), c->fw_val = v;
		c->fw_gp |= 1u << i;
	}
	if (c->version < 2 || !c->n_fixed)
		return 0;
	vec = rdmsr_safe(MSR_IA32_FIXED_CTR_CTRL, &v);
	if (vec)
		return vec;
	for (unsigned j = 0; j < c->n_fixed && j < 16; j++)
		if (v & (FIXED_CTRL_OS(j) | FIXED_CTRL_USR(j))) {
			if (!c->fw_gp && !c->fw_fixed)
				c->fw_msr = MSR_IA32_FIXED_CTR_CTRL, c->fw_val = v;
			c->fw_fixed |= 1u << j;
		}
	return 0;
}

void pebs_probe_hw(struct pebs_caps *c)
{
	uint32_t all = c->n_gp >= 32 ? ~0u : (1u << c->n_gp) - 1;
	uint64_t old, want, back = 0;
	unsigned i;
	int vec;

	if (!c->n_gp)
		return;
	vec = scan_firmware(c);
	if (vec) {
		fmt_snprintf(c->hw_why, sizeof(c->hw_why), "IA32_PERFEVTSEL/FIXED_CTR_CTRL: rdmsr "
			     "fault (vector %d)", vec);
		return;
	}
	if (!(all & ~c->fw_gp)) {
		fmt_snprintf(c->hw_why, sizeof(c->hw_why), "IA32_PERFEVTSEL0-%u all enabled by "
			     "firmware (EN[22]): no free counter", c->n_gp - 1u);
		return;
	}
	i = (unsigned)__builtin_ctz(all & ~c->fw_gp);
	vec = rdmsr_safe(pmc_msr(c, i), &old);
	/* legacy IA32_PMCx writes keep 32 bits, sign-extended (docs/hardware.md §8.3) */
	want = (old ^ PMC_PROBE_FLIP) & 0xffffffffull;
	if (!c->fw_write && (want & 0x80000000ull))
		want = (want ^ 0x80000000ull);
	if (!vec)
		vec = wrmsr_safe(pmc_msr(c, i), want);
	if (!vec)
		vec = rdmsr_safe(pmc_msr(c, i), &back);
	if (vec)
		fmt_snprintf(c->hw_why, sizeof(c->hw_why), "IA32_%sPMC%u: fault (vector %d)",
			     c->fw_write ? "A_" : "", i, vec);
	else if (back != want)
		fmt_snprintf(c->hw_why, sizeof(c->hw_why), "IA32_%sPMC%u <- 0x%llx read back 0x%llx: "
			     "counter writes dropped (emulated PMU)", c->fw_write ? "A_" : "", i,
			     (unsigned long long)want, (unsigned long long)back);
	if (!vec)
		(void)wrmsr_safe(pmc_msr(c, i), c->fw_write ? old : (old & 0x7fffffffull));
}

void pebs_probe_ldlat(struct pebs_caps *c)
{
	uint64_t old = 0, back = 0;
	int vec;

	c->ldlat_fault = rdmsr_safe(MSR_PEBS_LD_LAT_THRESHOLD, &old);
	if (c->ldlat_fault)
		return;
	c->ldlat_wrote = (old & PEBS_LD_LAT_MASK) == LDLAT_PROBE ? LDLAT_PROBE + 1 : LDLAT_PROBE;
	vec = wrmsr_safe(MSR_PEBS_LD_LAT_THRESHOLD, c->ldlat_wrote);
	if (!vec)
		vec = rdmsr_safe(MSR_PEBS_LD_LAT_THRESHOLD, &back);
	c->ldlat_back = back;
	c->ldlat_ignored = vec || (back & PEBS_LD_LAT_MASK) != c->ldlat_wrote;
	if (vec)
		fmt_snprintf(c->ldlat_why, sizeof(c->ldlat_why), "MSR_PEBS_LD_LAT_THRESHOLD <- 0x%x: "
			     "fault (vector %d) after a good read", c->ldlat_wrote, vec);
	else if (c->ldlat_ignored)
		fmt_snprintf(c->ldlat_why, sizeof(c->ldlat_why), "MSR_PEBS_LD_LAT_THRESHOLD <- 0x%x "
			     "read back 0x%llx: write ignored (hypervisor)", c->ldlat_wrote,
			     (unsigned long long)back);
	if ((old & PEBS_LD_LAT_MASK) >= PEBS_LD_LAT_MIN)	/* below 3 may not be written */
		(void)wrmsr_safe(MSR_PEBS_LD_LAT_THRESHOLD, old);
}

int pebs_probe_tfa(const struct pebs_caps *c, unsigned counter, char *err, size_t n)
{
	uint64_t v, back = 0, want = counter == 3 ? TFA_RTM_FORCE_ABORT : 0;
	int vec;

	if (!c->tfa || !c->uarch || !(c->uarch->quirks & Q_TFA_PMC3))
		return 0;
	vec = rdmsr_safe(MSR_TSX_FORCE_ABORT, &v);
	if (!vec && (v & TFA_RTM_FORCE_ABORT) == want)
		return 0;
	if (!vec)
		vec = wrmsr_safe(MSR_TSX_FORCE_ABORT, (v & ~TFA_RTM_FORCE_ABORT) | want);
	if (!vec)
		vec = rdmsr_safe(MSR_TSX_FORCE_ABORT, &back);
	if (!want)
		return 0;	/* PMC3 not used: clearing is a courtesy to TSX */
	if (vec)
		fmt_snprintf(err, n, "MSR_TSX_FORCE_ABORT: fault (vector %d): PMC3 stays with the "
			     "TSX microcode workaround", vec);
	else if (!(back & TFA_RTM_FORCE_ABORT))
		fmt_snprintf(err, n, "MSR_TSX_FORCE_ABORT <- 0x1 read back 0x%llx: PMC3 stays with "
			     "the TSX microcode workaround", (unsigned long long)back);
	else
		return 0;
	return -1;
}
