/*
 * load_matrix.c: test load_matrix (issue 30, on request): node x node idle latency, Intel
 * MLC's --latency_matrix. Per node with memory in the ACPI SRAT (ACPI 6.5 §5.2.16.2, memory-
 * only nodes included) the boot CPU builds one DRAM-sized chain in that node's memory
 * (loads/kload.h, as load_remote); one online CPU of every node with CPUs (the boot CPU for
 * its own) times the chase over it (load_retime on that CPU, interrupts off, its TSC). The
 * boot CPU's row gets each cell's data source through the registered sampler (PEBS or IBS,
 * loads/sampler.h), the other rows through their CPU's own PEBS state (Intel: loads/kpebs.h
 * kpebs_cpu_agg; on AMD they stay unsampled). Lines: loads/latmatrix_print.c, one per row. Subtests:
 *   matrix_complete  every cell measured      buffer_on_node  every chain on its node
 *   chain_cycle      every chain one cycle    rows_cover_nodes a row per node with CPUs
 *                    (SKIP naming them when nodes past LATM_MAX are left out of the matrix,
 *                    loads/latmatrix_nodes.c)
 *   remote_over_local, order_slit, order_hmat  (loads/latmatrix.h; SKIP where timing is not
 *                    judged, or without a SLIT / an HMAT)
 *   dsrc_remote      another package's memory sampled remote, local memory local; SNC nodes
 *                    of the row's package sampled "local DRAM" are labelled SNC-DRAM, not
 *                    failed (no precise event separates them); SKIP with the sampler's reason
 */
#include "ktests/tests.h"
#include "apic/apic.h"
#include "kernel/extable.h"
#include "kernel/mm.h"
#include "kernel/fmt.h"
#include "loads/ap_slot.h"
#include "loads/kload.h"
#include "loads/kpebs.h"
#include "loads/latmatrix.h"
#include "platform/platform.h"
#include "smp/smp.h"

#define CELL_BOUND_MS 30000u	/* one cell on an AP: the timed chase */

struct cell_job {
	struct load_run r;
	const struct load_run *src;
	int rc;
	struct pebs_cpu *pc;	/* this CPU's own PEBS state (NULL: none allocated) */
	const char *why;	/* no data source: why */
	char label[LATM_SRC_LEN];
};

static struct latm m;
static uint32_t row_pkg[LATM_MAX], ref[LATM_MAX * LATM_MAX], slit[LATM_MAX * LATM_MAX];
static struct load_run col_run[LATM_MAX];
static struct ap_slot slot;	/* the cell job and a PEBS state (~30 KiB, aux), one AP after
				 * the other; fresh ones after an AP that did not finish */

/* On the row's AP: time the column's chain, then sample it through this CPU's own PEBS
 * state (loads/kpebs.h; SDM Vol. 3B 20.3.x: IA32_DS_AREA per logical processor). */
static void ap_retime(void *arg)
{
	struct cell_job *j = arg;
	const struct pebs_agg *a;

	write_cr3(read_cr3());	/* the boot CPU mapped the chain since this CPU last ran */
	j->rc = load_retime(&j->r, j->src, "load_matrix", CHASE_LOAD);
	if (j->rc || !j->pc)
		return;
	pebs_cpu_init(j->pc);
	j->why = kpebs_cpu_unavailable(j->pc);
	if (!j->why && kpebs_cpu_agg(j->pc, &j->r, TGT_REMOTE, &a, &j->why) == 0)
		latm_src_label(a, j->label, sizeof(j->label));
}

/* First online CPU on `node` (the boot CPU for its own); -1 when none. */
static int cpu_of(void *ctx, unsigned node)
{
	(void)ctx;
	for (unsigned i = 0; i < smp_cpu_count(); i++)
		if (smp_cpu(i)->state == CPU_ONLINE && smp_cpu(i)->node == node)
			return (int)i;
	return -1;
}

static bool has_cpus(void *ctx, unsigned node)
{
	(void)ctx;
	return numa_node_cpus(&numa, node) != 0;
}

static bool has_mem(void *ctx, unsigned node)
{
	uint64_t lo, hi;

	(void)ctx;
	return numa_node_range(&numa, node, 0, &lo, &hi);
}

static uint32_t pkg_of(void *ctx, unsigned i)
{
	(void)ctx;
	return smp_cpu(i)->topo.package;
}

/* Build the chain of column c in its node's memory (on the boot CPU). */
static int build(unsigned c, uint64_t ws)
{
	struct load_run *r = &col_run[c];
	uint64_t lo, hi;
	int rc = -1;

	*r = (struct load_run){ .name = "load_matrix", .kind = CHASE_LOAD, .ps = PS_2M,
				.stride = 64, .ws = ws, .why = "the SRAT gives the node no range" };
	for (unsigned i = 0; rc == -1 && numa_node_range(&numa, m.col_id[c], i, &lo, &hi); i++)
		if (hi - lo >= ws) {
			r->phys_lo = lo;
			r->phys_hi = hi;
			rc = load_run(r);
		}
	return rc;
}

static bool on_node(const struct load_run *r, unsigned node)
{
	uint64_t a = mm_phys_of((uint64_t)(uintptr_t)r->base);
	uint64_t b = mm_phys_of((uint64_t)(uintptr_t)r->base + r->chain.bytes - 1);

	return a != ~0ull && b == a + r->chain.bytes - 1 &&
	       numa_node_of_range(&numa, a, r->chain.bytes) == (int)node;
}

