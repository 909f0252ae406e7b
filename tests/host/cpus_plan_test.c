/*
 * cpus_plan_test.c: the plan of the per-CPU load test (loads/cpus_plan.c): the SKIP reason
 * for one CPU (with and without smp's reason), cpus=bsp, cpus=types on a part with one core
 * type, a list naming no AP; no SKIP once one AP is selected; kernel and subtest names per
 * CPU and level, and refusals out of range; the core-type labels of CPUID.1AH.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "loads/cpus_plan.h"

static void test_skip_reasons(void **state)
{
	struct cpus_plan_in in = { .online = 1, .mode = SMP_CPUS_ALL };
	char b[160];

	(void)state;
	assert_string_equal(cpus_plan_skip(&in, b, sizeof(b)), "one CPU online: the per-CPU "
			    "runs need an application processor (the MADT lists one processor)");
	in.why_none = "no MADT";
	assert_string_equal(cpus_plan_skip(&in, b, sizeof(b)), "one CPU online: the per-CPU "
			    "runs need an application processor (no MADT)");
	in.online = 4;
	in.mode = SMP_CPUS_BSP;
	assert_string_equal(cpus_plan_skip(&in, b, sizeof(b)), "cpus=bsp: the boot CPU only, "
			    "whose load tests are load_l1..load_dram");
	in.mode = SMP_CPUS_TYPES;
	in.aps = 0;	/* the boot CPU alone: no AP selected */
	assert_string_equal(cpus_plan_skip(&in, b, sizeof(b)), "cpus=types: no online CPU of "
			    "another core type than the boot CPU's (cpus=all runs every CPU)");
	in.mode = SMP_CPUS_LIST;
	assert_string_equal(cpus_plan_skip(&in, b, sizeof(b)),
			    "cpus=list selects no online application processor");
}

static void test_runs(void **state)
{
	struct cpus_plan_in in = { .online = 4, .mode = SMP_CPUS_TYPES, .aps = 1 };
	char b[160];

	(void)state;
	assert_null(cpus_plan_skip(&in, b, sizeof(b)));
	in.mode = SMP_CPUS_ALL;
	in.aps = 3;
	assert_null(cpus_plan_skip(&in, b, sizeof(b)));
	in.online = 1;	/* one CPU online wins over a stale selection */
	assert_non_null(cpus_plan_skip(&in, b, sizeof(b)));
}

static void test_names(void **state)
{
	char k[32], s[32];

	(void)state;
	assert_true(cpus_plan_names(2, 0, k, sizeof(k), s, sizeof(s)));
	assert_string_equal(k, "load_l1@cpu2");
	assert_string_equal(s, "cpu2_l1_");
	assert_true(cpus_plan_names(63, 3, k, sizeof(k), s, sizeof(s)));
	assert_string_equal(k, "load_dram@cpu63");
	assert_string_equal(s, "cpu63_dram_");
	assert_true(cpus_plan_names(4095, 0, k, sizeof(k), s, sizeof(s)));	/* no CPU limit */
	assert_string_equal(k, "load_l1@cpu4095");
	assert_false(cpus_plan_names(1, 4, k, sizeof(k), s, sizeof(s)));
	/* truncated, never overrun */
	assert_true(cpus_plan_names(12, 1, k, 6, s, 4));
	assert_string_equal(k, "load_");
	assert_string_equal(s, "cpu");
}

static void test_types(void **state)
{
	(void)state;
	assert_string_equal(cpus_plan_type(0x40), "P-core");
	assert_string_equal(cpus_plan_type(0x20), "E-core");
	assert_string_equal(cpus_plan_type(0), "-");
	assert_string_equal(cpus_plan_type(0x10), "-");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skip_reasons),
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_types),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
