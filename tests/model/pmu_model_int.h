/* pmu_model_int.h: state shared by the PMU model's files (tests/model/pmu_model*.c). */
#ifndef TESTS_MODEL_PMU_MODEL_INT_H
#define TESTS_MODEL_PMU_MODEL_INT_H

#include "model/pmu_model.h"
#include "model/pmu_model_hostile.h"
#include "kernel/hw.h"
#include "kernel/idt.h"

#define M_GP 10
#define M_FIX 4
#define M_REGIONS 64

/* kalloc'd memory: one physical memory for every modelled CPU */
struct model_region {
	void *p;
	uint64_t bytes;
};

struct model_state {
	const struct model_cpu *cpu;
	unsigned fmt;
	bool baseline, fw_write;
	uint64_t gp_mask;	/* counter value mask */
	uint64_t pmc[M_GP], evtsel[M_GP];
	bool armed[M_GP];
	uint64_t fixed[M_FIX], fixed_ctrl;
	uint64_t global_ctrl, global_status, pebs_enable, data_cfg, ldlat, ds_area, debugctl;
	uint64_t pebs_base, pebs_index, cfg_c[M_GP], fx_cfg_c[M_FIX];	/* arch PEBS */
	bool arch_split;
	uint64_t ucode_latch;
	bool nhm_reset_seen;
	uint64_t tsc;
	uint64_t event_ticks, assist_ticks, pmi_ticks;	/* virtual-clock costs */
	struct model_hostile h;	/* pmu_model_hostile.c */
	uint64_t tfa_msr;	/* MSR_TSX_FORCE_ABORT */
	/* PMI */
	bool delivery, lvtpc_masked, pending, in_pmi, pmi_disabled_first;
	/* hostile delivery (pmu_model_hostile.c) */
	uint64_t late, late_left;	/* a raised PMI waits `late` model steps */
	uint64_t hold_at;		/* pending PMI held until MSR access number hold_at */
	uint64_t accesses;		/* MSR accesses outside the PMI handler */
	uint16_t busy_event;		/* fed busy_n times before each MSR access */
	uint64_t busy_n;
	struct model_load busy_ld;
	bool stepping;
	struct model_stats st;
	char viol[MODEL_MAX_VIOL][160];
	unsigned nviol;
	char log[MODEL_LOG];
};

/* One register file per modelled CPU; M is the one executing (model_select). */
extern struct model_state model_state_of[MODEL_MAX_CPUS];
extern struct model_state *model_cur;
#define M (*model_cur)
extern unsigned model_ncpus;
extern irq_handler_fn model_pmi_handler;	/* the PMI vector's handler: one for all CPUs */
extern struct model_region model_regions[M_REGIONS];
extern unsigned model_nregions;

void model_violate(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void model_logf(const char *what);
bool model_mapped(uint64_t addr, uint64_t bytes);
/* Check every PEBS-active counter against the rules (after a register write). */
void model_check_active(void);
bool model_pebs_active(unsigned i);
void model_raise(void);
void model_deliver(void);
/* pmu_model_hostile.c: a point where an interrupt can land: an MSR access (access = true,
 * counted) or a fed event / model_step (false); delivers a PMI that is due. */
void model_tick(bool access);
void model_no_write_while_active(unsigned i, const char *what);
bool model_any_pebs_active(void);
unsigned model_record_size(unsigned i);
int model_reset_slot(bool fixed, unsigned i);
/* pmu_model_record.c: write counter i's PEBS record of `size` bytes at rec (ld NULL: a
 * placeholder load). */
void model_write_record(uint8_t *rec, unsigned size, unsigned i, const struct model_load *ld);
/* The retire latency a record of load ld carries (timed PEBS, arch PEBS): its latency scaled
 * by the knob retire_pct, saturating at 0xffff. */
uint16_t model_retire_latency(const struct model_load *ld);
/* pmu_model_arch.c: arch-PEBS registers (true: msr is one of them on this CPU, *vec = 0 or
 * the fault), its PEBS enable, its assist, its rules, CPUID leaf 23H. */
bool model_arch_rdmsr(uint32_t msr, uint64_t *v, int *vec);
bool model_arch_wrmsr(uint32_t msr, uint64_t v, int *vec);
bool model_arch_pebs_on(unsigned i);
void model_arch_assist(unsigned i, const struct model_load *ld);
void model_arch_check(void);
void model_arch_rearm_check(void);
void model_arch_exit_check(void);	/* at the PMI's return, counting on */
void model_arch_cpuid(uint32_t subleaf, struct cpuid_regs *r);
/* pmu_model_hostile.c: the knobs' MSR behaviour (true: handled, *vec its result), whether
 * counter i is cross-mapped, the per-CPU rules after each write, and the valid bits of
 * IA32_PERF_GLOBAL_OVF_CTRL, IA32_FIXED_CTR_CTRL and IA32_PERFEVTSELx[63:32]. */
bool model_hostile_rdmsr(uint32_t msr, uint64_t *v, int *vec);
bool model_hostile_wrmsr(uint32_t msr, uint64_t v, int *vec);
bool model_hostile_xmapped(unsigned i);
void model_hostile_check(void);
uint64_t model_ovf_ctrl_valid(void);
uint64_t model_fixed_ctrl_valid(void);
uint64_t model_evtsel_hi_valid(void);

#endif
