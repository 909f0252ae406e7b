/*
 * topo_model.h: the topology of the PMU model's CPUs (issue 30), for tools/model-log's load_matrix
 * and load_c2c: packages, cores, SMT threads (CPUID 0BH/1FH levels, SDM Vol. 3A 9.9.1
 * "Hierarchical Mapping of Shared Resources"), NUMA nodes with the distances a firmware's SLIT
 * declares (ACPI 6.5 §5.2.17) and the latencies the model's loads take, which need not agree:
 * the declared table is what the kernel's verdicts compare the measured order with.
 * CPU numbering as Linux enumerates a 2-socket SMT machine: the first thread of every core,
 * package by package, then the second threads (arch/x86/kernel/smpboot.c order of the MADT).
 * Hostile knob (seeded, as every model behaviour): remote_faster_pct makes the model's node 1
 * -> node 0 loads that much faster than node 1's local ones (a wrong SLIT or a broken
 * measurement: remote_over_local must FAIL).
 */
#ifndef MODEL_TOPO_MODEL_H
#define MODEL_TOPO_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#define TOPO_MAX_CPUS  512u
#define TOPO_MAX_NODES 8u

struct topo_cpu {
	uint32_t package, core, thread, node;
};

struct topo_model {
	const char *name;
	unsigned packages, cores, threads;	/* per package: cores; per core: threads */
	unsigned snc;				/* CPU nodes per package */
	unsigned memonly;			/* memory-only nodes (CXL), after the CPU nodes */
	unsigned ncpu, nnodes;
	struct topo_cpu cpu[TOPO_MAX_CPUS];
	uint32_t node_pkg[TOPO_MAX_NODES];	/* ~0u: memory-only */
	uint8_t slit[TOPO_MAX_NODES][TOPO_MAX_NODES];	/* declared */
	unsigned lat_pct[TOPO_MAX_NODES][TOPO_MAX_NODES];	/* modelled, % of local DRAM */
	unsigned remote_faster_pct;		/* hostile knob, 0: off */
};

/* Named topologies: "2s" (2 packages x 4 cores x 2 threads, a node each), "2s-snc2-cxl"
 * (the same with SNC2 and a memory-only node on package 0), "2s-512" (2 x 128 x 2, SNC3).
 * false: no such name. */
bool topo_model_init(struct topo_model *t, const char *name, unsigned remote_faster_pct);
/* The node matrix cell: modelled ns x100 of a load from a CPU of `from` to memory of `to`,
 * given the local DRAM latency. */
uint64_t topo_model_mem_ns(const struct topo_model *t, unsigned from, unsigned to,
			   uint64_t local_x100);
/* The c2c cell: 0 SMT siblings, 1 the same package, 2 another package. */
unsigned topo_model_pair_class(const struct topo_model *t, unsigned a, unsigned b);
/* The first CPU of node n; -1 for a memory-only node. */
int topo_model_cpu_of_node(const struct topo_model *t, unsigned n);
/* "2s|2s-snc2-cxl|2s-512" */
const char *topo_model_names(void);

#endif
