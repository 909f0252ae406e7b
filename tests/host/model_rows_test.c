/*
 * model_rows_test.c: the PMU model's CPUs (tests/model/pmu_model_cpus.c) against the generated
 * per-model rows (pebs/pmu_tables.c, from Intel perfmon and the hand tables in data/tables). The
 * model is the hardware the driver is tested on; where it accepted a counter its row does not
 * allow (Nehalem and Haswell load latency on PMC0-2: perfmon says PMC3), a driver choosing
 * from a wrong row passed. Every modelled PEBS CPU (legacy and architectural PEBS) must find
 * its row, and agree with it on the load-latency event and its counters and on the
 * store-sampling event.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "model/pmu_model.h"
#include "pebs/uarch.h"

/* CPUID.1:EAX -> DisplayFamily / DisplayModel (SDM Vol. 2A CPUID, Figure 3-6). */
static uint32_t display_family(uint32_t sig)
{
	uint32_t f = (sig >> 8) & 0xf;

	return f == 0xf ? f + ((sig >> 20) & 0xff) : f;
}

static uint32_t display_model(uint32_t sig)
{
	uint32_t f = (sig >> 8) & 0xf, m = (sig >> 4) & 0xf;

	return f == 0x6 || f == 0xf ? m | ((sig >> 12) & 0xf0) : m;
}

static unsigned check_cpus(const struct model_cpu *const *cpus)
{
	unsigned checked = 0;

	for (const struct model_cpu *const *pc = cpus; *pc; pc++) {
		const struct model_cpu *c = *pc;
		const struct pebs_uarch *u = pebs_uarch_find(display_family(c->signature),
							     display_model(c->signature),
							     c->core_type, 0);

		if (!u)
			fail_msg("%s (CPUID.1:EAX 0x%x): no row", c->name, c->signature);
		if (u->ll_event != c->ll_event || u->ll_gp != c->ll_gp)
			fail_msg("%s: load latency 0x%04x on 0x%x, row %s: 0x%04x on 0x%x", c->name,
				 c->ll_event, c->ll_gp, u->name, u->ll_event, u->ll_gp);
		if (u->st_event != c->st_event)
			fail_msg("%s: store event 0x%04x, row %s: 0x%04x", c->name, c->st_event,
				 u->name, u->st_event);
		checked++;
	}
	return checked;
}

static void test_model_cpus_match_rows(void **state)
{
	(void)state;
	assert_true(check_cpus(model_cpus) >= 9);
}

static void test_model_arch_cpus_match_rows(void **state)
{
	(void)state;
	assert_true(check_cpus(model_arch_cpus) >= 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_cpus_match_rows),
		cmocka_unit_test(test_model_arch_cpus_match_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
