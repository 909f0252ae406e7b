/*
 * plan_test.c: working-set sizing per level (loads/plan.c) for the machines the project
 * targets (this VM's EPYC, Skylake client, Sapphire Rapids-like, a tiny-L2 part), the
 * latency-curve sizes, and the plateau-step verdict.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "loads/plan.h"

#define K (1ull << 10)
#define M (1ull << 20)

static struct cache_geometry geo(uint64_t l1, uint64_t l2, uint64_t l3)
{
	struct cache_geometry g;

	memset(&g, 0, sizeof(g));
	g.l1d.size = l1;
	g.l2.size = l2;
	g.l3.size = l3;
	return g;
}

/* Every plan respects docs/latency-method.md §9 item 3 where the geometry allows it. */
static void check_rules(const struct cache_geometry *g)
{
	uint64_t l1 = load_ws(LOAD_L1, g), l2 = load_ws(LOAD_L2, g);
	uint64_t l3 = load_ws(LOAD_L3, g), dr = load_ws(LOAD_DRAM, g);

	assert_true(l1 <= g->l1d.size / 2);
	assert_true(l2 > g->l1d.size && l2 < g->l2.size);
	assert_true(l3 > g->l2.size && l3 <= g->l3.size / 2 + g->l2.size);
	assert_true(dr >= 8 * g->l3.size && dr >= LOAD_DRAM_MIN);
	assert_true(l1 < l2 && l2 < l3 && l3 < dr);
	assert_int_equal(l1 % 4096, 0);
	assert_int_equal(l2 % 4096, 0);
	assert_int_equal(l3 % 4096, 0);
}

static void test_ws(void **state)
{
	struct cache_geometry epyc = geo(32 * K, 512 * K, 32 * M);
	struct cache_geometry skl = geo(32 * K, 256 * K, 8 * M);
	struct cache_geometry spr = geo(48 * K, 2 * M, 105 * M);
	struct cache_geometry tiny = geo(32 * K, 64 * K, 1 * M);
	struct cache_geometry small_l3 = geo(32 * K, 512 * K, 1 * M);

	(void)state;
	assert_int_equal(load_ws(LOAD_L1, &epyc), 16 * K);
	assert_int_equal(load_ws(LOAD_L2, &epyc), 128 * K);
	assert_int_equal(load_ws(LOAD_L3, &epyc), 2 * M);
	assert_int_equal(load_ws(LOAD_DRAM, &epyc), 256 * M);
	assert_int_equal(load_ws(LOAD_L2, &skl), 64 * K);
	assert_int_equal(load_ws(LOAD_L3, &skl), 1 * M);
	assert_int_equal(load_ws(LOAD_DRAM, &skl), 64 * M);
	assert_int_equal(load_ws(LOAD_L1, &spr), 24 * K);
	assert_int_equal(load_ws(LOAD_L2, &spr), 512 * K);
	assert_int_equal(load_ws(LOAD_L3, &spr), 8 * M);
	assert_int_equal(load_ws(LOAD_L2, &tiny), 48 * K);	/* halfway: 2x L1d > L2/2 */
	assert_int_equal(load_ws(LOAD_L3, &tiny), 256 * K);	/* 4x L2 fits in L3/2 */
	assert_int_equal(load_ws(LOAD_L3, &small_l3), 768 * K);	/* halfway L2..L3 */
	check_rules(&epyc);
	check_rules(&skl);
	check_rules(&spr);
	check_rules(&tiny);
	assert_int_equal(load_ws(LOAD_NLEVELS, &epyc), 0);
	assert_string_equal(load_level_name(LOAD_DRAM), "DRAM");
	assert_string_equal(load_level_name(LOAD_NLEVELS), "?");
}

static void test_sweep_sizes(void **state)
{
	uint64_t s[300];
	unsigned n;

	(void)state;
	n = load_sweep_sizes(16 * K, 128 * M, 4, s, 300);
	assert_int_equal(n, 53);		/* 13 octaves x 4 + the end point */
	assert_int_equal(s[0], 16 * K);
	assert_int_equal(s[4], 32 * K);
	assert_int_equal(s[n - 1], 128 * M);
	for (unsigned i = 1; i < n; i++) {
		assert_true(s[i] > s[i - 1]);
		assert_true(s[i] * 100 <= s[i - 1] * 120);	/* 2^(1/4) = 1.19 */
		assert_int_equal(s[i] % 64, 0);
	}
	n = load_sweep_sizes(4 * K, 64 * K, 16, s, 300);
	assert_int_equal(n, 65);
	assert_int_equal(load_sweep_sizes(16 * K, 128 * M, 4, s, 10), 10);	/* bounded */
	assert_int_equal(load_sweep_sizes(16 * K, 8 * K, 4, s, 300), 0);
	assert_int_equal(load_sweep_sizes(16 * K, 1 * M, 0, s, 300), 0);
}

static void test_step_verdict(void **state)
{
	(void)state;
	/* This VM: L1 1.9 ns, L2 5.5, L3 22, DRAM 170 (x100). */
	assert_true(load_step_ok(190, 550, load_step_margin_pct[LOAD_L2]));
	assert_true(load_step_ok(550, 2200, load_step_margin_pct[LOAD_L3]));
	assert_true(load_step_ok(2200, 17000, load_step_margin_pct[LOAD_DRAM]));
	/* A working set that stayed in the level below: no step. */
	assert_false(load_step_ok(190, 200, load_step_margin_pct[LOAD_L2]));
	assert_false(load_step_ok(2200, 4000, load_step_margin_pct[LOAD_DRAM]));
	assert_true(load_step_ok(100, 150, 150));	/* the margin is inclusive */
	assert_false(load_step_ok(100, 149, 150));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ws),
		cmocka_unit_test(test_sweep_sizes),
		cmocka_unit_test(test_step_verdict),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
