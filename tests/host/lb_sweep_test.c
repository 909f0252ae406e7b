/*
 * lb_sweep_test.c: tools/loadbench's sweep plan and measured warm-up rule (tools/lb_sweep.c),
 * driven through chase_measure on the virtual clock (tests/model/vclock.h): the default sweep
 * under a CPUID that claims a 480 MiB L3 is cut to the memory cap with its reason, one that
 * fits is not; a size is taken as past every cache only after LB_PAST_CONFIRM full-lap
 * measurements in a row that stayed at DRAM-like latency when warmed (not after one noisy one,
 * not for a set that warms into a cache), and from there on its warm-up runs capped laps,
 * whatever CPUID says.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "loads/chase.h"
#include "loads/steady.h"
#include "model/vclock.h"
#include "tools/lb_sweep.h"

#define MIB (1ull << 20)

static void test_default_sizes(void **state)
{
	uint64_t s[256];
	char why[320];
	unsigned n;

	(void)state;
	/* The VM: CPUID L3 480 MiB, sweep to 1920 MiB at 4 points an octave would keep
	 * ~11 GiB resident: cut at the cap, and why. */
	n = lb_default_sizes(480 * MIB, 4, LB_MEM_CAP, s, 256, why, sizeof(why));
	assert_true(n > 30);
	assert_true(lb_resident_bytes(s, n) <= LB_MEM_CAP);
	assert_true(lb_resident_bytes(s, n + 1) > LB_MEM_CAP);
	assert_int_equal(s[0], 16 << 10);
	assert_true(s[n - 1] >= 128 * MIB && s[n - 1] < 512 * MIB);
	assert_string_equal(why, "sizes up to 1722M (4x CPUID's L3 of 480M) would keep 10.9G "
			    "resident; the sweep stops at 215M, under --max-mem 1536M");
	/* A 32 MiB L3: 16K..128M fits, no cut, no reason. */
	n = lb_default_sizes(32 * MIB, 4, LB_MEM_CAP, s, 256, why, sizeof(why));
	assert_int_equal(s[n - 1], 128 * MIB);
	assert_string_equal(why, "");
	/* Resident: every chain rounded to 2 MiB, plus the builder's scratch. */
	s[0] = 16 << 10;
	s[1] = 3 * MIB;
	assert_true(lb_resident_bytes(s, 2) >= 6 * MIB);
}

static struct chain ch;

/* A 4096-node chain (256 KiB) in static storage: each full warm-up lap is one timed unit. */
static void build(void)
{
	static uint8_t mem[256 << 10] __attribute__((aligned(4096)));
	static uint32_t tmp[(256 << 10) / 64 * 2];
	const struct chain_params p = { .bytes = sizeof(mem), .stride = 64, .line = 64,
					.page = 4096, .seed = 5, .vary_slot = true };

	assert_true(chain_scratch_bytes(&p) <= sizeof(tmp));
	if (!ch.nodes)
		assert_int_equal(chain_build(&ch, mem, &p, tmp), 0);
	assert_int_equal(ch.nodes, STEADY_MIN_UNIT);
}

/* One chase_measure on the virtual clock: the start read, one read per warm-up lap at the
 * scripted ticks per step, then every read `rep` ticks apart (a repetition's two reads: the
 * timed figure is rep / steps per repetition). */
static void measure(struct lb_warm *w, uint64_t size, const uint64_t *lap_per_step,
		    unsigned laps, uint64_t rep, struct chase_result *r)
{
	struct chase_cfg cfg = { .kind = CHASE_LOAD, .reps = 3, .budget_ticks = 3000000,
				 .min_steps = 32 };
	uint64_t s[VCLOCK_SCRIPT_MAX];

	lb_warm_cfg(w, size, &cfg);
	s[0] = 7;
	for (unsigned i = 0; i < laps; i++)
		s[1 + i] = lap_per_step[i] * (cfg.warm_max_steps && cfg.warm_max_steps < ch.nodes ?
					      cfg.warm_max_steps : ch.nodes);
	vclock_reset(0, rep);
	vclock_script(s, laps + 1);
	assert_int_equal(chase_measure(&ch, &cfg, r), 0);
}

/* Measure `size` with those warm-up laps, its fastest repetition `min_x100` (TSC x100 a
 * load), and let the rule learn from it. */
static bool note(struct lb_warm *w, uint64_t size, const uint64_t *laps, unsigned n,
		 uint64_t min_x100, struct chase_result *r)
{
	measure(w, size, laps, n, 0, r);
	r->tsc_min_x100 = min_x100;
	return lb_warm_note(w, size, ch.nodes, r);
}

