/*
 * kload.c: the load kernels inside the kernel (see kload.h). Within one test: one 2 MiB-page
 * pool and one 4 KiB-page pool, each replaced only by a larger one, and one scratch array
 * for the chain builder. The test runner (ktests/run.c) releases all of it after each test,
 * so every load test starts with kload_test_begin(). Every run builds its own chain (a
 * kept chain's checked walk cost as much as a fresh build: docs/latency-method.md §7).
 */
#include "loads/kload.h"
#include "kernel/cmdline.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/fmt.h"
#include "kernel/idt.h"
#include "kernel/tsc.h"
#include "loads/steady.h"
#include "loads/unjudged.h"

#include <stddef.h>
#include <string.h>

#define WARM_PAST_L3 (64u << 10)	/* warm-up steps for working sets past L3 */
#define MEM_MARGIN (8ull << 20)		/* left free for everything else */

static struct cache_geometry geom;
static struct load_run level_last[LOAD_NLEVELS];
static bool level_done[LOAD_NLEVELS];
static bool geom_done;
static struct { uint8_t *base; uint64_t bytes; } pool[2];	/* [0] 2 MiB, [1] 4 KiB pages */
static uint32_t *scratch;
static uint64_t scratch_bytes;

static void warn(const char *msg)
{
	kprintf("# warning: %s\n", msg);
}

static const struct cache_geometry *geom_use;

void kload_geometry_use(const struct cache_geometry *g)
{
	geom_use = g;
}

const struct cache_geometry *kload_geometry(void)
{
	if (geom_use)
		return geom_use;
	if (!geom_done) {
		geometry_probe(&geom, &cpu);
		geometry_override(&geom, cmdline_u64(&kcmdline, "l1d", 0, 4096, 1ull << 40, warn),
				  cmdline_u64(&kcmdline, "l2", 0, 4096, 1ull << 40, warn),
				  cmdline_u64(&kcmdline, "l3", 0, 4096, 1ull << 40, warn));
		geom_done = true;
	}
	return &geom;
}

const struct timing_plan *kload_timing(void)
{
	static struct timing_plan plan;
	static bool done;

	if (!done) {
		struct timing_facts f = {
			.emulated = cpu_timing_unjudgeable(&cpu), .invariant_tsc = cpu.invariant_tsc,
			.opt = timing_opt_parse(cmdline_get(&kcmdline, "timing")),
		};

		if (f.opt == TIMING_OPT_BAD)
			warn("timing=: want auto, brief or full; using auto");
		timing_decide(&f, &plan);
		done = true;
	}
	return &plan;
}

const char *kload_timing_unjudgeable(void)
{
	return timing_unjudged(kload_timing());	/* the plan's reason, else kernel/trust.h */
}

uint64_t kload_ws_cap(uint64_t want, const char **note)
{
	uint64_t ws = timing_ws(kload_timing(), !kload_pebs_unavailable(), want,
				KLOAD_TCG_DRAM_CAP);

	if (ws < want)
		*note = cpu_software_emulated(&cpu) ? " (capped under software emulation)"
			: " (capped: timing not judged, no PEBS step)";
	return ws;
}

uint64_t kload_ws(enum load_level l, const char **note)
{
	const struct cache_geometry *g = kload_geometry();
	uint64_t ws = load_ws(l, g), free = pmm_free_bytes();

	*note = "";
	if (l != LOAD_DRAM)
		return ws;
	ws = kload_ws_cap(ws, note);
	/* room for the chain builder's scratch too (stride 64) */
	while (ws + chain_scratch_bytes(&(struct chain_params){ .bytes = ws, .stride = 64 }) +
	       MEM_MARGIN > free && ws / 2 >= 2 * g->l3.size) {
		ws /= 2;
		*note = " (halved to fit free memory)";
	}
	return ws;
}

/* A buffer of at least `bytes` with pages of `ps` (2 MiB or 4 KiB). */
static uint8_t *buffer(uint64_t bytes, enum page_size ps, const char **why)
{
	int i = ps == PS_4K;

	bytes = (bytes + (i ? PAGE_4K : PAGE_2M) - 1) & ~((i ? PAGE_4K : PAGE_2M) - 1);
	if (pool[i].bytes >= bytes)
		return pool[i].base;
	if (bytes + MEM_MARGIN > pmm_free_bytes()) {
		*why = "not enough free memory for the working set";
		return NULL;
	}
	pool[i].base = mm_map_buffer(bytes, ps);
	pool[i].bytes = pool[i].base ? bytes : 0;
	if (!pool[i].base)
		*why = "mm_map_buffer failed";
	return pool[i].base;
}

static uint64_t irq_off(void)
{
	return irq_save();
}

static void irq_on(uint64_t fl)
{
	irq_restore(fl);
}

