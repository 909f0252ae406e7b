/*
 * chase_test.c: the timed kernels on the host (loads/chase.c, its TSC reads on the virtual
 * clock of tests/model/vclock.h): the kernels keep the chain intact and end where the walk
 * says they end, the measurement sizes its repetitions from the probe, honours its
 * configuration and hooks and reports exactly what the clock said, the fixed-point helpers
 * are exact.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "loads/chase.h"
#include "loads/steady.h"
#include "model/vclock.h"

static uint8_t *buf;
static uint32_t *scratch;
static struct chain ch;

static void build(uint64_t bytes, bool vary)
{
	struct chain_params p = { .bytes = bytes, .stride = 64, .line = 64, .page = 4096,
				  .seed = 9, .vary_slot = vary };

	free(buf);
	free(scratch);
	buf = aligned_alloc(4096, bytes);
	scratch = malloc(chain_scratch_bytes(&p));
	assert_non_null(buf);
	assert_non_null(scratch);
	memset(buf, 0, bytes);
	assert_int_equal(chain_build(&ch, buf, &p, scratch), 0);
}

/* Where the plain walk is after `steps` steps. */
static uintptr_t walk(uint64_t steps)
{
	uintptr_t q = ch.head;

	while (steps--)
		memcpy(&q, (void *)q, sizeof(q));
	return q;
}

static void test_kernels_follow_chain(void **state)
{
	(void)state;
	build(64 << 10, true);
	assert_true(chase_loads(ch.head, 160) == walk(160));
	assert_true(chase_loads(ch.head, ch.nodes) == ch.head);	/* nodes = 1024: a lap */
	assert_true(chase_lfb(ch.head, 160) == walk(160));
	assert_true(chase_store(ch.head, 4 * ch.nodes) == ch.head);
	/* The store kernel writes the slot after the pointer: the chain survives it. */
	assert_int_equal(chain_walk_len(&ch), ch.nodes);
}

static unsigned n_off, n_on;
static uint64_t fake_core;

static uint64_t irq_off(void)
{
	n_off++;
	return 0x200;
}

static void irq_on(uint64_t st)
{
	assert_int_equal(st, 0x200);
	n_on++;
}

static uint64_t core(void *ctx)
{
	assert_ptr_equal(ctx, &fake_core);
	return fake_core += 1000;	/* 1000 "cycles" between the two reads of a rep */
}

/* The TSC reads of one chase_measure(), in order: the start, one after each warm-up lap
 * (loads/steady.h: a 256-node chain laps in units of STEADY_MIN_UNIT steps), two per
 * repetition, the end. Scripted (tests/model/vclock.h): laps of 50, 40, 40 ticks per step
 * (the last two agree: steady after 3 laps), the last makes per_step 41, so a rep gets 2e6 / 5 / 41 = 9756 steps, rounded up to 9760; the five
 * repetitions take 50, 30, 40, 10 and 20 ticks per step. */
#define REP_STEPS 9760u
static const uint64_t measure_script[] = {
	7, STEADY_MIN_UNIT * 50, STEADY_MIN_UNIT * 40, STEADY_MIN_UNIT * 40,
	100, 50 * REP_STEPS, 100, 30 * REP_STEPS, 100, 40 * REP_STEPS,
	100, 10 * REP_STEPS, 100, 20 * REP_STEPS,
	3,
};

static void test_measure(void **state)
{
	struct chase_hooks h = { irq_off, irq_on, core, &fake_core };
	struct chase_cfg cfg = { .kind = CHASE_LOAD, .reps = 5, .budget_ticks = 2000000,
				 .min_steps = 100, .hooks = &h };
	struct chase_result r;
	uint64_t total = 0;

	(void)state;
	build(16 << 10, true);
	vclock_reset(0, 1000);
	vclock_script(measure_script, 15);
	assert_int_equal(chase_measure(&ch, &cfg, &r), 0);
	assert_int_equal(vclock.reads, 15);
	assert_int_equal(n_off, 5);
	assert_int_equal(n_on, 5);
	assert_true(r.have_core && r.irqs_off);
	assert_int_equal(r.steps_per_rep, REP_STEPS);
	assert_int_equal(r.core_med_x100, 1000 * 100 / REP_STEPS);
	assert_int_equal(r.tsc_med_x100, 3000);		/* ticks per step x 100 */
	assert_int_equal(r.tsc_min_x100, 1000);
	assert_int_equal(r.tsc_max_x100, 5000);
	for (unsigned i = 1; i < 15; i++)
		total += measure_script[i];
	assert_int_equal(r.total_ticks, total);
	assert_int_equal(r.laps_x100, REP_STEPS * 100 / ch.nodes);
	assert_int_equal(r.warm_steps, 3 * STEADY_MIN_UNIT);
	assert_int_equal(r.warm_laps, 3);
	assert_false(r.warm_bound);
	assert_int_equal(r.loads_per_step, 1);

	/* A slow last lap (1e6 ticks per step) leaves less than min_steps in the budget: 100,
	 * rounded up to 112. */
	vclock_reset(0, 1000);
	vclock_script((const uint64_t[]){ 7, STEADY_MIN_UNIT * 1000000ull,
					  STEADY_MIN_UNIT * 1000000ull }, 3);
	assert_int_equal(chase_measure(&ch, &cfg, &r), 0);
	assert_int_equal(r.steps_per_rep, 112);

	/* Re-warm laps for small chains, a capped warm-up, no hooks. */
	cfg.hooks = NULL;
	cfg.rewarm_steps = ch.nodes;
	cfg.warm_max_steps = 64;
	assert_int_equal(chase_measure(&ch, &cfg, &r), 0);
	assert_false(r.have_core || r.irqs_off);
	/* two 64-step laps of 1000 ticks each agree at once */
	assert_int_equal(r.warm_steps, 2 * 64 + 5 * ch.nodes);
	assert_int_equal(r.warm_laps, 2);
	/* per_step 1000 / 64 + 1 = 16: 2e6 / 5 / 16 = 25000 steps per rep, rounded to 25008 */
	assert_int_equal(r.steps_per_rep, 25008);

	cfg.kind = CHASE_LFB;
	assert_int_equal(chase_measure(&ch, &cfg, &r), 0);
	assert_int_equal(r.loads_per_step, 8);
	cfg.reps = 0;
	assert_int_equal(chase_measure(&ch, &cfg, &r), -1);
	cfg.reps = CHASE_MAX_REPS + 1;
	assert_int_equal(chase_measure(&ch, &cfg, &r), -1);
}

static void test_helpers(void **state)
{
	uint64_t v[5] = { 5, 1, 4, 2, 3 }, w[4] = { 10, 40, 20, 30 };

	(void)state;
	assert_int_equal(chase_median(v, 5), 3);
	assert_int_equal(v[0], 1);
	assert_int_equal(v[4], 5);
	assert_int_equal(chase_median(w, 4), 25);
	/* 4.50 ticks at 2.25 GHz = 2.00 ns; 450 ticks at 2.445 GHz = 184.05 ns */
	assert_int_equal(chase_ns_x100(450, 2250000000ull), 200);
	assert_int_equal(chase_ns_x100(45000, 2445000000ull), 18405);
	assert_int_equal(chase_ns_x100(450, 0), 0);
}

static int teardown(void **state)
{
	(void)state;
	free(buf);
	free(scratch);
	buf = NULL;
	scratch = NULL;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernels_follow_chain),
		cmocka_unit_test(test_measure),
		cmocka_unit_test(test_helpers),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
