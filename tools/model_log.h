/*
 * model_log.h: the parts of tools/model-log (a host program that prints a complete KTAP log in
 * docs/output.md output-format 2 from the kernel's own printing and verdict code fed by the PMU
 * model, tests/model/pmu_model.h): the record mixes per load kernel and the PEBS step
 * (model_log_pebs.c), and what the driver (model-log.c) hands it.
 */
#ifndef TOOLS_MODEL_LOG_H
#define TOOLS_MODEL_LOG_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/ktap.h"
#include "pebs/caps.h"
#include "pebs/datasrc.h"
#include "ibs/ibs_caps.h"
#include "pebs/percpu.h"

/* Mixes (--mix): which levels the modelled loads of each kernel hit. */
enum ml_mix {
	ML_CLEAN,	/* every kernel's target level dominates: all verdicts pass */
	ML_MIXED,	/* load_dram: 55 % L3, 45 % RAM: L3 dominates, pebs_source fails */
	ML_L1,		/* every kernel hits L1 (as if the chain were cached): l2..dram fail */
};

enum ml_dump { ML_DUMP_NONE, ML_DUMP_RAW, ML_DUMP_DECODED };

struct cache_geometry;

struct ml_opts {
	enum ml_mix mix;
	enum ml_dump dump;
	uint64_t seed;
	uint64_t sav;
	bool sav_given;		/* --sav: no automatic retune (as sav= on the kernel's line) */
	uint64_t tsc_khz;	/* the model CPU's TSC: the virtual clock's rate */
	uint64_t assist_ns, pmi_ns;	/* what the model charges per PEBS assist / per PMI */
	/* per-CPU runs (--cpu alderlake: load_cpus on the E-core): that CPU's number, its own
	 * PEBS state (NULL: the boot CPU's measurement) and the subtest prefix ("cpu1_l2_") */
	unsigned cpu;
	struct pebs_cpu *pc;
	const char *sub;
	unsigned ram_pct;	/* --ram-pct: RAM latencies in percent of the model's (100) */
	bool counters;		/* --pebs-counters on: the kernel's pebs_counters=on */
};

/* Seeded xorshift64*: every random choice of the program comes from here. */
uint64_t ml_rand(void);
void ml_srand(uint64_t seed);

/* A mix's row for kernel k: percent of loads per level (at most three parts); `want` picks
 * the data-source code among that level's (enum ml_want). */
enum ml_want { ML_W_HIT, ML_W_STLB, ML_W_REMOTE, ML_W_SNOOP, ML_W_HITM };
struct ml_part { unsigned pct; enum pebs_level lvl; enum ml_want want; };
struct ml_mixrow { struct ml_part p[3]; };
const struct ml_mixrow *ml_mix_row(enum ml_mix m, unsigned k);
/* Draw the part of a row one load comes from (seeded generator). */
unsigned ml_draw(const struct ml_mixrow *mx);

/* model_log_feed.c: the records fed to the PMU model, in chunks (a pebs_cost work function). */
struct ml_feed {
	uint16_t event;		/* the model's event the loads (or stores) count on; 0: ll_event */
	const struct ml_mixrow *mx;
	uint64_t code[3];
	unsigned lo[3], hi[3];
	uint64_t events_left;
	uint64_t fed;		/* events fed so far: the cost's step count */
};
bool ml_work(void *ctx);
/* The data-source code for level l and kind `want` (event ev) in c's decoder table: false
 * when it has none; ml_code_for: a plain hit at l for loads, or exit 2 naming the level. */
bool ml_find_code(const struct pebs_caps *c, enum pebs_event ev, enum pebs_level l,
		  enum ml_want want, uint64_t *out);
uint64_t ml_code_for(const struct pebs_caps *c, enum pebs_level l);
/* The target level of kernel k (load_l1..load_dram). */
enum pebs_level ml_target_of(unsigned k);
/* Modelled latency range of a level, core cycles (0, 0 when the level has none); RAM scaled by
 * o->ram_pct. */
void ml_lat_range(enum pebs_level l, const struct ml_opts *o, unsigned *lo, unsigned *hi);

/* The target level's modelled median latency for kernel k (0..3 = load_l1..load_dram), core
 * cycles x100, RAM scaled by o->ram_pct: the synthesized `time` line's core cycles/load
 * follow it. */
uint64_t ml_target_lat_x100(unsigned k, const struct ml_opts *o);

/* The PEBS step of kernel k, as loads/kpebs.c kpebs_check runs it on hardware: one
 * pebs/measure.c measurement over the model's records, the loads/kpebs_print.c lines, the
 * loads/pebs_verdict.c verdicts as subtests of t, and the cost of it (loads/pebs_cost.h) on the
 * model's virtual clock: every modelled load takes the `time` line's TSC ticks, every assist
 * and PMI what o charges. timed_x100: core cycles/load. */
