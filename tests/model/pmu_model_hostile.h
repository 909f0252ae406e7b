/*
 * pmu_model_hostile.h: what real firmware and hypervisors do to a PMU that the plain PMU model
 * (pmu_model.h) never does, as knobs a test sets on the selected CPU after model_init, or
 * draws from a seed (model_hostile_seed: the same seed, the same environment, every run):
 *  - counters owned by firmware: IA32_PERFEVTSELx / IA32_FIXED_CTR_CTRL enabled at reset;
 *    overwriting one is a violation (Linux arch/x86/events/core.c check_hw_exists(): "the
 *    BIOS has corrupted hw-PMU resources");
 *  - a hypervisor that accepts and drops every PMU write and reads 0 (check_hw_exists():
 *    "emulators (qemu/kvm) that don't trap on the MSR access and always return 0s");
 *  - MSR_PEBS_LD_LAT_THRESHOLD that reads (0) but ignores writes (KVM ignore_msrs; Linux
 *    arch/x86/events/intel/core.c check_msr());
 *  - cross-mapped counters: a PEBS-enabled counter the host backs with a plain counter
 *    overflows (GLOBAL_STATUS bit set, no PMI with INT clear) and never assists
 *    (kvm-unit-tests x86/pmu_pebs.c, "Known reasons for none PEBS records").
 * The per-CPU rules next to them (pmu_model_hostile.c): reserved bits of
 * IA32_PERF_GLOBAL_OVF_CTRL/STATUS_RESET, IA32_FIXED_CTR_CTRL and IA32_PERFEVTSELx[33:32],
 * minimum PEBS periods, PMC3 on TSX_FORCE_ABORT parts and the HT erratum on 0xD0-0xD3.
 */
#ifndef TESTS_MODEL_PMU_MODEL_HOSTILE_H
#define TESTS_MODEL_PMU_MODEL_HOSTILE_H

#include <stdbool.h>
#include <stdint.h>

struct model_hostile {
	uint32_t fw_gp;		/* GP counters firmware enabled: IA32_PERFEVTSELx = fw_evtsel */
	uint64_t fw_evtsel;	/* must have EN[22]; 0: 0x43003c (UnHalted Core Cycles) */
	uint64_t fw_fixed_ctrl;	/* IA32_FIXED_CTR_CTRL as firmware left it */
	bool drop_writes;	/* PMU MSR writes accepted and dropped, reads 0 */
	bool ldlat_ignores_writes;	/* MSR_PEBS_LD_LAT_THRESHOLD reads 0, writes ignored */
	uint32_t xmap_gp;	/* counters cross-mapped by the host: PEBS never assists */
	/* counter-group snapshots of the fixed counters that are not their values (a stale or
	 * another counter's value, here the value plus this): against SDM Vol. 3B "Counters
	 * Group" (the counter's value when the record is written); pebs_cntr_check must fail */
	uint64_t snap_skew;
	/* arch-PEBS retire latency in percent of the load's latency (0: 100, what a dependent
	 * chase gives: each load retires one load latency after the one before) */
	unsigned retire_pct;
};

/* Apply to the selected CPU (as its state at reset); a zeroed struct is the plain model. */
void model_hostile(const struct model_hostile *h);
/* The knobs seed draws for a CPU with n_gp counters (deterministic, xorshift64). */
void model_hostile_seed(uint64_t seed, unsigned n_gp, struct model_hostile *h);

#endif
