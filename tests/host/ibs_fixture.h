/*
 * ibs_fixture.h: the IBS host tests' start (tests/host/ibs_test.c, ibs_hostile_test.c): the
 * virtual clock from 0, the IBS model as row m in the given APIC mode and PMI delivery, the
 * CPU and IBS probes run against it into `caps`.
 */
#ifndef TESTS_HOST_IBS_FIXTURE_H
#define TESTS_HOST_IBS_FIXTURE_H

#include "ibs/ibs_caps.h"
#include "kernel/cpu.h"
#include "model/ibs_model.h"
#include "model/vclock.h"

static struct ibs_caps caps;

static inline const struct ibs_caps *setup(const struct ibs_model_cpu *m, enum apic_mode mode,
					   enum pmi_delivery pmi)
{
	struct cpu_info ci;

	vclock_reset(0, 1);
	ibs_model_init(m, mode, pmi);
	cpu_probe(&ci);
	ibs_caps_probe(&caps, &ci);
	return &caps;
}

#endif
