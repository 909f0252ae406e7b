/*
 * latmatrix.h: latency matrices (issue 30): node x node idle latency (test load_matrix: a
 * pointer chase, loads/chase.h, from one CPU of each CPU node over the memory of every node,
 * ACPI 6.5 §5.2.16 SRAT) and core x core transfer latency (test load_c2c: the cross-core
 * kernels of loads/xcore.h between pairs of CPUs; SDM Vol. 3A 12.4 MESI). A matrix holds per
 * cell the ns per load and the sampled data source's label (sample/dsrc.h levels, PEBS or IBS);
 * this file has the verdicts on it and its compact print, one line per row
 * (docs/output.md §3 "Latency matrices"). Pure C: host-tested (tests/host/latmatrix_test.c).
 */
#ifndef LOADS_LATMATRIX_H
#define LOADS_LATMATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample/aggregate.h"

#define LATM_MAX 64u		/* rows and columns: NUMA_MAX_NODES, and C2C_MAX_CPUS below */
#define LATM_SRC_LEN 12u
/* The noise rule of the matrices: the spread at which loads/steady.h re-measures a size
 * (STEADY_SPREAD_PCT). "remote >= local" and "in SLIT/HMAT order" fail only past it. */
#define LATM_NOISE_PCT 10u

enum latm_flags {
	LATM_DONE = 1,		/* ns_x100 measured */
	LATM_SRC = 2,		/* src from a sampler (else "-") */
	LATM_SNC = 4,		/* sampler said local DRAM, the node is another one of this
				 * package (SNC): labelled, not failed */
	LATM_SRC_BAD = 8,	/* the data source is not what the cell's position wants */
	LATM_SRC_JUDGED = 16,	/* the cell's data source was judged */
};

struct latm_cell {
	uint64_t ns_x100;
	char src[LATM_SRC_LEN];
	uint8_t flags;
};

struct latm {
	const char *name;	/* "load_matrix", "load_c2c/hitm" */
	const char *unit;	/* "node" or "cpu": rows and columns */
	unsigned nrow, ncol;
	bool no_diag;		/* c2c: a CPU with itself is no pair (no cell) */
	uint32_t row_id[LATM_MAX], col_id[LATM_MAX];	/* node or CPU numbers */
	uint32_t row_cpu[LATM_MAX];	/* the CPU each row ran on */
	/* per column: package (~0u: none, a memory-only node), node, core (c2c) */
	uint32_t col_pkg[LATM_MAX], col_node[LATM_MAX], col_core[LATM_MAX];
	struct latm_cell *cell;	/* nrow x ncol, row-major, the caller's storage */
};

static inline struct latm_cell *latm_at(const struct latm *m, unsigned r, unsigned c)
{
	return &m->cell[r * m->ncol + c];
}

/* Column index of id, -1 when no column has it. */
int latm_col_of(const struct latm *m, uint32_t id);

/* The label of a cell's samples (pure): the level with most records; "L-"/"R-" before
 * memory levels (remote: more than half of its records), "R-" before a remote cache, and the
 * dominant snoop result of a cache level when it is Hit, HitM or Fwd ("L3/HitM"); "-" when
 * there is no record. */
void latm_src_label(const struct pebs_agg *a, char *b, size_t n);

/*
 * Verdicts: 1 pass, 0 fail, -1 nothing to judge; d gets the detail (the first bad cell).
 * remote_over_local: every measured cell of a row >= (100 - LATM_NOISE_PCT) % of the row's
 * local cell (the column whose id is the row's).
 * in_order: per row, for columns a, b with ref[a] < ref[b] (ref: nrow x ncol, the firmware's
 * declared distance or latency, 0: none), ns(a) <= ns(b) * (100 + LATM_NOISE_PCT) %. `what`
 * names the reference ("SLIT", "HMAT").
 * snc_label: cells of another node of the row's package that the sampler calls local DRAM
 * get LATM_SNC (returns how many).
 * src_remote: cells with a sampled source whose column is on a package (col_pkg) other than
 * the row's (row_pkg) must be remote ("R-"), the local cell must not be; memory-only columns
 * are not judged. Marks LATM_SRC_JUDGED / LATM_SRC_BAD.
 */
