/*
 * model_log_matrix.c: tools/model-log's latency matrices (--kernels matrix): tests load_matrix
 * and load_c2c as ktests/load_matrix.c and ktests/load_c2c.c print and judge them, over the
 * model's topology (tests/model/topo_model.h: packages, SMT siblings, nodes with a declared
 * SLIT and modelled latencies). SYNTHESIZED as in model-log.c: every cell's ns (nothing is
 * timed: the modelled DRAM or L3 latency times the topology's ratio, +-2 % seeded jitter). From
 * the kernel's own code: the lines (loads/latmatrix_print.c), the CPU pick (loads/c2c_plan.c),
 * the verdicts (loads/latmatrix_judge.c) and the data sources (load_matrix: every row, as the
 * kernel samples its APs' rows with their own PEBS; load_c2c: every cell but an AP's loads of
 * lines the boot CPU touched, which no CPU samples): each cell's
 * records measured through pebs/measure.c on the PMU model and labelled from the aggregate
 * (the records' codes from the decoder's table, as model_log_special.c draws them; SNC
 * neighbour memory as local DRAM, since no precise event separates them).
 */
#include "tools/model_log.h"
#include "loads/c2c_plan.h"
#include "loads/geometry.h"
#include "loads/latmatrix.h"
#include "loads/plan.h"
#include "loads/xcore.h"
#include "model/topo_model.h"

#include <stdio.h>
#include <string.h>

static const struct ml_mixrow mem_local = { { { 85, PEBS_LVL_RAM, ML_W_HIT },
					      { 15, PEBS_LVL_L3, ML_W_HIT } } };
static const struct ml_mixrow mem_remote = { { { 85, PEBS_LVL_RAM, ML_W_REMOTE },
					       { 15, PEBS_LVL_L3, ML_W_HIT } } };
static const struct ml_mixrow c2c_mix[2] = {
	{ { { 85, PEBS_LVL_L3, ML_W_SNOOP }, { 15, PEBS_LVL_L1, ML_W_HIT } } },
	{ { { 85, PEBS_LVL_L3, ML_W_HITM }, { 15, PEBS_LVL_L1, ML_W_HIT } } },
};
static const struct ml_mixrow sibling_mix = { { { 100, PEBS_LVL_L1, ML_W_HIT } } };

static struct latm_cell cells[3][LATM_MAX * LATM_MAX];
static uint32_t row_pkg[LATM_MAX], slit[LATM_MAX * LATM_MAX];

static uint64_t ns_of(uint64_t core_x100, uint64_t tsc_khz)
{
	return core_x100 * 100 / 110 * 1000000 / tsc_khz;
}

static uint64_t mid(enum pebs_level l, const struct ml_opts *o)
{
	unsigned lo, hi;

	ml_lat_range(l, o, &lo, &hi);
	return ns_of((uint64_t)(lo + hi) * 50, o->tsc_khz);
}

static uint64_t jitter(uint64_t v)
{
	return v * (98 + ml_rand() % 5) / 100;
}

/* Label cell x from one measurement of mx on the boot CPU; the first failure's reason in
 * *why. */
static void sample(struct latm_cell *x, const struct pebs_caps *c, const struct ml_opts *o,
		   const struct ml_mixrow *mx, unsigned ldlat, uint64_t sav, const char **why,
		   int kind)
{
	const char *w = NULL;
	const struct pebs_agg *a = ml_pebs_agg(c, o, mx, ldlat, sav, &w);
	char d[200];

	if (!a) {
		*why = *why ? *why : w;	/* the first reason, as ktests/load_matrix.c keeps */
		return;
	}
	latm_src_label(a, x->src, sizeof(x->src));
	x->flags |= LATM_SRC;
	if (kind >= 0 && mx != &sibling_mix) {	/* SMT siblings: a shared L1D, not judged */
		int v = xcore_pebs_verdict(a, (enum xcore_kind)kind, d, sizeof(d));

		x->flags |= v >= 0 ? LATM_SRC_JUDGED : 0;
		x->flags |= v == 0 ? LATM_SRC_BAD : 0;
	}
}

