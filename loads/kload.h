/*
 * kload.h: the load kernels inside pebs-kernel: buffers from mm_map_buffer (2 MiB pages;
 * 4 KiB for the STLB kernel), chain build and check, timing with interrupts off, compact
 * '#' output, the geometry from CPUID + l1d=/l2=/l3=/seed= overrides, and the two hooks the
 * PMU side fills later (kload_hooks.c): a core-cycle counter (fixed counter 1,
 * CPU_CLK_UNHALTED.CORE, SDM Vol. 3B 18.2.2) and the PEBS verdict step. Basis: issue 6,
 * README.md "One PEBS measurement", docs/latency-method.md §9.
 */
#ifndef LOADS_KLOAD_H
#define LOADS_KLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/ktap.h"
#include "kernel/mm.h"
#include "loads/chain.h"
#include "loads/chase.h"
#include "loads/geometry.h"
#include "loads/plan.h"
#include "loads/timing.h"

#define KLOAD_BUDGET_MS TIMING_FULL_MS	/* timed TSC ms per kernel where timing is judged;
					 * kload_timing() gives this run's budget */
#define KLOAD_REPS 9
#define KLOAD_TCG_DRAM_CAP (4ull << 20)	/* largest working set where nothing judges a larger
					 * one (timing_ws): software emulation, where a chain
					 * build costs ~1-3 us per node, or a brief budget;
					 * still 2x the largest L3-level set QEMU's CPUID gives */
#define KLOAD_STLB_WS (64ull << 20)	/* 16384 4 KiB pages: > 5x any STLB we know (Golden
					 * Cove 2048, Zen 4 3072 entries) */

/* What a load test targets: the level it sets out to hit, or the special record kind. */
enum load_target { TGT_L1, TGT_L2, TGT_L3, TGT_DRAM, TGT_LFB, TGT_STORE, TGT_STLB, TGT_REMOTE };

struct load_run {
	const char *name;		/* output prefix, e.g. "load_l2" */
	enum chase_kind kind;
	uint64_t ws;			/* working set, bytes */
	enum page_size ps;		/* PS_2M, or PS_4K for the STLB kernel */
	uint32_t stride;		/* 64; 4096 = one node per page */
	uint64_t phys_lo, phys_hi;	/* phys_hi != 0: a fresh buffer backed by memory inside
					 * [phys_lo, phys_hi) (a NUMA node: load_remote) */
	/* filled by load_run() */
	uint8_t *base;			/* the buffer (its virtual address) */
	struct chain chain;
	struct chase_result res;
	uint64_t walk_len;		/* chain_walk_len(): == chain.nodes when sound */
	uint64_t ns_x100;		/* ns per step, x100 */
	uint64_t build_ticks;		/* TSC ticks spent building + walking the chain */
	unsigned remeasured;		/* extra measurements taken for a noisy spread */
	bool noisy;			/* min..max still spread > STEADY_SPREAD_PCT (loads/steady.h) */
	const char *why;		/* load_run() != 0: the reason */
};

/* The chain of the latest load_run() stays in its buffer until the next load_run(). */

/* Forget the buffers of the previous test (the runner released its memory). Every load
 * test calls this first. */
void kload_test_begin(void);

/* The geometry the load tests use (CPUID, then l1d=/l2=/l3=); probed on first use. */
const struct cache_geometry *kload_geometry(void);
/* Another CPU's geometry for the runs that follow (load_cpus on an AP: its own CPUID 04H /
 * 8000_001DH, loads/geometry.h geometry_probe_cpu); NULL: the boot CPU's again. */
void kload_geometry_use(const struct cache_geometry *g);
/* Working set for a level, capped under software emulation (DRAM). */
uint64_t kload_ws(enum load_level l, const char **note);

/*
 * Build, check and time one kernel. 0; -1 with r->why when the resources are not there
 * (memory: a SKIP); -2 with r->why when the chain fails its walk (a FAIL, not timed).
 */
int load_run(struct load_run *r);

/* Time another kernel kind over the chain `src` built (still live): dst = src re-timed. */
int load_retime(struct load_run *dst, const struct load_run *src, const char *name,
		enum chase_kind kind);

/* Plain-load kernel of a level (2 MiB pages, kload_ws), run now; the last result of each
 * level is kept for the step verdicts. */
int kload_level_run(struct load_run *r, enum load_level l, const char **note);
/* The kept result of a level, NULL if it has not run in this boot. */
const struct load_run *kload_level_last(enum load_level l);
/* Two or three '#' lines about r (kt_info). */
void load_run_print(struct ktest *t, const struct load_run *r);
/* The same lines (docs/output.md §3 `chain` when r built its chain, `time`), without "# ",
 * each through out(ctx, line); hz: TSC ticks per second (loads/kload_print.c, pure). */
void load_run_lines(void (*out)(void *ctx, const char *line), void *ctx,
		    const struct load_run *r, uint64_t hz);

/* The geometry as '#' lines, once per boot (the first load test prints it). */
void kload_print_geometry(struct ktest *t);
/* Subtests chain_cycle and chain_placement for r. */
void kload_check_chain(struct ktest *t, const struct load_run *r);

/* Why timing verdicts SKIP in this run (software emulation, no invariant TSC, timing=brief:
 * loads/timing.h), or in the running test (an SMI, throttling, the core clock moved:
 * kernel/trust.h trust_spoiled), or NULL where they are judged; the decision is
 * loads/unjudged.h timing_unjudged over this run's plan (host-tested). */
const char *kload_timing_unjudgeable(void);
/* This run's timing plan (budget per kernel, brief or full, why), decided on first use. */
const struct timing_plan *kload_timing(void);
/* The working set a kernel builds for a wanted size `want`: capped at KLOAD_TCG_DRAM_CAP
 * where nothing judges a larger one (timing_ws: timing not judged and no PEBS step); *note
 * then says so, and is left alone otherwise. */
uint64_t kload_ws_cap(uint64_t want, const char **note);

/* Core-cycle counter hook; NULL read = none (TSC only). The PMU driver registers it. */
void kload_set_core_clock(uint64_t (*read)(void *ctx), void *ctx, const char *name);
/* The registered reader (NULL: none) with its context and name. */
uint64_t (*kload_core_clock(void **ctx, const char **name))(void *ctx);

/* The sampler of the load kernels' sampling step (loads/sampler.h), registered by the PMU
 * side: PEBS by kload_header (loads/kpebs.c), IBS in its place on AMD (loads/kibs.c). Until
 * then, and where the hardware lacks it, the step SKIPs with the reason. */
struct sampler;
void kload_set_sampler(const struct sampler *s);
/* Why the PEBS step cannot run here (NULL: it can). */
const char *kload_pebs_unavailable(void);
/* The sampling step as subtests: runs it through the sampler or SKIPs with the reason. */
void kload_pebs_step(struct ktest *t, const struct load_run *r, enum load_target target);
/* One armed sampling run over r's chain on this CPU (the boot CPU: the registered sampler
 * is its own), nothing printed: 0 with the aggregate in *out, -1 with *why. */
struct pebs_agg;
int kload_sample_agg(const struct load_run *r, enum load_target target,
		     const struct pebs_agg **out, const char **why);

#endif
