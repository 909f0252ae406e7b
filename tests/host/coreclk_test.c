/*
 * coreclk_test.c: the core/TSC estimator of tools/coreclk.c on the virtual clock
 * (tests/model/vclock.h). A modelled core runs the IMUL chain at its clock: each chain of n
 * steps advances the TSC by n x latency x tsc_hz / core_hz ticks (plus the preemptions a test
 * plants), and its cycles counter, where it has one, counts n x latency. Checked: the figure
 * from the chain and from the counter, the counter preferred, a counter that does not count
 * refused, the best run kept and the runs stopped once the best stops improving, the chain
 * lengthened until a run is long, CPUID 16H's range (zeros: absent) and AMD's, and an
 * implausible figure (the dependent-ADD failure: a chain the core runs 5.8x faster than
 * assumed) flagged.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/vclock.h"
#include "tools/coreclk.h"

struct core {
	uint64_t core_hz, tsc_hz;
	unsigned lat_x10;		/* the chain's true latency per step, x10 */
	uint64_t cycles;		/* the counter */
	bool has_counter, counter_dead;
	uint64_t extra[32];		/* ticks added to run i (a preemption) */
	unsigned runs;
};

static void chain(void *ctx, uint64_t n)
{
	struct core *c = ctx;
	uint64_t cyc = n * c->lat_x10 / 10;

	vclock_advance(cyc * c->tsc_hz / c->core_hz + (c->runs < 32 ? c->extra[c->runs] : 0));
	c->runs++;
	if (!c->counter_dead)
		c->cycles += cyc;
}

static int copen(void *ctx, char *why, size_t n)
{
	struct core *c = ctx;

	if (c->has_counter)
		return 0;
	snprintf(why, n, "no PMU");
	return -1;
}

static uint64_t cread(void *ctx)
{
	return ((struct core *)ctx)->cycles;
}

static struct cc_ops ops_for(struct core *c)
{
	vclock_reset(1000, 0);	/* reading the TSC costs no time: the figures are exact */
	return (struct cc_ops){ .imul_chain = chain, .cycles_open = copen, .cycles_read = cread,
				.ctx = c };
}

/* Skylake (06_5EH), TSC 2.4 GHz, CPUID 16H 2400..4000 MHz, core at 3.6 GHz, no counter. */
static void test_imul_intel(void **state)
{
	struct core c = { .core_hz = 3600000000u, .tsc_hz = 2400000000u, .lat_x10 = 30 };
	struct cc_ops ops = ops_for(&c);
	struct cc_cpu cpu = { .intel = true, .family = 6, .model = 0x5e, .base_mhz = 2400,
			      .max_mhz = 4000, .tsc_hz = 2400000000u };
	struct cc_result r;
	char b[320];

	(void)state;
	cc_estimate(&ops, &cpu, &r);
	assert_string_equal(r.source, "IMUL chain");
	assert_int_equal(r.imul_lat, 3);
	assert_true(r.imul_lat_documented);
	assert_int_equal(r.ratio_x1000, 1500);
	assert_int_equal(r.lo_x1000, 900);	/* 2400 x 0.9 / 2400 */
	assert_int_equal(r.hi_x1000, 1833);	/* 4000 x 1.1 / 2400 */
	assert_true(r.plausible);
	cc_describe(&r, b, sizeof(b));
	assert_string_equal(b, "1.500 (IMUL chain, 3-cycle latency; no perf cycles: no PMU); "
			    "plausible 0.900..1.833 (CPUID 16H base..max over the TSC, +-10 %)");
}

/* The failure the IMUL chain replaces: a chain that retires 5.8x faster than its assumed
 * latency (dependent ADDs resolved at rename) reads 5.8x too high, outside 16H's range. */
static void test_implausible(void **state)
{
	struct core c = { .core_hz = 3600000000u, .tsc_hz = 2400000000u, .lat_x10 = 30 * 10 / 58 };
	struct cc_ops ops = ops_for(&c);
	struct cc_cpu cpu = { .intel = true, .family = 6, .model = 0x97, .base_mhz = 2400,
			      .max_mhz = 4000, .tsc_hz = 2400000000u };
	struct cc_result r;
	char b[320];

	(void)state;
	cc_estimate(&ops, &cpu, &r);
	assert_true(r.ratio_x1000 > 8000);
	assert_false(r.plausible);
	cc_describe(&r, b, sizeof(b));
	assert_non_null(strstr(b, "IMPLAUSIBLE, outside 0.900..1.833"));
}