/* L1 reference: 2 ticks a load. */
static void l1(struct lb_warm *w)
{
	struct chase_result r = { .tsc_min_x100 = 200, .warm_laps = 2 };

	*w = (struct lb_warm){ 0 };
	assert_false(lb_warm_note(w, 16 << 10, 256, &r));
	assert_int_equal(w->l1_x100, 200);
}

static void test_past_every_cache(void **state)
{
	const uint64_t dram[] = { 400, 400 }, cold[] = { 400, 60, 60 }, l3warm[] = { 30, 30 };
	struct chase_result r;
	struct lb_warm w;

	(void)state;
	build();
	l1(&w);
	/* A set in the L3, cold at first: 400 -> 60 -> 60 ticks a step, 30x L1: not "past". */
	assert_false(note(&w, 4 * MIB, cold, 3, 6000, &r));
	assert_int_equal(r.warm_laps, 3);
	/* A set that stayed warm (everything fits): 15x L1, not DRAM. */
	assert_false(note(&w, 8 * MIB, l3warm, 2, 3000, &r));
	/* DRAM-like: warmed, still 200x L1. Once is not enough... */
	assert_false(note(&w, 16 * MIB, dram, 2, 40000, &r));
	assert_int_equal(r.warm_laps, 2);
	assert_int_equal(w.past, 0);
	/* ... a set that warms into a cache in between breaks the run ... */
	assert_false(note(&w, 24 * MIB, cold, 3, 6000, &r));
	/* ... twice in a row, sizes not decreasing: the mark is the second (the first may have
	 * been noise). */
	assert_false(note(&w, 32 * MIB, dram, 2, 40000, &r));
	assert_true(note(&w, 64 * MIB, dram, 2, 41000, &r));
	assert_int_equal(w.past, 64 * MIB);
	/* From there on: capped laps (LB_WARM_PAST_STEPS) and at most STEADY_PAST_LLC_LAPS; below
	 * it full laps, as before (32M too: it was measured only once). */
	{
		const uint64_t never[] = { 400, 300, 400, 300, 400 };
		struct chase_cfg cfg = { 0 };

		measure(&w, 128 * MIB, never, 5, 1000, &r);
		assert_int_equal(r.warm_laps, STEADY_PAST_LLC_LAPS);
		assert_true(r.warm_bound);
		assert_int_equal(r.warm_steps, STEADY_PAST_LLC_LAPS * ch.nodes);	/* < the cap */
		lb_warm_cfg(&w, 128 * MIB, &cfg);
		assert_int_equal(cfg.warm_max_steps, LB_WARM_PAST_STEPS);
		assert_int_equal(cfg.warm_max_laps, STEADY_PAST_LLC_LAPS);
		lb_warm_cfg(&w, 32 * MIB, &cfg);
		assert_int_equal(cfg.warm_max_steps, 0);
		assert_int_equal(cfg.warm_max_laps, 0);
	}
}

/* One noisy measurement (a neighbour thrashing the L3: an L3 size reads as DRAM, cold and
 * warm alike) followed by a smaller size does not set the mark: the run must not go down. */
static void test_noise_not_confirmed(void **state)
{
	struct chase_result r = { .warm_laps = 2, .tsc_min_x100 = 40000,
				  .warm_ticks = 2 * 4096 * 400 };
	struct lb_warm w;

	(void)state;
	l1(&w);
	assert_false(lb_warm_note(&w, 4 * MIB, 4096, &r));
	assert_false(lb_warm_note(&w, 2 * MIB, 4096, &r));	/* smaller: a new run */
	assert_int_equal(w.past, 0);
	assert_true(lb_warm_note(&w, 2 * MIB, 4096, &r));	/* same size again: confirmed */
	assert_int_equal(w.past, 2 * MIB);
	/* A busy machine: most repetitions preempted (a DRAM-like median), the fastest one an L3
	 * hit. The rule reads the fastest (preemption only adds time): not past. */
	w = (struct lb_warm){ 0 };
	l1(&w);
	r.tsc_med_x100 = 40000;
	r.tsc_min_x100 = 3000;
	assert_false(lb_warm_note(&w, 4 * MIB, 4096, &r));
	assert_false(lb_warm_note(&w, 8 * MIB, 4096, &r));
	assert_int_equal(w.past, 0);
	r.tsc_min_x100 = 40000;
	/* Without an L1 reference nothing is ever "past": full laps, the safe side. */
	w = (struct lb_warm){ 0 };
	assert_false(lb_warm_note(&w, 256 * MIB, 4096, &r));
	assert_false(lb_warm_note(&w, 512 * MIB, 4096, &r));
	assert_int_equal(w.past, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_sizes),
		cmocka_unit_test(test_past_every_cache),
		cmocka_unit_test(test_noise_not_confirmed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