void ml_pebs_step(struct ktest *t, unsigned k, const char *name, const struct pebs_caps *c,
		  const struct ml_opts *o, uint64_t timed_x100);

/* The PEBS step of one of the other kernels (loads/kload.h targets TGT_LFB, TGT_STORE,
 * TGT_STLB, TGT_REMOTE, as loads/kpebs.c step_run judges them) with the records of `mx`
 * (model_log_special.c). Returns false when the model's table has no code for a part. */
bool ml_pebs_target(struct ktest *t, const char *name, const struct pebs_caps *c,
		    const struct ml_opts *o, uint64_t timed_x100, int tg,
		    const struct ml_mixrow *mx);
/* The PEBS step of load_snoop / load_hitm (loads/xcore_pebs.c): kind XCORE_SNOOP/HITM. */
void ml_xcore_pebs(struct ktest *t, const char *name, const struct pebs_caps *c,
		   const struct ml_opts *o, int kind, const struct ml_mixrow *mx);
/* One measurement of mx's records, nothing printed (model_log_loaded.c): NULL with *err. */
struct pebs_measure;
struct pebs_measure *ml_pebs_quiet(const struct pebs_caps *c, const struct ml_opts *o,
				   const struct ml_mixrow *mx, const char **err);
/* model_log_loaded.c: test `num`, load_loaded, as ktests/load_loaded.c prints and judges it:
 * `injectors` injectors over the memory `mem` (tests/model/loaded_model.h), the idle probe at
 * load_dram's core cycles/load dram_core_x100. */
struct loaded_mem;
void ml_loaded_test(unsigned num, const struct pebs_caps *c, const struct cache_geometry *g,
		    const struct ml_opts *o, const struct loaded_mem *mem, unsigned injectors,
		    uint64_t dram_core_x100);
/* One measurement of mx's records on the boot CPU at ldlat/sav, nothing printed: its
 * aggregate, or NULL with *why (the table has no such code, or the measurement's error). */
const struct pebs_agg *ml_pebs_agg(const struct pebs_caps *c, const struct ml_opts *o,
				   const struct ml_mixrow *mx, unsigned ldlat, uint64_t sav,
				   const char **why);
/* model_log_special.c: tests load_lfb .. load_hitm after load_dram; returns the next test
 * number. */
unsigned ml_special_tests(unsigned first, uint64_t tsc_khz, const struct pebs_caps *c,
			  const struct ibs_caps *ic, const struct cache_geometry *g,
			  const struct ml_opts *o);

/* The same step on a modelled AMD part, through IBS (model_log_ibs.c, loads/kibs_report.c). */
void ml_ibs_step(struct ktest *t, unsigned k, const char *name, const struct ibs_caps *c,
		 const struct ml_opts *o, uint64_t timed_x100);
/* The IBS step of one of the other kernels (target tg: loads/kibs_report.c judges it) with the
 * samples of `mx` (ML_W_REMOTE: RmtNode, ML_W_STLB: the DTLB-miss bits). */
void ml_ibs_target(struct ktest *t, const char *name, const struct ibs_caps *c,
		   const struct ml_opts *o, uint64_t timed_x100, int tg,
		   const struct ml_mixrow *mx);

/* Set for an AMD CPU: the seam goes to the IBS model (model_log_hw.c). */
extern bool ml_amd;

/* Core cycles x100 and TSC ticks x100 as `<int>.<2 digits>` printf arguments. */
#define X100(v) (unsigned long long)((v) / 100), (unsigned long long)((v) % 100)

/* model_log_loads.c: kernel k's synthesized `chain` and `time` lines (returns core
 * cycles/load x100), and test `num` load_cpus on the hybrid model's E-core (CPU 1). */
uint64_t ml_timing(struct ktest *t, unsigned k, const char *name, uint64_t tsc_khz, uint64_t ws,
		   const struct ml_opts *o);
/* The same lines for a kernel of `core_x100` cycles a `unit` (load, step8, ldst: loads/kload.c)
 * over ws at `stride`/`pages`. */
void ml_timing_lines(struct ktest *t, const char *name, uint64_t tsc_khz, uint64_t ws,
		     unsigned stride, const char *pages, const char *unit, uint64_t core_x100);
/* model_log_matrix.c: tests load_matrix and load_c2c over the topology tm (--kernels matrix);
 * returns the next test number. */
struct topo_model;
unsigned ml_matrix_tests(unsigned n, const struct pebs_caps *c, const struct cache_geometry *g,
			 const struct ml_opts *o, const struct topo_model *tm);
void ml_ecore_test(unsigned num, uint64_t tsc_khz, const struct cache_geometry *g,
		   const struct ml_opts *bo);

#endif
