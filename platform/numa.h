/*
 * numa.h: NUMA topology from the ACPI System Resource Affinity Table (SRAT, ACPI 6.5
 * §5.2.16: Processor Local APIC/SAPIC Affinity, Memory Affinity and Processor Local x2APIC
 * Affinity structures) and the System Locality Distance Information Table (SLIT, §5.2.17).
 * Pure C: the parsers read only the validated table bytes they are given; the lookups answer
 * "which node is this APIC id / this physical address on" for the per-CPU data and the
 * load_remote kernel. Proximity domains are numbered by firmware (any 32-bit value); nodes
 * are 0..nnodes-1 in ascending proximity-domain order. Without an SRAT there is one node.
 */
#ifndef PLATFORM_NUMA_H
#define PLATFORM_NUMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "platform/acpi.h"

/* Nodes as Linux x86-64 by default (arch/x86/Kconfig NODES_SHIFT 6: MAX_NUMNODES 64), enough
 * for 2 sockets x SNC3 plus memory-only (CXL, HBM) nodes; 4 memory ranges per node. The CPU
 * affinities have no such limit (below). */
#define NUMA_MAX_NODES   64	/* distinct proximity domains kept; more are counted, dropped */
#define NUMA_MAX_MEM     256	/* memory affinity ranges kept */
#define NUMA_MAX_LOCAL   64	/* SLIT localities kept (the 64 x 64 top-left of the matrix) */

/* SLIT entry values, ACPI 6.5 §5.2.17: 10 = local, 0..9 reserved, 255 = unreachable.
 * Without a SLIT, local 10 and remote 20 (Linux include/linux/numa.h LOCAL_DISTANCE,
 * REMOTE_DISTANCE). */
#define NUMA_LOCAL_DISTANCE  10
#define NUMA_REMOTE_DISTANCE 20
#define NUMA_UNREACHABLE     255

struct numa_mem {
	uint64_t base, end;	/* [base, end) */
	uint32_t pxm;		/* proximity domain */
	uint8_t node;
	bool hotplug, nonvolatile;
};

struct numa_cpu {
	uint32_t apic_id;	/* xAPIC id (type 0) or x2APIC id (type 2) */
	uint32_t pxm;
	uint16_t node;
	bool x2apic;
};

struct numa_info {
	bool have_srat, have_slit;
	unsigned nnodes;
	uint32_t node_pxm[NUMA_MAX_NODES];	/* ascending */
	unsigned nmem, ncpu;
	struct numa_mem mem[NUMA_MAX_MEM];
	/* the CPU affinities have no compile-time size, as the MADT's processors
	 * (platform/acpi.h): the caller's cpu[] of cpu_cap entries, kept by the parsers and
	 * numa_from_acpi; what does not fit is counted in cpu_dropped */
	struct numa_cpu *cpu;
	unsigned cpu_cap, cpu_dropped;
	uint64_t cpu_seen[ACPI_APIC_ID_LIMIT / 64];	/* APIC IDs met */
	/* what the SRAT walk left out, for the log */
	unsigned disabled;	/* entries with Enabled = 0 */
	unsigned bad;		/* zero length, address overflow, short entries */
	unsigned conflicts;	/* overlapping ranges / APIC ids claimed by two domains */
	unsigned dropped;	/* did not fit (ranges, CPUs or domains; APIC IDs from
				 * ACPI_APIC_ID_LIMIT up) */
	/* SLIT, indexed by proximity domain (locality i = domain i) */
	uint32_t slit_n;	/* localities kept (<= NUMA_MAX_LOCAL) */
	uint64_t slit_total;	/* localities in the table */
	uint8_t slit[NUMA_MAX_LOCAL * NUMA_MAX_LOCAL];
};

/* Parsers over a validated table (t, len including the 36-byte header). 0, or -1 (reported
 * through acpi_log) when the table as a whole is unusable. The SRAT parser resets `n`'s
 * SRAT part; the SLIT parser its SLIT part. */
int acpi_parse_srat(const uint8_t *t, uint32_t len, struct numa_info *n);
int acpi_parse_slit(const uint8_t *t, uint32_t len, struct numa_info *n);

/* Reset, then the SRAT ("SRAT") and SLIT ("SLIT") of an ACPI walk when present. */
void numa_from_acpi(struct numa_info *n, const struct acpi_info *ai, acpi_map_fn map,
		    void *ctx);

/* Node of an APIC id / a physical address: -1 when the SRAT does not list it; 0 for any
 * value when there is no SRAT (one node). */
int numa_node_of_apic(const struct numa_info *n, uint32_t apic_id);
int numa_node_of_phys(const struct numa_info *n, uint64_t pa);
/* Node of every byte of [pa, pa + len): -1 when some byte is on no node or on another node
 * than the first (or len == 0, or the range wraps); 0 without an SRAT. */
int numa_node_of_range(const struct numa_info *n, uint64_t pa, uint64_t len);
/* Nodes the machine has: nnodes, or 1 without an SRAT. */
unsigned numa_nodes(const struct numa_info *n);
/* SLIT distance between two nodes (10 for a == b, 20 between nodes without a usable SLIT
 * entry); 0 for a node out of range. */
unsigned numa_distance(const struct numa_info *n, unsigned a, unsigned b);
/* The i-th memory range of `node` (table order). false past the last. */
bool numa_node_range(const struct numa_info *n, unsigned node, unsigned i, uint64_t *base,
		     uint64_t *end);
/* CPUs the SRAT lists on `node`, and bytes of (non-hotplug) memory. */
unsigned numa_node_cpus(const struct numa_info *n, unsigned node);
uint64_t numa_node_bytes(const struct numa_info *n, unsigned node);

/* The header line's text after "# " (docs/output.md "numa"), e.g.
 * "numa: 2 nodes, distances 10 21/21 10 (SLIT); node 0: 2 CPUs 512 MiB, node 1: ...". */
void numa_header_line(const struct numa_info *n, char *buf, size_t len);

#endif