/* A counter: its figure is used, the chain's is kept beside it and agrees. */
static void test_perf_preferred(void **state)
{
	struct core c = { .core_hz = 4000000000u, .tsc_hz = 2000000000u, .lat_x10 = 30,
			  .has_counter = true };
	struct cc_ops ops = ops_for(&c);
	struct cc_cpu cpu = { .intel = true, .family = 6, .model = 0x8f, .tsc_hz = 2000000000u };
	struct cc_result r;
	char b[320];

	(void)state;
	cc_estimate(&ops, &cpu, &r);
	assert_string_equal(r.source, "perf cycles");
	assert_int_equal(r.perf_x1000, 2000);
	assert_int_equal(r.imul_x1000, 2000);
	assert_false(r.disagree);
	assert_int_equal(r.hi_x1000, 0);	/* no 16H: no range, said so */
	assert_true(r.plausible);
	cc_describe(&r, b, sizeof(b));
	assert_string_equal(b, "2.000 (perf cycles; IMUL chain 2.000, agrees); no plausible range "
			    "known (no CPUID 16H)");
	/* The counter sees the truth where the chain's latency assumption is wrong (3.5 cycles):
	 * perf is used and the disagreement said. */
	c = (struct core){ .core_hz = 4000000000u, .tsc_hz = 2000000000u, .lat_x10 = 35,
			   .has_counter = true };
	ops = ops_for(&c);
	cc_estimate(&ops, &cpu, &r);
	assert_int_equal(r.ratio_x1000, 2000);
	assert_int_equal(r.imul_x1000, 1714);
	assert_true(r.disagree);
	/* A counter that opens and never counts (a vPMU that drops it) is not used. */
	c = (struct core){ .core_hz = 4000000000u, .tsc_hz = 2000000000u, .lat_x10 = 30,
			   .has_counter = true, .counter_dead = true };
	ops = ops_for(&c);
	cc_estimate(&ops, &cpu, &r);
	assert_string_equal(r.source, "IMUL chain");
	assert_int_equal(r.ratio_x1000, 2000);
	assert_string_equal(r.why_no_perf, "the cycles counter opened but did not count");
}

/* Preempted runs only add time: the best run is kept; runs stop when CC_STABLE_RUNS in a row
 * do not improve on it. */
static void test_best_run(void **state)
{
	struct core c = { .core_hz = 3000000000u, .tsc_hz = 3000000000u, .lat_x10 = 30,
			  .extra = { 500000, 0, 90000, 0, 0, 0, 0, 0, 0 } };
	struct cc_ops ops = ops_for(&c);
	uint64_t t;

	(void)state;
	t = cc_best_ticks(&ops, 1 << 20, NULL);
	assert_int_equal(t, 3u << 20);
	/* run 1 (preempted) sets the best, run 2 improves it, runs 3-5 do not: 5 runs */
	assert_int_equal(c.runs, 5);
	/* every run preempted by less and less: it keeps improving up to CC_MAX_RUNS */
	c = (struct core){ .core_hz = 3000000000u, .tsc_hz = 3000000000u, .lat_x10 = 30 };
	for (unsigned i = 0; i < 32; i++)
		c.extra[i] = (32 - i) * 100000;
	ops = ops_for(&c);
	t = cc_best_ticks(&ops, 1 << 20, NULL);
	assert_int_equal(c.runs, CC_MAX_RUNS);
	assert_int_equal(t, (3u << 20) + (32 - CC_MAX_RUNS + 1) * 100000);
}

/* The chain doubles from CC_MIN_STEPS until a run takes CC_MIN_RUN_US. */
static void test_chain_len(void **state)
{
	struct core c = { .core_hz = 2000000000u, .tsc_hz = 2000000000u, .lat_x10 = 30 };
	struct cc_ops ops = ops_for(&c);

	(void)state;
	/* 500 us at 2 GHz = 1e6 ticks = 333334 steps of 3 cycles: 4096 x 2^7 = 524288 */
	assert_int_equal(cc_chain_len(&ops, 2000000000u), 524288);
	assert_int_equal(c.runs, 8);
}

/* Latencies and ranges by CPU. */
static void test_tables(void **state)
{
	struct cc_cpu merom = { .intel = true, .family = 6, .model = 0x0f };
	struct cc_cpu zen = { .amd = true, .family = 0x19, .tsc_hz = 2596000000u };
	struct cc_cpu atom = { .intel = true, .family = 6, .model = 0x5c };
	struct cc_cpu zero16 = { .intel = true, .family = 6, .model = 0x55, .tsc_hz = 2000000000u };
	uint64_t lo, hi;
	const char *src;
	bool doc;

	(void)state;
	assert_int_equal(cc_imul_latency(&merom, &doc), 5);
	assert_true(doc);
	assert_int_equal(cc_imul_latency(&zen, &doc), 3);
	assert_true(doc);
	assert_int_equal(cc_imul_latency(&atom, &doc), 3);
	assert_false(doc);	/* assumed, and the line says so */
	assert_true(cc_range(&zen, &lo, &hi, &src));
	assert_int_equal(lo, 900);
	assert_int_equal(hi, 2000);
	assert_false(cc_range(&zero16, &lo, &hi, &src));	/* 16H all zero: absent */
	zero16.base_mhz = 2000;					/* max 0: absent too */
	assert_false(cc_range(&zero16, &lo, &hi, &src));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_imul_intel),
		cmocka_unit_test(test_implausible),
		cmocka_unit_test(test_perf_preferred),
		cmocka_unit_test(test_best_run),
		cmocka_unit_test(test_chain_len),
		cmocka_unit_test(test_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
