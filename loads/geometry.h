/*
 * geometry.h: cache geometry per level (L1D, L2, L3) from CPUID, for sizing the load kernels.
 * Sources, in order: Intel deterministic cache parameters (CPUID leaf 04H, SDM Vol. 2A,
 * CPUID, Table 3-8), AMD cache topology (CPUID 8000_001DH, AMD APM Vol. 3 E.4.15, same
 * field layout, needs TopologyExtensions CPUID 8000_0001H:ECX[22]), AMD legacy L1/L2/L3
 * descriptors (CPUID 8000_0005H/8000_0006H, APM Vol. 3 E.4.6/E.4.7), then stated defaults.
 * Overrides (l1d=, l2=, l3=) replace the size and keep the rest. Pure except cpuid_count().
 */
#ifndef LOADS_GEOMETRY_H
#define LOADS_GEOMETRY_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/cpu.h"

enum cache_src {
	CSRC_NONE,		/* level absent */
	CSRC_LEAF4,		/* CPUID 04H */
	CSRC_AMD_1D,		/* CPUID 8000_001DH */
	CSRC_AMD_LEGACY,	/* CPUID 8000_0005H / 8000_0006H */
	CSRC_DEFAULT,		/* nothing usable from CPUID: GEOM_DEFAULT_* below */
};

/* Defaults when CPUID says nothing (a common client Intel part: Skylake 4C). */
#define GEOM_DEFAULT_LINE 64u
#define GEOM_DEFAULT_L1D (32ull << 10)
#define GEOM_DEFAULT_L2 (256ull << 10)
#define GEOM_DEFAULT_L3 (8ull << 20)

struct cache_level {
	uint8_t level;		/* 1, 2, 3 */
	uint64_t size;		/* bytes; 0 = level absent */
	uint32_t line;		/* bytes */
	uint32_t ways;		/* 0 = unknown; fully associative: ways == size / line */
	uint32_t sets;		/* 0 = unknown */
	uint32_t partitions;	/* physical line partitions (1 almost everywhere) */
	uint32_t sharing;	/* max logical processors sharing it (0 = unknown) */
	bool fully_assoc;
	bool overridden;	/* size from the command line */
	enum cache_src src;
};

struct cache_geometry {
	struct cache_level l1d, l2, l3;
};

/* Read the geometry through cpuid_count(). `c` supplies vendor and max leaves. */
void geometry_probe(struct cache_geometry *g, const struct cpu_info *c);

/* Decode one leaf-04H / 8000_001DH subleaf. Returns the cache type (EAX[4:0]: 0 none,
 * 1 data, 2 instruction, 3 unified) and fills `out` (level, size, line, ways, sets, ...). */
unsigned geometry_decode_det(uint32_t eax, uint32_t ebx, uint32_t ecx, struct cache_level *out);

/* Replace sizes; 0 keeps a level as it is. Sets recomputed when ways and line are known. */
void geometry_override(struct cache_geometry *g, uint64_t l1d, uint64_t l2, uint64_t l3);

/* The geometry of the CPU this runs on (an AP through smp_call: on a hybrid part an E-core's
 * leaf 04H differs from the boot P-core's), keeping the sizes the command line gave `boot`. */
void geometry_probe_cpu(struct cache_geometry *g, const struct cpu_info *c,
			const struct cache_geometry *boot);

/* "l1d=32K l2=2M l3=30M" into b (the load_cpus CPU line). Returns b. */
char *geometry_sizes_str(const struct cache_geometry *g, char *b, unsigned n);

/* Short name of a source ("CPUID 04H", ...). */
const char *geometry_src_name(enum cache_src s);

/* The kernel's header line i (0 L1d, 1 L2, 2 L3) into b, without "# " and newline
 * ("cache: L1d 32K 8-way 64 B line (CPUID 04H)", docs/output.md); false past the last. */
bool geometry_header_line(const struct cache_geometry *g, unsigned i, char *b, unsigned n);

/* Header: one "# cache: ..." line per level (kprintf). */
void geometry_print(const struct cache_geometry *g);

/* "32K", "1M", "1536K" into buf (powers of 2 units when exact, else K). Returns buf. */
char *geometry_size_str(uint64_t bytes, char *buf, unsigned len);

#endif