int latm_remote_over_local(const struct latm *m, char *d, size_t n);
int latm_in_order(const struct latm *m, const uint32_t *ref, const char *what, char *d,
		  size_t n);
unsigned latm_snc_label(struct latm *m, const uint32_t *row_pkg);
int latm_src_remote(struct latm *m, const uint32_t *row_pkg, char *d, size_t n);
/* Every cell measured: 1, else 0 with the first missing cell in d. */
int latm_complete(const struct latm *m, char *d, size_t n);

/* The matrix's lines without "# ", each through out(ctx, line): the columns line
 * ("load_matrix: columns node 0 1 2; package 0 1 -") and one line per row
 * ("load_matrix: from node 0 (cpu 0): 92 140 - ns (dsrc L-DRAM R-DRAM -)"), ASCII only. */
void latm_lines(void (*out)(void *ctx, const char *line), void *ctx, const struct latm *m);

/*
 * latmatrix_nodes.c: the node matrix's rows (nodes with an online CPU) and columns (nodes with
 * memory) from the SRAT's nodes, numbers 0 .. nodes-1 (up to NUMA_MAX_NODES, 1024): only the
 * first LATM_MAX fit. The callbacks answer per node; cov gets the nodes with CPUs (all of
 * them, not only those that fit) and the nodes past LATM_MAX that would have been a row or a
 * column, as ranges ("64-127, 130"; cut with "..." when long).
 */
struct latm_nodes {
	unsigned nodes;
	void *ctx;
	bool (*has_cpus)(void *ctx, unsigned node);	/* CPUs in the SRAT (online or not) */
	int (*cpu_of)(void *ctx, unsigned node);	/* an online CPU of the node, -1 none */
	uint32_t (*pkg_of)(void *ctx, unsigned cpu);	/* its package */
	bool (*has_mem)(void *ctx, unsigned node);	/* memory in the SRAT */
};
struct latm_cover {
	unsigned cpu_nodes;	/* nodes with CPUs in the SRAT */
	unsigned left;		/* nodes with CPUs or memory past LATM_MAX: not in the matrix */
	char left_ids[96];
};
void latm_node_axes(struct latm *m, uint32_t *row_pkg, const struct latm_nodes *in,
		    struct latm_cover *cov);
/* rows_cover_nodes: 1 a row for every node with CPUs, 0 not (d says how many), -1 (SKIP,
 * d the reason) when nodes were left out: the matrix cannot cover them. */
int latm_rows_cover(const struct latm *m, const struct latm_cover *cov, char *d, size_t n);

/* latmatrix_judge.c: the lines of m as kt_info lines of t. */
struct ktest;
void latm_print(struct ktest *t, const struct latm *m);

/* What the node matrix's verdicts compare with: per cell (nrow x ncol) the SLIT distance and
 * the HMAT read latency (NULL: none; no_hmat says why), each row's package, why timing is not
 * judged (NULL: judged) and why no data source was sampled (NULL: sampled). */
struct latm_refs {
	const uint32_t *slit, *hmat, *row_pkg;
	const char *no_hmat, *emu, *src_why;
};
/* The node matrix's lines, its SNC cells labelled first (latm_snc_label). */
void latm_node_print(struct ktest *t, struct latm *m, const uint32_t *row_pkg);
/* Subtests remote_over_local, order_slit, order_hmat, dsrc_remote. */
void latm_node_judge(struct ktest *t, struct latm *m, const struct latm_refs *in);
/* Subtests <sub>_complete, <sub>_order, <sub>_dsrc of one load_c2c kernel (want: "HitM",
 * "Hit or Fwd"); good: pairs that answered every line. */
void latm_c2c_judge(struct ktest *t, const struct latm *m, const char *sub, const char *want,
		    const char *emu, const char *src_why, unsigned good);

#endif
