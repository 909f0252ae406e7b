/*
 * percpu.h: the PEBS state of one CPU (issue 15), so that each CPU that runs a PEBS step has
 * its own everything: its CPUID probe and capabilities (PERF_CAPABILITIES record format and
 * the hybrid core type from CPUID.1AH, SDM Vol. 2A "CPUID Leaf 1AH"), its measurement with
 * its own session, DS area and PEBS buffer (SDM Vol. 3B 18.4.9 "Debug Store (DS)
 * Mechanism": IA32_DS_AREA is per logical processor), its PMI (taken through its own LVTPC
 * and routed by its local APIC id, pebs/pmi.c) and the decoder row of its core type
 * (pebs/datasrc.c). Nothing here is global: the caller keeps one struct per CPU (the per-CPU
 * data of the SMP bring-up, or an array in a host test over the multi-CPU PMU model).
 */
#ifndef PEBS_PERCPU_H
#define PEBS_PERCPU_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/cpu.h"
#include "pebs/caps.h"
#include "pebs/measure.h"

struct pebs_cpu {
	uint32_t apic_id;	/* the CPU this state belongs to */
	struct cpu_info ci;	/* its CPUID probe */
	struct pebs_caps caps;	/* its PMU/PEBS capabilities */
	struct pebs_measure meas;	/* its session, DS area, buffer and aggregation */
	bool probed;
};

/* Probe the CPU this runs on into pc (CPUID, capability MSRs through the _safe accessors).
 * Run it on each CPU once, before its first measurement. */
void pebs_cpu_init(struct pebs_cpu *pc);

/* The core type of pc as the decoder's selector (PEBS_CORE_ANY on non-hybrid parts). */
enum pebs_core pebs_cpu_core(const struct pebs_cpu *pc);

/*
 * One measurement (pebs/measure.h) on pc's CPU with pc's capabilities, session and decoder.
 * Must run on that CPU: from another CPU (its APIC id differs) or before pebs_cpu_init it
 * returns -1 with meas.err saying so, and programs nothing.
 */
int pebs_cpu_measure(struct pebs_cpu *pc, const struct pebs_measure_cfg *cfg);

#endif