/* The firmware's declared read latency per cell (ACPI HMAT, platform/numa.h
 * numa_hmat_latency; picoseconds): false where the HMAT gives none, and order_hmat SKIPs. */
static bool hmat_refs(void)
{
	bool any = false;

	for (unsigned r = 0; r < m.nrow; r++)
		for (unsigned c = 0; c < m.ncol; c++) {
			uint32_t rd = 0, wr = 0;

			if (!numa_hmat_latency(m.row_id[r], m.col_id[c], &rd, &wr))
				rd = 0;
			ref[r * m.ncol + c] = rd;
			any |= rd != 0;
		}
	return any;
}

/* Row r's cell c: the boot CPU's from the build (and its sampled source), an AP's re-timed. */
static void cell(struct ktest *t, unsigned r, unsigned c, const char **src_why)
{
	struct latm_cell *x = latm_at(&m, r, c);
	struct cell_job *j = slot.job;
	const struct pebs_agg *a;
	const char *why;

	if (m.row_cpu[r] == 0) {
		x->ns_x100 = col_run[c].ns_x100;
		x->flags = LATM_DONE;
		if (kload_sample_agg(&col_run[c], TGT_REMOTE, &a, &why) == 0) {
			latm_src_label(a, x->src, sizeof(x->src));
			x->flags |= LATM_SRC;
		} else if (!*src_why) {
			*src_why = why;
		}
		return;
	}
	if (!j)
		return;		/* no memory for a job: the cell stays unmeasured */
	*j = (struct cell_job){ .src = &col_run[c], .rc = -1, .pc = slot.aux };
	if (ap_slot_call(&slot, m.row_cpu[r], ap_retime, CELL_BOUND_MS) != SMP_CALL_DONE) {
		kt_info(t, "load_matrix: cpu%u did not finish node %u's chase in %u ms", m.row_cpu[r],
			m.col_id[c], CELL_BOUND_MS);
		return;
	}
	if (j->rc == 0) {
		x->ns_x100 = j->r.ns_x100;
		x->flags = LATM_DONE;
	}
	if (j->label[0]) {
		fmt_snprintf(x->src, sizeof(x->src), "%s", j->label);
		x->flags |= LATM_SRC;
	} else if (j->why && !*src_why) {
		*src_why = j->why;
	}
}

enum kt_result test_load_matrix(struct ktest *t)
{
	static struct latm_cell cells[LATM_MAX * LATM_MAX];
	const char *note, *src_why = NULL;
	struct latm_refs in = { .row_pkg = row_pkg, .emu = kload_timing_unjudgeable(),
				.no_hmat = "no HMAT latencies (the firmware has no ACPI HMAT, or none for these nodes)" };
	unsigned built = 0, on = 0, cyc = 0;
	struct latm_cover cov;
	int v;
	uint64_t ws;
	char d[200];

	if (!numa.have_srat)
		return kt_skip(t, "one NUMA node: no ACPI SRAT (load_dram measures its memory)");
	kload_test_begin();
	/* aux NULL: the APs' rows go unsampled */
	ap_slot_init(&slot, sizeof(struct cell_job), sizeof(struct pebs_cpu));
	m = (struct latm){ .name = "load_matrix", .unit = "node", .cell = cells };
	latm_node_axes(&m, row_pkg, &(struct latm_nodes){ .nodes = numa_nodes(&numa),
			.has_cpus = has_cpus, .cpu_of = cpu_of, .pkg_of = pkg_of,
			.has_mem = has_mem }, &cov);
	if (!m.nrow || !m.ncol)
		return kt_skip(t, "no node has both an online CPU and memory in the SRAT");
	ws = kload_ws(LOAD_DRAM, &note);
	kt_info(t, "load_matrix: %u rows (nodes with an online CPU), %u columns (nodes with "
		"memory), working set %llu KiB%s", m.nrow, m.ncol, (unsigned long long)(ws >> 10),
		note);
	for (unsigned c = 0; c < m.ncol; c++) {
		apic_watchdog_arm(t->desc->timeout_ms);
		if (build(c, ws) != 0) {
			kt_info(t, "load_matrix: node %u: %s", m.col_id[c], col_run[c].why);
			continue;
		}
		built++;
		on += on_node(&col_run[c], m.col_id[c]);
		cyc += col_run[c].walk_len == col_run[c].chain.nodes;
		for (unsigned r = 0; r < m.nrow; r++)
			cell(t, r, c, &src_why);
	}
	latm_node_print(t, &m, row_pkg);
	in.src_why = src_why;
	kt_check(t, latm_complete(&m, d, sizeof(d)) == 1, "matrix_complete # %s", d);
	kt_check(t, built && on == built, "buffer_on_node # %u of %u chains on their node", on,
		 built);
	kt_check(t, built && cyc == built, "chain_cycle # %u of %u", cyc, built);
	v = latm_rows_cover(&m, &cov, d, sizeof(d));	/* SKIP: nodes past LATM_MAX */
	if (v < 0)
		kt_skip_sub(t, "rows_cover_nodes", "%s", d);
	else
		kt_check(t, v == 1, "rows_cover_nodes # %s", d);
	for (unsigned r = 0; r < m.nrow; r++)
		for (unsigned c = 0; c < m.ncol; c++)
			slit[r * m.ncol + c] = numa_distance(&numa, m.row_id[r], m.col_id[c]);
	in.slit = numa.have_slit ? slit : NULL;
	in.hmat = hmat_refs() ? ref : NULL;
	latm_node_judge(t, &m, &in);
	return kt_verdict(t);
}
