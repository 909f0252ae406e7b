/*
 * cycles.c: the core-cycle counter behind kload_set_core_clock (see cycles.h). Fixed counter 1
 * counts CPU_CLK_UNHALTED.CORE in ring 0 and 3 (IA32_FIXED_CTR_CTRL bits 7:4, global enable
 * GLOBAL_CTRL[33], SDM Vol. 3B 20.2.2); the fallback is a GP counter with event 0x3C umask 0
 * (SDM Table 20-1). Every MSR access is _safe: a fault disables the counter, reported once.
 */
#include "pebs/cycles.h"
#include "pebs/msr.h"
#include "pebs/msr_note.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"

#include <string.h>

#define CORE_CYCLES_EVENT 0x003c	/* UnHalted Core Cycles, CPUID.0AH:EBX[0] */

static int wr(struct pmu_cycles *pc, uint32_t msr, uint64_t v)
{
	return msr_note_write(&pc->fault, pc->err, sizeof(pc->err), msr, v);
}

static int rd(struct pmu_cycles *pc, uint32_t msr, uint64_t *v)
{
	return msr_note_read(&pc->fault, pc->err, sizeof(pc->err), msr, v);
}

/* Enable the counter if someone stopped it; leaves everything else as it found it. */
static int ensure_on(struct pmu_cycles *pc)
{
	uint64_t v, glob = 0, bit = pc->fixed ? GLOBAL_FIXED(1) : 1ull << pc->gp;
	bool v2 = pc->caps->version >= 2;

	if (v2 && rd(pc, MSR_IA32_PERF_GLOBAL_CTRL, &glob))
		return -1;
	if (pc->fixed) {
		uint64_t want = FIXED_CTRL_OS(1) | FIXED_CTRL_USR(1);

		if (rd(pc, MSR_IA32_FIXED_CTR_CTRL, &v))
			return -1;
		if ((v & 0xf0) != want && wr(pc, MSR_IA32_FIXED_CTR_CTRL, (v & ~0xf0ull) | want))
			return -1;
	} else {
		uint64_t want = CORE_CYCLES_EVENT | EVTSEL_OS | EVTSEL_USR | EVTSEL_EN;

		if (rd(pc, MSR_IA32_PERFEVTSEL(pc->gp), &v))
			return -1;
		if (v != want && wr(pc, MSR_IA32_PERFEVTSEL(pc->gp), want))
			return -1;
	}
	if (v2 && !(glob & bit) && wr(pc, MSR_IA32_PERF_GLOBAL_CTRL, glob | bit))
		return -1;
	return 0;
}

void pmu_cycles_header_line(const struct pmu_cycles *pc, int rc, char *b, size_t n)
{
	if (rc == 0)
		fmt_snprintf(b, n, "core clock: %s", pc->name);
	else
		fmt_snprintf(b, n, "core clock: none (%s); TSC only, TSC != core clock", pc->err);
}

int pmu_cycles_init(struct pmu_cycles *pc, const struct pebs_caps *c)
{
	const char *why;
	uint32_t gp_free;

	memset(pc, 0, sizeof(*pc));
	pc->caps = c;
	if (!pebs_caps_pmu_ok(c, &why)) {
		fmt_snprintf(pc->err, sizeof(pc->err), "%s", why);
		return -1;
	}
	/* counters firmware had enabled are left alone (pebs/probe.c); the GP fallback is the
	 * highest free one, never PMC3 where TSX microcode may take it (Q_TFA_PMC3) */
	gp_free = (c->n_gp >= 32 ? ~0u : (1u << c->n_gp) - 1) & ~c->fw_gp &
		  ~(c->tfa && c->uarch && (c->uarch->quirks & Q_TFA_PMC3) ? 0x8u : 0);
	pc->fixed = c->version >= 2 && c->n_fixed >= 2 && (c->fixed_mask & 2) &&
		    !(c->fw_fixed & 2);
	if (pc->fixed) {
		fmt_snprintf(pc->name, sizeof(pc->name), "fixed counter 1 (CPU_CLK_UNHALTED.CORE)");
	} else if (c->n_gp == 0 || (c->ebx_len >= 1 && (c->arch_events_unavail & 1))) {
		fmt_snprintf(pc->err, sizeof(pc->err),
			     "CPUID.0AH: no fixed counter 1 and UnHalted Core Cycles unavailable");
		return -1;
	} else if (!gp_free) {
		fmt_snprintf(pc->err, sizeof(pc->err), "no fixed counter 1 and every GP counter "
			     "enabled by firmware (mask 0x%x)", c->fw_gp);
		return -1;
	} else {
		pc->gp = 31u - (unsigned)__builtin_clz(gp_free);
		fmt_snprintf(pc->name, sizeof(pc->name), "GP counter %u (event 0x3c UnHalted Core "
			     "Cycles)", pc->gp);
	}
	if (ensure_on(pc))
		return -1;
	return 0;
}

uint64_t pmu_cycles_read(void *ctx)
{
	struct pmu_cycles *pc = ctx;
	uint64_t v = 0;

	if (pc->fault || ensure_on(pc))
		return 0;
	if (rd(pc, pc->fixed ? MSR_IA32_FIXED_CTR(1) : MSR_IA32_PMC(pc->gp), &v))
		return 0;
	return v;
}
