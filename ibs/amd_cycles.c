/*
 * amd_cycles.c: the core clock on AMD (see amd_cycles.h). Order: the highest legacy core
 * counter whose PerfEvtSel has En[22] clear (a set one is firmware's, left alone as the Intel
 * path leaves firmware's counters) programmed with PMCx076 in ring 0 and 3 (APM Vol. 2
 * "Performance Monitoring Counters", PerfEvtSel fields EventSelect[7:0], Usr[16], Os[17],
 * En[22]); else IA32_APERF where CPUID 06H:ECX[0] (EffFreq) says it exists. A choice is kept
 * only when the select reads back as written and the count moves across a few RDTSCs. The
 * reasons are short: the `# core clock: none (...)` line stays within 100 bytes.
 */
#include "ibs/amd_cycles.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"

#include <string.h>

#define WANT (AMD_EVENT_CYCLES | AMD_PERF_CTL_USR | AMD_PERF_CTL_OS | AMD_PERF_CTL_EN)

/* Does msr count across a few RDTSCs (each a few dozen core clocks)? */
static bool moves(uint32_t msr)
{
	uint64_t a = 0, b = 0;

	if (rdmsr_safe(msr, &a))
		return false;
	for (unsigned i = 0; i < 16; i++)
		(void)rdtsc();
	return !rdmsr_safe(msr, &b) && b != a;
}

static int try_pmc(struct amd_cycles *ac, char *why, size_t n)
{
	uint64_t found = 0, back = 0;
	int v;
	unsigned i;

	for (i = AMD_N_LEGACY_PMC; i-- > 0;) {
		v = rdmsr_safe(MSR_AMD_PERF_CTL(i), &found);
		if (v) {
			fmt_snprintf(why, n, "PerfEvtSel%u #GP (%d)", i, v);
			return -1;
		}
		if (!(found & AMD_PERF_CTL_EN))
			break;
	}
	if (i >= AMD_N_LEGACY_PMC) {
		fmt_snprintf(why, n, "PerfEvtSel0-3 all firmware's");
		return -1;
	}
	v = wrmsr_safe(MSR_AMD_PERF_CTL(i), WANT);
	if (v) {
		fmt_snprintf(why, n, "PerfEvtSel%u write #GP (%d)", i, v);
		return -1;
	}
	if (rdmsr_safe(MSR_AMD_PERF_CTL(i), &back) || back != WANT) {
		fmt_snprintf(why, n, "PerfEvtSel%u not kept", i);
	} else if (!moves(MSR_AMD_PERF_CTR(i))) {
		fmt_snprintf(why, n, "PerfCtr%u not counting", i);
	} else {
		ac->src = AMD_CYC_PMC;
		ac->pmc = i;
		fmt_snprintf(ac->name, sizeof(ac->name), "PerfCtr%u (PMCx076 CPU clocks not halted)",
			     i);
		return 0;
	}
	(void)wrmsr_safe(MSR_AMD_PERF_CTL(i), found);	/* as found */
	return -1;
}

static int try_aperf(struct amd_cycles *ac, const struct cpu_info *ci, char *why, size_t n)
{
	struct cpuid_regs r = { 0 };

	if (ci->max_leaf >= 6)
		cpuid_count(6, 0, &r);
	if (!(r.ecx & 1)) {
		fmt_snprintf(why, n, "CPUID 06H:ECX[0] = 0");
		return -1;
	}
	if (!moves(AMD_MSR_APERF)) {
		fmt_snprintf(why, n, "APERF not counting");
		return -1;
	}
	ac->src = AMD_CYC_APERF;
	fmt_snprintf(ac->name, sizeof(ac->name), "IA32_APERF (C0 core clocks, CPUID 06H:ECX[0])");
	return 0;
}

int amd_cycles_init(struct amd_cycles *ac, const struct cpu_info *ci)
{
	char pmc[64], aperf[48];

	memset(ac, 0, sizeof(*ac));
	if (ci->vendor != VENDOR_AMD) {
		fmt_snprintf(ac->err, sizeof(ac->err), "CPU vendor %s: not AMD",
			     cpu_vendor_name(ci->vendor));
		return -1;
	}
	if (!ci->msr) {
		fmt_snprintf(ac->err, sizeof(ac->err), "CPUID.01H:EDX[5] (MSR) = 0");
		return -1;
	}
	if (!try_pmc(ac, pmc, sizeof(pmc)) || !try_aperf(ac, ci, aperf, sizeof(aperf)))
		return 0;
	fmt_snprintf(ac->err, sizeof(ac->err), "%s; %s", pmc, aperf);
	return -1;
}

void amd_cycles_header_line(const struct amd_cycles *ac, int rc, char *b, size_t n)
{
	if (rc == 0)
		fmt_snprintf(b, n, "core clock: %s", ac->name);
	else
		fmt_snprintf(b, n, "core clock: none (%s); TSC only, TSC != core clock", ac->err);
}

uint64_t amd_cycles_read(void *ctx)
{
	struct amd_cycles *ac = ctx;
	uint64_t v = 0, sel = 0;

	if (ac->fault || ac->src == AMD_CYC_NONE)
		return 0;
	if (ac->src == AMD_CYC_APERF) {
		ac->fault = rdmsr_safe(AMD_MSR_APERF, &v);
		return ac->fault ? 0 : v;
	}
	ac->fault = rdmsr_safe(MSR_AMD_PERF_CTL(ac->pmc), &sel);
	if (!ac->fault && sel != WANT)	/* stopped by someone: on again */
		ac->fault = wrmsr_safe(MSR_AMD_PERF_CTL(ac->pmc), WANT);
	if (!ac->fault)
		ac->fault = rdmsr_safe(MSR_AMD_PERF_CTR(ac->pmc), &v);
	return ac->fault ? 0 : v;
}
