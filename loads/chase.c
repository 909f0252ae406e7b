/*
 * chase.c: the timed kernels (see chase.h). The loops are plain C that GCC turns into
 * `mov (%rax),%rax` chains (checked with objdump); the kernel, tools/loadbench and the host
 * test compile this same file. It reads the TSC through the seam (kernel/hw.h): the real
 * counter in the kernel and loadbench, the virtual one (tests/model/vclock.c) in chase_test.
 */
#include "loads/chase.h"
#include "kernel/tsc.h"
#include "loads/steady.h"

#include <stddef.h>

#define LINE 64u

/* The end pointer lands here so no kernel can be optimised away. */
static volatile uintptr_t chase_sink;

#define LD(p) ((p) = *(const volatile uintptr_t *)(p))

uintptr_t chase_loads(uintptr_t p, uint64_t steps)
{
	for (uint64_t i = 0; i < steps; i += CHASE_UNROLL) {
		LD(p); LD(p); LD(p); LD(p); LD(p); LD(p); LD(p); LD(p);
		LD(p); LD(p); LD(p); LD(p); LD(p); LD(p); LD(p); LD(p);
	}
	return p;
}

/* Slot k (1..7) after p's slot, in p's line: an address known before *p returns. */
#define SLOT(p, k) (((p) & ~(uintptr_t)(LINE - 1)) | (((p) + 8 * (k)) & (LINE - 1)))
#define RD(a) (*(const volatile uintptr_t *)(a))

static inline uintptr_t lfb_step(uintptr_t p, uintptr_t *acc)
{
	uintptr_t next = RD(p);

	*acc += RD(SLOT(p, 1)) + RD(SLOT(p, 2)) + RD(SLOT(p, 3)) + RD(SLOT(p, 4)) +
		RD(SLOT(p, 5)) + RD(SLOT(p, 6)) + RD(SLOT(p, 7));
	return next;
}

uintptr_t chase_lfb(uintptr_t p, uint64_t steps)
{
	uintptr_t acc = 0;

	/* Not unrolled: 8 loads per step already, and unrolling made GCC spill to the stack. */
	for (uint64_t i = 0; i < steps; i++)
		p = lfb_step(p, &acc);
	chase_sink = acc;
	return p;
}

static inline uintptr_t store_step(uintptr_t p)
{
	uintptr_t next = RD(p);

	*(volatile uintptr_t *)SLOT(p, 1) = next;
	return next;
}

uintptr_t chase_store(uintptr_t p, uint64_t steps)
{
	for (uint64_t i = 0; i < steps; i += 4) {
		p = store_step(p);
		p = store_step(p);
		p = store_step(p);
		p = store_step(p);
	}
	return p;
}

static uintptr_t run_kind(enum chase_kind k, uintptr_t p, uint64_t steps)
{
	switch (k) {
	case CHASE_LFB:
		return chase_lfb(p, steps);
	case CHASE_STORE:
		return chase_store(p, steps);
	default:
		return chase_loads(p, steps);
	}
}

uint64_t chase_median(uint64_t *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++) {
		uint64_t x = v[i];
		unsigned j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

uint64_t chase_ns_x100(uint64_t tsc_x100, uint64_t hz)
{
	if (!hz)
		return 0;
	/* 64-bit only (no libgcc __udivti3 in the kernel): exact below 1.8e10 (x100 ticks). */
	if (tsc_x100 > UINT64_MAX / 2000000000u)
		return tsc_x100 / hz * 1000000000u;
	return (tsc_x100 * 1000000000u + hz / 2) / hz;
}

static uint64_t round_up(uint64_t x, uint64_t m)
{
	return (x + m - 1) / m * m;
}

int chase_measure(const struct chain *c, const struct chase_cfg *cfg, struct chase_result *r)
{
	static const struct chase_hooks none = { 0 };
	const struct chase_hooks *h = cfg->hooks ? cfg->hooks : &none;
	uint64_t tsc[CHASE_MAX_REPS], core[CHASE_MAX_REPS];
	uint64_t t_start, t0, t1, c0, c1, per_step, steps, rewarm, unit, lap;
	struct steady_rule rule = { 0 };
	struct steady_warm w;
	uintptr_t p = c->head;

	*r = (struct chase_result){ 0 };
	if (!c->nodes || cfg->reps < 1 || cfg->reps > CHASE_MAX_REPS ||
	    (cfg->kind != CHASE_LOAD && c->stride != LINE))
		return -1;
	r->reps = cfg->reps;
	r->loads_per_step = cfg->kind == CHASE_LFB ? 8 : 1;
	r->have_core = h->core_cycles != NULL;
	r->irqs_off = h->irq_off != NULL;

	/* Warm-up until steady (loads/steady.h): units of a full lap (at least
	 * STEADY_MIN_UNIT steps; capped past the last cache), each timed; the last one is the
	 * calibration that sizes the repetitions. */
	unit = round_up(c->nodes, CHASE_UNROLL);
	if (unit < STEADY_MIN_UNIT)
		unit = round_up(STEADY_MIN_UNIT, unit);
	if (cfg->warm_max_steps && unit > cfg->warm_max_steps)
		unit = cfg->warm_max_steps;
	unit = round_up(unit, CHASE_UNROLL);
	rule.max_ticks = cfg->warm_max_ticks;
	rule.max_laps = cfg->warm_max_laps;
	steady_begin(&w);
	t_start = t0 = rdtsc_ordered();
	do {
		p = run_kind(cfg->kind, p, unit);
		t1 = rdtsc_ordered();
		r->warm_steps += unit;
		lap = t1 - t0;
		t0 = t1;
	} while (steady_lap(&w, &rule, lap) == STEADY_WARMING);
	r->warm_laps = w.laps;
	r->warm_bound = w.state == STEADY_BOUND;
	r->warm_ticks = w.ticks;
	per_step = w.last / unit + 1;

	steps = cfg->budget_ticks / cfg->reps / per_step;
	if (steps < cfg->min_steps)
		steps = cfg->min_steps;
	steps = round_up(steps ? steps : 1, CHASE_UNROLL);
	r->steps_per_rep = steps;
	r->laps_x100 = steps * 100 / c->nodes;

	/* Only a whole lap warms what the next repetition reads; a partial one would not. */
	rewarm = c->nodes <= cfg->rewarm_steps ? round_up(c->nodes, CHASE_UNROLL) : 0;
	for (unsigned i = 0; i < cfg->reps; i++) {
		uint64_t fl;

		if (rewarm) {
			p = run_kind(cfg->kind, p, rewarm);
			r->warm_steps += rewarm;
		}
		fl = h->irq_off ? h->irq_off() : 0;
		c0 = h->core_cycles ? h->core_cycles(h->core_ctx) : 0;

		t0 = rdtsc_ordered();
		p = run_kind(cfg->kind, p, steps);
		t1 = rdtsc_ordered();
		c1 = h->core_cycles ? h->core_cycles(h->core_ctx) : 0;
		if (h->irq_on)
			h->irq_on(fl);
		tsc[i] = (t1 - t0) * 100 / steps;
		core[i] = (c1 - c0) * 100 / steps;
	}
	chase_sink = p;
	r->tsc_med_x100 = chase_median(tsc, cfg->reps);
	r->tsc_min_x100 = tsc[0];
	r->tsc_max_x100 = tsc[cfg->reps - 1];
	if (r->have_core)
		r->core_med_x100 = chase_median(core, cfg->reps);
	r->total_ticks = rdtsc_ordered() - t_start;
	return 0;
}