static void node_matrix(struct ktest *t, const struct topo_model *tm, const struct pebs_caps *c,
			const struct ml_opts *o, uint64_t ws)
{
	struct latm m = { .name = "load_matrix", .unit = "node", .cell = cells[0] };
	struct latm_refs in = { .row_pkg = row_pkg, .slit = slit, .no_hmat = "no HMAT latencies "
				"(the model's topologies declare a SLIT only)" };
	uint64_t local = mid(PEBS_LVL_RAM, o);
	const char *why = NULL;
	char d[200];

	memset(cells[0], 0, sizeof(cells[0]));
	for (unsigned n = 0; n < tm->nnodes; n++) {
		int ci = topo_model_cpu_of_node(tm, n);

		if (ci >= 0) {
			m.row_id[m.nrow] = n;
			m.row_cpu[m.nrow] = (uint32_t)ci;
			row_pkg[m.nrow++] = tm->cpu[ci].package;
		}
		m.col_id[m.ncol] = n;
		m.col_pkg[m.ncol++] = tm->node_pkg[n];
	}
	kt_info(t, "load_matrix: %u rows (nodes with an online CPU), %u columns (nodes with "
		"memory), working set %llu KiB (modelled: %s)", m.nrow, m.ncol,
		(unsigned long long)(ws >> 10), tm->name);
	for (unsigned r = 0; r < m.nrow; r++)
		for (unsigned k = 0; k < m.ncol; k++) {
			struct latm_cell *x = latm_at(&m, r, k);
			unsigned a = m.row_id[r], b = m.col_id[k];

			x->ns_x100 = jitter(topo_model_mem_ns(tm, a, b, local));
			x->flags = LATM_DONE;
			slit[r * m.ncol + k] = tm->slit[a][b];
			/* every row; a memory-only node hangs off package 0 (topo_model.c) */
			sample(x, c, o, (tm->node_pkg[b] == ~0u ? 0 : tm->node_pkg[b]) !=
			       tm->node_pkg[a] ? &mem_remote : &mem_local, 3, o->sav, &why, -1);
		}
	latm_node_print(t, &m, row_pkg);
	in.src_why = why;
	kt_check(t, latm_complete(&m, d, sizeof(d)) == 1, "matrix_complete # %s", d);
	kt_check(t, true, "buffer_on_node # %u of %u chains on their node", m.ncol, m.ncol);
	kt_check(t, true, "chain_cycle # %u of %u", m.ncol, m.ncol);
	kt_check(t, true, "rows_cover_nodes # %u rows, %u nodes with CPUs in the SRAT", m.nrow,
		 m.nrow);
	latm_node_judge(t, &m, &in);
}

static void c2c(struct ktest *t, const struct topo_model *tm, const struct pebs_caps *c,
		const struct ml_opts *o)
{
	static const char *const kname[2] = { "load_c2c/snoop", "load_c2c/hitm" };
	static const char *const sub[2] = { "snoop", "hitm" };
	static const unsigned pct[2][3] = { { 45, 120, 330 }, { 50, 150, 400 } };
	static struct c2c_cpu cpus[TOPO_MAX_CPUS];
	unsigned pick[C2C_MAX_CPUS], k;
	uint64_t l3 = mid(PEBS_LVL_L3, o);
	char d[200];

	for (unsigned i = 0; i < tm->ncpu; i++)
		cpus[i] = (struct c2c_cpu){ .cpu = i, .package = tm->cpu[i].package,
					    .core = tm->cpu[i].core, .node = tm->cpu[i].node,
					    .online = true };
	k = c2c_pick(cpus, tm->ncpu, C2C_MAX_CPUS, pick);
	kt_info(t, "load_c2c: %u of %u online CPUs, %u ordered pairs per kernel (bound %u CPUs)",
		k, tm->ncpu, k * (k - 1), C2C_MAX_CPUS);
	kt_check(t, c2c_coverage(cpus, tm->ncpu, pick, k, d, sizeof(d)) == 1, "coverage # %s", d);
	for (unsigned kk = 0; kk < 2; kk++) {
		struct latm m = { .name = kname[kk], .unit = "cpu", .nrow = k, .ncol = k,
				  .no_diag = true, .cell = cells[1 + kk] };
		const char *why = NULL;

		memset(cells[1 + kk], 0, sizeof(cells[0]));
		for (unsigned i = 0; i < k; i++) {
			const struct c2c_cpu *p = &cpus[pick[i]];

			m.row_id[i] = m.col_id[i] = m.row_cpu[i] = p->cpu;
			m.col_pkg[i] = p->package;
			m.col_node[i] = p->node;
			m.col_core[i] = p->core;
		}
		for (unsigned r = 0; r < k; r++)
			for (unsigned j = 0; j < k; j++) {
				struct latm_cell *x = latm_at(&m, r, j);
				unsigned cl = topo_model_pair_class(tm, m.row_id[r], m.col_id[j]);

				if (r == j)
					continue;
				x->ns_x100 = jitter(l3 * pct[kk][cl] / 100);
				x->flags = LATM_DONE;
				if (m.row_id[r] == 0 || m.col_id[j] != 0)	/* as the kernel */
					sample(x, c, o, cl ? &c2c_mix[kk] : &sibling_mix, 32, 2, &why,
					       kk ? XCORE_HITM : XCORE_SNOOP);
			}
		latm_print(t, &m);
		latm_c2c_judge(t, &m, sub[kk], kk ? "HitM" : "Hit or Fwd", NULL, why, k * (k - 1));
	}
}

unsigned ml_matrix_tests(unsigned n, const struct pebs_caps *c, const struct cache_geometry *g,
			 const struct ml_opts *o, const struct topo_model *tm)
{
	static const char *const names[2] = { "load_matrix", "load_c2c" };

	for (unsigned i = 0; i < 2; i++, n++) {
		const struct ktest_desc desc = { .name = names[i], .needs = NEED_NONE };
		struct ktest t = { .desc = &desc };

		ktap_test_start(&t, n);
		if (i == 0)
			node_matrix(&t, tm, c, o, load_ws(LOAD_DRAM, g));
		else
			c2c(&t, tm, c, o);
		ktap_result(&t, n, kt_verdict(&t), NULL);
	}
	return n;
}
