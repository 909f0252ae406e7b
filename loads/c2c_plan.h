/*
 * c2c_plan.h: the plan and topology verdicts of test load_c2c (issue 30): which CPUs form the
 * core x core matrix and how its cells rank. Every online CPU up to C2C_MAX_CPUS (16: 240
 * ordered pairs per kernel); beyond it a sample of C2C_MAX_CPUS that always holds the boot CPU,
 * a CPU of every package, of every NUMA node and of every core type, and an SMT sibling pair
 * in every package that has one, the rest spread evenly over the CPU numbers. SMT siblings
 * share the core's L1D and L2 (SDM Vol. 3A 9.6 "Intel Hyper-Threading Technology
 * Architecture"), cores of a package its last-level cache; a line another package holds
 * crosses the socket interconnect, hence sibling < same package < other package.
 * Pure C: host-tested (tests/host/latmatrix_test.c).
 */
#ifndef LOADS_C2C_PLAN_H
#define LOADS_C2C_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loads/latmatrix.h"

#define C2C_MAX_CPUS 16u

struct c2c_cpu {
	uint32_t cpu;		/* CPU number (0 = boot CPU) */
	uint32_t package, core, node;	/* core: unique within its package */
	uint8_t core_type;	/* CPUID.1AH:EAX[31:24], 0: not hybrid */
	bool online;
};

/* Pick the CPUs (indices into cpus[0..n)) of the matrix, ascending: returns how many (at most
 * max, <= C2C_MAX_CPUS). */
unsigned c2c_pick(const struct c2c_cpu *cpus, unsigned n, unsigned max, unsigned *pick);

/* Coverage of a pick: 1 when it holds a CPU of every package, node and core type of the
 * online CPUs and an SMT sibling pair in every package that has one; else 0 with what it
 * misses in d. */
int c2c_coverage(const struct c2c_cpu *cpus, unsigned n, const unsigned *pick, unsigned k,
		 char *d, size_t dn);

enum c2c_class { C2C_SMT, C2C_PACKAGE, C2C_REMOTE, C2C_NCLASS };
/* Class of the pair in columns a, b of m (col_pkg, col_core). */
enum c2c_class c2c_class_of(const struct latm *m, unsigned a, unsigned b);
/* "SMT sibling", "same package", "other package". */
const char *c2c_class_name(enum c2c_class c);

/* The order verdict on one kernel's matrix (rows and columns the same CPUs): the median of
 * each class's measured cells; every class present must be slower than the one before it.
 * 1 pass, 0 fail, -1 fewer than two classes measured; the medians in d. */
int c2c_order(const struct latm *m, char *d, size_t dn);

/* The data-source verdict over the cells marked LATM_SRC_JUDGED (LATM_SRC_BAD: that cell's
 * records are not the kernel's snoop result, loads/xcore.h xcore_pebs_verdict): 1, 0 (first
 * bad cell in d) or -1 (no cell judged). */
int c2c_src_verdict(const struct latm *m, const char *want, char *d, size_t dn);

#endif
