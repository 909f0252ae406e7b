/*
 * topology.h: where a logical processor sits (package, core, thread) and what kind of core it
 * is, decoded from CPUID (pure C). SDM Vol. 2A CPUID leaf 0BH "Extended Topology Enumeration"
 * and leaf 1FH "V2 Extended Topology Enumeration" (preferred when present), leaf 1AH "Native
 * Model ID Enumeration" (core type); SDM Vol. 3A 9.9 "Identifying Logical Processors in an
 * MP System" (the x2APIC ID split into fields by the shift of each level). The CPUID reads
 * themselves happen on the CPU being described (smp/smp_ap.c); these functions only decode.
 */
#ifndef SMP_TOPOLOGY_H
#define SMP_TOPOLOGY_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/hw.h"

/* CPUID.0BH/1FH:ECX[15:8] level types (SDM Vol. 2A, Table 3-8 "Information Returned by
 * CPUID Instruction", leaf 1FH) */
#define TOPO_LEVEL_INVALID 0
#define TOPO_LEVEL_SMT     1
#define TOPO_LEVEL_CORE    2
#define TOPO_LEVEL_MODULE  3
#define TOPO_LEVEL_TILE    4
#define TOPO_LEVEL_DIE     5
#define TOPO_MAX_SUBLEAVES 8

struct cpu_topo {
	uint32_t x2apic_id;	/* from the leaf (EDX), or the APIC ID given */
	uint32_t package, core, thread;	/* core: unique within the package */
	uint8_t smt_shift;	/* x2APIC ID bits of the thread field */
	uint8_t pkg_shift;	/* x2APIC ID bits below the package field */
	uint32_t leaf;		/* 0x1f, 0x0b, or 1 (CPUID.1 fallback), 0 (none: one core) */
};

/*
 * Decode the subleaves of leaf 0BH or 1FH (sub[i] = CPUID(leaf, i), nsub read) for this
 * logical processor. Stops at the first subleaf of level type 0 (invalid). The thread field
 * is the SMT level's shift; everything between it and the last level's shift is the core
 * (module, tile and die bits included, so a core number is unique in its package). false
 * when subleaf 0 is invalid or the shifts do not grow (then *t is the one-core fallback).
 */
bool topo_decode_leaf(const struct cpuid_regs *sub, unsigned nsub, uint32_t leaf,
		      struct cpu_topo *t);
/* Without leaf 0BH: CPUID.1:EBX[23:16] (logical processors per package, valid when
 * CPUID.1:EDX.HTT[28]) gives the package shift; each logical processor counts as a core. */
void topo_decode_legacy(uint32_t apic_id, uint32_t cpuid1_ebx, uint32_t cpuid1_edx,
			struct cpu_topo *t);

struct topo_counts {
	unsigned packages, cores, threads;
};
/* Distinct packages, distinct (package, core) pairs, and logical processors in t[0..n). */
void topo_count(const struct cpu_topo *t, unsigned n, struct topo_counts *c);

#endif