static int time_it(struct load_run *r)
{
	const struct cache_geometry *g = kload_geometry();
	const char *clock_name;
	void *core_ctx;
	uint64_t (*core_read)(void *) = kload_core_clock(&core_ctx, &clock_name);
	struct chase_hooks h = {
		.irq_off = irq_off, .irq_on = irq_on, .core_cycles = core_read, .core_ctx = core_ctx,
	};
	struct chase_cfg cfg = {
		.kind = r->kind, .reps = KLOAD_REPS, .min_steps = 2 * CHASE_UNROLL,
		.budget_ticks = tsc_hz / 1000 * kload_timing()->budget_ms,
		.warm_max_steps = r->ws > g->l3.size ? WARM_PAST_L3 : 0, .hooks = &h,
	};

	/* Warm-up bounded by the timed budget (2 laps under software emulation, where no
	 * timing is judged and a boot should stay cheap); a noisy measurement is taken again (up to
	 * STEADY_REMEASURE times) where timing is judged, and stays marked if it stays noisy. */
	cfg.warm_max_ticks = cfg.budget_ticks;
	cfg.warm_max_laps = cfg.warm_max_steps ? STEADY_PAST_LLC_LAPS : 0;
	if (kload_timing()->unjudged)		/* nothing is judged: the rule's minimum */
		cfg.warm_max_laps = 2;
	r->remeasured = 0;
	for (;;) {
		if (chase_measure(&r->chain, &cfg, &r->res)) {
			r->why = "chase_measure rejected the configuration";
			return -1;
		}
		r->noisy = steady_noisy(r->res.tsc_min_x100, r->res.tsc_max_x100,
					r->res.tsc_med_x100);
		if (!r->noisy || r->remeasured >= STEADY_REMEASURE || kload_timing()->unjudged)
			break;
		r->remeasured++;
	}
	r->ns_x100 = chase_ns_x100(r->res.tsc_med_x100, tsc_hz);
	return 0;
}

int load_retime(struct load_run *dst, const struct load_run *src, const char *name,
		enum chase_kind kind)
{
	*dst = *src;
	dst->name = name;
	dst->kind = kind;
	dst->build_ticks = 0;
	return time_it(dst);
}

int load_run(struct load_run *r)
{
	const struct cache_geometry *g = kload_geometry();
	struct chain_params p = {
		.bytes = r->ws, .stride = r->stride, .line = g->l1d.line, .page = 4096,
		.seed = cmdline_u64(&kcmdline, "seed", 1, 0, UINT64_MAX, warn),
		.vary_slot = true, .vary_line = r->stride > g->l1d.line,
	};
	uint8_t *base;
	uint64_t t0 = rdtsc();

	r->why = NULL;
	if (p.line < 8 || p.line > r->stride)
		p.line = 64;
	if (chain_scratch_bytes(&p) > scratch_bytes) {
		if (chain_scratch_bytes(&p) + r->ws + MEM_MARGIN > pmm_free_bytes()) {
			r->why = "not enough free memory for the chain builder";
			return -1;
		}
		scratch = kalloc(chain_scratch_bytes(&p), 4096);
		scratch_bytes = scratch ? chain_scratch_bytes(&p) : 0;
		if (!scratch) {
			r->why = "kalloc failed (chain scratch)";
			return -1;
		}
	}
	if (r->phys_hi) {	/* not pooled: each node's run gets its own memory */
		base = mm_map_buffer_in(r->ws, r->ps, r->phys_lo, r->phys_hi);
		if (!base)
			r->why = "no free memory of that size in the node's range";
	} else {
		base = buffer(r->ws, r->ps, &r->why);
	}
	if (!base)
		return -1;
	r->base = base;
	if (chain_build(&r->chain, base, &p, scratch)) {
		r->why = "chain_build rejected the parameters";
		return -1;
	}
	r->walk_len = chain_walk_len(&r->chain);
	r->build_ticks = rdtsc() - t0;
	if (r->walk_len != r->chain.nodes) {
		r->why = "the chain is not one cycle through every node";
		return -2;
	}
	return time_it(r);
}

int kload_level_run(struct load_run *r, enum load_level l, const char **note)
{
	static const char *const names[LOAD_NLEVELS] = { "load_l1", "load_l2", "load_l3",
							 "load_dram" };
	int rc;

	*r = (struct load_run){ .name = names[l], .kind = CHASE_LOAD, .ps = PS_2M, .stride = 64 };
	r->ws = kload_ws(l, note);
	rc = load_run(r);
	if (!rc) {
		level_last[l] = *r;
		level_done[l] = true;
	}
	return rc;
}

const struct load_run *kload_level_last(enum load_level l)
{
	return l < LOAD_NLEVELS && level_done[l] ? &level_last[l] : NULL;
}

static void info_line(void *t, const char *line)
{
	kt_info(t, "%s", line);
}

void load_run_print(struct ktest *t, const struct load_run *r)
{
	load_run_lines(info_line, t, r, tsc_hz);
}

void kload_test_begin(void)
{
	memset(pool, 0, sizeof(pool));
	scratch = NULL;
	scratch_bytes = 0;
}

void kload_print_geometry(struct ktest *t)
{
	(void)t;	/* the geometry is in the header (`# cache:` lines, kload_header) */
	(void)kload_geometry();
}

void kload_check_chain(struct ktest *t, const struct load_run *r)
{
	kt_check(t, r->walk_len == r->chain.nodes, "chain_cycle");
	kt_check(t, !r->chain.near_left && !r->chain.page_left, "chain_placement");
}
