/*
 * pmu_model.h: an SDM-rule model of the Intel core PMU + PEBS for host tests. It implements
 * kernel/hw.h (rdmsr/wrmsr/_safe, rdpmc_safe, cpuid_count, trivial port/MMIO), kalloc (mapped
 * regions it tracks) and the apic/ PMI calls (apic_set_pmi_handler, apic_pmi_rearm) over a
 * register file per modelled CPU, and
 *  (a) records every programming the SDM (or this project's rules) forbids as a violation
 *      naming the rule; tests assert none, or exactly the expected one;
 *  (b) behaves like the hardware: counts fed events, arms on overflow, writes records of the
 *      CPU's format at the DS index, reloads the counter from the DS reset slot, raises the
 *      threshold PMI into the installed handler, and stops writing at the absolute maximum.
 * Sources: docs/hardware.md §1, §3.3, §4, §6, §7.2, §8.
 * Modelled assumption (UNVERIFIED on hardware): an assist that finds the buffer full writes
 * nothing and does not reload the counter (SDM DS text: the reset follows a written record).
 */
#ifndef TESTS_MODEL_PMU_MODEL_H
#define TESTS_MODEL_PMU_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct model_cpu {
	const char *name;
	uint32_t signature;	/* CPUID.1:EAX */
	uint8_t core_type;	/* hybrid when non-zero (CPUID.1AH) */
	uint8_t version, n_gp, gp_width, n_fixed, fixed_width;
	bool ds, dtes64, pdcm;
	uint64_t perf_cap, misc_enable;
	uint32_t microcode;
	uint32_t pebs_gp;	/* counters that can PEBS */
	uint16_t ll_event;
	uint32_t ll_gp;
	uint16_t st_event;
	uint16_t aux_event;	/* must run beside ll_event */
	bool ps_en_store;	/* store event needs PEBS_ENABLE[63] */
	bool nhm_reset;		/* AAK100 reset sequence required */
	bool ldlat_faults;	/* MSR 0x3F6 #GPs (hypervisor) */
	bool hypervisor;
	bool split_latency;	/* meminfo +0x10: instr latency 15:0, cache latency 47:32
				 * (Golden Cove/Gracemont and later, docs/hardware.md §4.3) */
	/* per-CPU rules of pmu_model_hostile.c (docs/hardware.md §7.1) */
	bool tsx;		/* IA32_PERFEVTSELx[33:32] IN_TX/IN_TXCP writable (RTM parts) */
	bool tfa;		/* CPUID.(07H,0):EDX[13]: microcode may take PMC3 (Skylake family) */
	bool ht_erratum;	/* BJ122/BV98/HSD29: 0xD0-0xD3 corrupt the sibling's counter */
	enum { PERIOD_ANY, PERIOD_NHM, PERIOD_HSW, PERIOD_BDW } period;	/* minimum periods */
	/* architectural PEBS (format 0xF; pmu_model_arch.c, docs/arch-pebs.md) */
	uint32_t arch_caps;	/* CPUID.23H.4:EBX; 0 = no leaf 23H */
	uint32_t arch_pebs_gp;	/* CPUID.23H.5:EAX */
};

extern const struct model_cpu model_broadwell;	/* not in model_cpus[]: the BDW period rule */
extern const struct model_cpu model_nehalem, model_sandybridge, model_haswell, model_skylake,
	model_icelake_sp, model_sapphire_rapids, model_gracemont, model_goldencove, model_penryn,
	model_qemu_tcg_skl, model_qemu_tcg_icx, model_lion_cove, model_gnr, model_mtl_p;
extern const struct model_cpu *const model_cpus[];	/* the PEBS CPUs, NULL-terminated */
/* Architectural-PEBS rows (pmu_model_cpus_arch.c), NULL-terminated. */
extern const struct model_cpu model_ptl_p, model_ptl_e, model_cwf, model_dmr, model_nvl_p,
	model_nvl_e;
extern const struct model_cpu *const model_arch_cpus[];
/* Arch rows: write every record as two fragments (basic, then the rest) when on. */
void model_arch_split(bool on);

/* What a fed load carries into a record (the test chooses plausible values). */
struct model_load {
	uint64_t addr, dsrc, lat, ip;
};

