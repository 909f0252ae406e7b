/*
 * pmu_fixture.h: what every PMU-model host test does first and last: bring up a modelled CPU
 * and probe it as the kernel would, and assert that the driver broke no SDM rule the model
 * enforces (printing each violation by name when it did).
 */
#ifndef TESTS_MODEL_PMU_FIXTURE_H
#define TESTS_MODEL_PMU_FIXTURE_H

#include "kernel/cpu.h"
#include "model/pmu_model.h"
#include "pebs/caps.h"

void pmu_fixture_probe(const struct model_cpu *m, struct cpu_info *ci, struct pebs_caps *caps);
void pmu_fixture_assert_clean(void);

#endif
