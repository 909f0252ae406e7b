/*
 * disarm.c: PEBS off on a path that skipped pebs_stop: a test abandoned by the per-test
 * watchdog or an exception on the boot CPU (the runner's undo, kernel/ktap_undo.h), and an
 * application processor that faulted inside a measurement (its recovery hook, smp/smp.h
 * smp_on_ap_recovery). Left armed, the PMU keeps writing records through IA32_DS_AREA (or
 * IA32_PEBS_BASE) and raising PMIs into memory the runner gives to the next test.
 * Order as Linux arch/x86/events/intel/ds.c: counters off first (GLOBAL_CTRL, the session's
 * bits; x86_pmu_disable), then PEBS (IA32_PEBS_ENABLE <- 0, intel_pmu_pebs_disable_all),
 * then the DS area pointer cleared (fini_debug_store_on_cpu, release_ds_buffers: only once
 * PEBS is off); arch PEBS: IA32_PEBS_INDEX.EN and CFG_C off, IA32_PEBS_BASE cleared
 * (fini_arch_pebs_on_cpu). SDM Vol. 3B 18.4.9 "Debug Store (DS) Mechanism", 20.6.2 (PEBS).
 * No drain: the records belong to an abandoned test. What was armed is read from this CPU's
 * PMI slot (pmi_slots.h, the driver's memory), never from the session: an abandoned test's
 * session may lie in a dead stack frame or in memory about to be released. With no slot (a
 * fault between programming and the PMI install, GLOBAL_CTRL still 0 for its counters) a
 * PEBS_ENABLE or DS_AREA found set is cleared all the same. Every access goes through the
 * _safe accessors (a CPU without these MSRs takes #GP, caught), and the slot is given back,
 * so a late PMI finds no session to drain into released memory.
 */
#include "pebs/pebs.h"
#include "pebs/arch_msr.h"
#include "pebs/msr.h"
#include "pebs/pmi_slots.h"
#include "kernel/hw.h"

static void clear(uint32_t msr)
{
	uint64_t v = 0;

	if (!rdmsr_safe(msr, &v) && v)
		(void)wrmsr_safe(msr, 0);
}

static void off_gp(uint32_t gp, uint32_t (*msr)(unsigned))
{
	for (unsigned i = 0; gp >> i; i++)
		if (gp & (1u << i))
			clear(msr(i));
}

static uint32_t evtsel(unsigned i) { return MSR_IA32_PERFEVTSEL(i); }
static uint32_t cfg_c(unsigned i) { return MSR_IA32_PMC_GP_CFG_C(i); }

void pebs_disarm_here(void)
{
	struct pmi_armed a = { 0 };
	bool slot = pebs_pmi_armed_here(&a);
	uint64_t g = 0, st = 0;

	if (slot && !rdmsr_safe(MSR_IA32_PERF_GLOBAL_CTRL, &g) && (g & a.ctrl))
		(void)wrmsr_safe(MSR_IA32_PERF_GLOBAL_CTRL, g & ~a.ctrl);	/* the clock stays */
	if (a.arch) {
		clear(MSR_IA32_PEBS_INDEX);	/* EN off first */
		off_gp(a.gp, cfg_c);
		clear(MSR_IA32_PEBS_BASE);
	} else {
		clear(MSR_IA32_PEBS_ENABLE);
		clear(MSR_IA32_DS_AREA);
		if (a.adaptive)
			clear(MSR_PEBS_DATA_CFG);
	}
	off_gp(a.gp, evtsel);
	if (a.fixed1)
		(void)wrmsr_safe(MSR_IA32_FIXED_CTR_CTRL, a.fixed_ctrl);
	if (slot && !rdmsr_safe(MSR_IA32_PERF_GLOBAL_STATUS, &st) && st)
		(void)wrmsr_safe(MSR_IA32_PERF_GLOBAL_OVF_CTRL, st);
	if (slot)
		pebs_pmi_uninstall();
}

void pebs_disarm_undo(void *arg)
{
	(void)arg;
	pebs_disarm_here();
}
