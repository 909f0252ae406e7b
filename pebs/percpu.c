/*
 * percpu.c: per-CPU PEBS state (percpu.h): probe on the CPU itself, then measurements that
 * refuse to program another CPU's PMU. SDM Vol. 3B 18.4.9 (DS area per logical processor),
 * Vol. 2A CPUID leaf 1AH (core type).
 */
#include "pebs/percpu.h"
#include "apic/apic.h"
#include "kernel/fmt.h"

#include <string.h>

void pebs_cpu_init(struct pebs_cpu *pc)
{
	memset(pc, 0, sizeof(*pc));
	pc->apic_id = apic_id();
	cpu_probe(&pc->ci);
	pebs_caps_probe(&pc->caps, &pc->ci);
	pc->probed = true;
}

enum pebs_core pebs_cpu_core(const struct pebs_cpu *pc)
{
	return pebs_measure_core(&pc->caps);
}

int pebs_cpu_measure(struct pebs_cpu *pc, const struct pebs_measure_cfg *cfg)
{
	uint32_t here = apic_id();

	if (!pc->probed) {
		fmt_snprintf(pc->meas.err, sizeof(pc->meas.err),
			     "per-CPU PEBS state used before pebs_cpu_init");
		return -1;
	}
	if (here != pc->apic_id) {
		fmt_snprintf(pc->meas.err, sizeof(pc->meas.err),
			     "PEBS state of APIC id %u used on APIC id %u: a CPU programs only "
			     "its own PMU", pc->apic_id, here);
		return -1;
	}
	return pebs_measure_run(&pc->meas, &pc->caps, cfg);
}
