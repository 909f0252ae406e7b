/*
 * pmu_fixture.c: shared setup and rule check for the PMU-model host tests (pmu_fixture.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/pmu_fixture.h"

void pmu_fixture_probe(const struct model_cpu *m, struct cpu_info *ci, struct pebs_caps *caps)
{
	model_init(m);
	cpu_probe(ci);
	pebs_caps_probe(caps, ci);
}

void pmu_fixture_assert_clean(void)
{
	for (unsigned i = 0; i < model_violation_count(); i++)
		print_error("model violation: %s\n", model_violation(i));
	assert_int_equal(model_violation_count(), 0);
}