struct model_stats {
	uint64_t records_written, dropped, pmis_raised, pmis_delivered, assists;
	/* assists through a DS_AREA (or its buffer) in memory not allocated, e.g. released by
	 * the runner: hardware writes the record there all the same (a violation here) */
	uint64_t stray;
};

#define MODEL_MAX_VIOL 32
#define MODEL_LOG 256

/* Start over on `cpu` (frees everything kalloc handed out). */
void model_init(const struct model_cpu *cpu);

/*
 * Several CPUs, each with its own register file (MSRs, counters, DS_AREA), CPUID answers,
 * LVTPC and statistics; memory (kalloc) and the PMI vector's handler are shared, as on a
 * real machine. A
 * hybrid part lists its P- and E-core rows. CPU i has local APIC id i (apic_id()).
 * model_select(i) makes CPU i the one that executes: every hw.h call, model_feed, the PMI
 * and the queries below act on it, as an instruction acts on the core that runs it.
 */
#define MODEL_MAX_CPUS 4
void model_init_cpus(const struct model_cpu *const *cpus, unsigned n);
void model_select(unsigned i);
unsigned model_current(void);
void model_fini(void);
const struct model_cpu *model_cpu(void);

/* Feed n occurrences of event (umask<<8|event); ld may be NULL. Loads for the load-latency
 * event count only when ld->lat > the programmed threshold (SDM). */
void model_feed(uint16_t event, uint64_t n, const struct model_load *ld);
/* PMI delivery on/off (off: PMIs stay pending, as with interrupts disabled). */
void model_pmi_delivery(bool on);
/* Deliver a pending PMI now (if any). */
void model_pmi_flush(void);
/* Raise a PMI with no cause (spurious). */
void model_raise_pmi(void);

const struct model_stats *model_stats(void);

/*
 * Hostile PMI delivery (pmu_model_pmi.c; model_init clears every knob). A step is a fed
 * event, an MSR access outside the handler, or a model_step() call.
 *  model_pmi_late(n): a raised PMI (and one pending now) is taken n steps later, the
 *    counters and PEBS assists running on meanwhile (0: at once, the default);
 *  model_pmi_hold_until_access(k): the pending PMI (or the next one raised) is taken just
 *    before the k-th MSR access from now, not earlier (0: off);
 *  model_busy(event, n, ld): n events fed before every MSR access (n = 0: off);
 *  model_set_global_status(bits): bits left set in GLOBAL_STATUS (firmware, an earlier
 *    session); model_step(): a point where a late PMI can land (a test's sink calls it).
 */
void model_pmi_late(uint64_t steps);
void model_pmi_hold_until_access(uint64_t k);
void model_busy(uint16_t event, uint64_t n, const struct model_load *ld);
void model_set_global_status(uint64_t bits);
void model_step(void);
uint64_t model_msr_accesses(void);

/* kalloc in the model: bytes held; the test runner's per-test release (kernel/mm.h
 * mm_generation moves; the regions taken since the mark are freed). */
uint64_t model_kalloc_bytes(void);
unsigned model_mm_mark(void);
void model_mm_release(unsigned mark);

/*
 * The model's virtual clock (its TSC: what records' TSC fields carry). Each fed event
 * advances it by `event_ticks` (default 7), each PEBS assist (a record written or dropped) by
 * `assist_ticks` and each delivered PMI by `pmi_ticks` (default 0 both): the time PEBS costs
 * the workload, for tests of the cost measurement (loads/pebs_cost.h). model_init resets them.
 */
uint64_t model_tsc(void);
void model_set_costs(uint64_t event_ticks, uint64_t assist_ticks, uint64_t pmi_ticks);
uint64_t model_msr(uint32_t msr);	/* register file, for assertions (0 if unmodelled) */

/* Violations: each distinct text once. */
unsigned model_violation_count(void);
const char *model_violation(unsigned i);
/* Select CPU n, print each of its violations ("CPU n model violation: ...") on stderr and
 * return how many there were (multi-CPU tests assert 0 per CPU). */
unsigned model_cpu_violations(unsigned n);
bool model_has_violation(const char *substr);
void model_clear_violations(void);

/* Order log of PMI-relevant actions: "ctrl=0", "status", "ack", "rearm", "ctrl=on". */
const char *model_log(void);
void model_log_clear(void);

#endif
