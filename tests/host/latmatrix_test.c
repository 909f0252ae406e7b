/*
 * latmatrix_test.c: the latency matrices' pure parts (loads/latmatrix.c, latmatrix_print.c,
 * c2c_plan.c): a cell's data-source label; remote_over_local passing within the noise rule
 * and failing where a remote cell is faster than local; SLIT/HMAT order both ways; SNC cells
 * labelled, not failed; another package's memory sampled as local fails; the printed lines;
 * the core x core pick on a 2-socket, SNC2, 512-thread machine and on four CPUs, its coverage
 * failing when a package or SMT pair is missing; the sibling < package < other order both
 * ways; the data-source verdict.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "loads/c2c_plan.h"
#include "loads/latmatrix.h"

static struct latm_cell cells[LATM_MAX * 4];

/* A node matrix: rows nodes 0..nr-1, columns 0..nc-1, ns in whole ns. */
static void node_matrix(struct latm *m, unsigned nr, unsigned nc, const unsigned *ns,
			const uint32_t *pkg)
{
	memset(m, 0, sizeof(*m));
	memset(cells, 0, sizeof(cells));
	m->name = "load_matrix";
	m->unit = "node";
	m->nrow = nr;
	m->ncol = nc;
	m->cell = cells;
	for (unsigned c = 0; c < nc; c++) {
		m->col_id[c] = c;
		m->col_pkg[c] = pkg[c];
	}
	for (unsigned r = 0; r < nr; r++) {
		m->row_id[r] = r;
		m->row_cpu[r] = r * 2;
		for (unsigned c = 0; c < nc; c++) {
			latm_at(m, r, c)->ns_x100 = ns[r * nc + c] * 100ull;
			latm_at(m, r, c)->flags = ns[r * nc + c] ? LATM_DONE : 0;
		}
	}
}

static void test_src_label(void **state)
{
	struct pebs_agg a;
	struct pebs_dsrc d = { .level = PEBS_LVL_RAM, .remote = PEBS_NO };
	char b[LATM_SRC_LEN];

	(void)state;
	pebs_agg_init(&a);
	latm_src_label(&a, b, sizeof(b));
	assert_string_equal(b, "-");
	for (int i = 0; i < 10; i++)
		pebs_agg_add_sample(&a, &d, true, 300);
	latm_src_label(&a, b, sizeof(b));
	assert_string_equal(b, "L-DRAM");
	d.remote = PEBS_YES;
	for (int i = 0; i < 11; i++)
		pebs_agg_add_sample(&a, &d, true, 500);
	latm_src_label(&a, b, sizeof(b));
	assert_string_equal(b, "R-DRAM");
	pebs_agg_init(&a);
	d = (struct pebs_dsrc){ .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_HITM, .remote = PEBS_NO };
	for (int i = 0; i < 5; i++)
		pebs_agg_add_sample(&a, &d, true, 80);
	latm_src_label(&a, b, sizeof(b));
	assert_string_equal(b, "L3/HitM");
}

static void test_remote_over_local(void **state)
{
	static const uint32_t pkg[] = { 0, 1, ~0u };
	static const unsigned ok[] = { 90, 140, 300, 141, 92, 310 };
	static const unsigned fast[] = { 90, 140, 300, 60, 92, 310 };	/* node 1 -> 0 faster */
	struct latm m;
	char d[200];

	(void)state;
	node_matrix(&m, 2, 3, ok, pkg);
	assert_int_equal(latm_remote_over_local(&m, d, sizeof(d)), 1);
	node_matrix(&m, 2, 3, fast, pkg);
	assert_int_equal(latm_remote_over_local(&m, d, sizeof(d)), 0);
	assert_string_equal(d, "from node 1: node 0 60.00 ns < 90% of local 92.00 ns");
	/* within the noise rule: 5 % faster than local passes */
	latm_at(&m, 1, 0)->ns_x100 = 8740;
	assert_int_equal(latm_remote_over_local(&m, d, sizeof(d)), 1);
	node_matrix(&m, 2, 3, (const unsigned[]){ 0, 140, 300, 141, 0, 310 }, pkg);
	assert_int_equal(latm_remote_over_local(&m, d, sizeof(d)), -1);
}

static void test_in_order(void **state)
{
	static const uint32_t pkg[] = { 0, 0, 1 };
	/* SNC2 + a second socket: node 1 is 12 away, node 2 21 */
	static const uint32_t slit[] = { 10, 12, 21, 12, 10, 21, 21, 21, 10 };
	static const unsigned good[] = { 90, 100, 140, 101, 91, 141, 139, 142, 90 };
	static const unsigned bad[] = { 90, 160, 140, 101, 91, 141, 139, 142, 90 };
	struct latm m;
	char d[200];

	(void)state;
	node_matrix(&m, 3, 3, good, pkg);
	assert_int_equal(latm_in_order(&m, slit, "SLIT", d, sizeof(d)), 1);
	node_matrix(&m, 3, 3, bad, pkg);
	assert_int_equal(latm_in_order(&m, slit, "SLIT", d, sizeof(d)), 0);
	assert_string_equal(d, "from node 0: node 1 (SLIT 12) 160.00 ns > node 2 (SLIT 21) "
			    "140.00 ns");
	/* no declared difference: nothing to judge */
	assert_int_equal(latm_in_order(&m, (const uint32_t[9]){ 0 }, "HMAT", d, sizeof(d)), -1);
}

static void set_src(struct latm *m, unsigned r, unsigned c, const char *s)
{
	snprintf(latm_at(m, r, c)->src, LATM_SRC_LEN, "%s", s);
	latm_at(m, r, c)->flags |= LATM_SRC;
}

static void test_snc_and_remote_source(void **state)
{
	static const uint32_t pkg[] = { 0, 0, 1 }, row_pkg[] = { 0, 0, 1 };
	static const unsigned ns[] = { 90, 100, 140, 101, 91, 141, 139, 142, 90 };
	struct latm m;
	char d[200];

	(void)state;
	node_matrix(&m, 3, 3, ns, pkg);
	for (unsigned r = 0; r < 3; r++)
		for (unsigned c = 0; c < 3; c++)
			set_src(&m, r, c, pkg[c] == row_pkg[r] ? "L-DRAM" : "R-DRAM");
	assert_int_equal(latm_snc_label(&m, row_pkg), 2);	/* 0->1 and 1->0 */
	assert_string_equal(latm_at(&m, 0, 1)->src, "SNC-DRAM");
	assert_int_equal(latm_src_remote(&m, row_pkg, d, sizeof(d)), 1);
	assert_false(latm_at(&m, 0, 1)->flags & LATM_SRC_JUDGED);
	/* the other socket's memory sampled as local DRAM fails */
	set_src(&m, 2, 0, "L-DRAM");
	assert_int_equal(latm_src_remote(&m, row_pkg, d, sizeof(d)), 0);
	assert_string_equal(d, "from node 2: node 0 is on another package, its source L-DRAM");
}

/* Only the local cells sampled (the other package's cells had no data source: a table with
 * no remote code, a sampler that failed there): nothing says remote memory reads remote, so
 * no pass on the local cells alone. */
static void test_remote_source_unsampled(void **state)
{
	static const uint32_t pkg[] = { 0, 1 }, row_pkg[] = { 0, 1 };
	static const unsigned ns[] = { 90, 140, 139, 90 };
	struct latm m;
	char d[200];

	(void)state;
	node_matrix(&m, 2, 2, ns, pkg);
	set_src(&m, 0, 0, "L-DRAM");
	set_src(&m, 1, 1, "L-DRAM");
	assert_int_equal(latm_src_remote(&m, row_pkg, d, sizeof(d)), -1);
	assert_string_equal(d, "2 local cells judged, no cell on another package sampled");
	set_src(&m, 0, 1, "R-DRAM");
	assert_int_equal(latm_src_remote(&m, row_pkg, d, sizeof(d)), 1);
	assert_string_equal(d, "3 cells (1 on another package): local memory local, another "
			    "package's remote");
}

static char lines[4][300];
static unsigned nlines;

static void grab(void *ctx, const char *l)
{
	(void)ctx;
	snprintf(lines[nlines++ % 4], sizeof(lines[0]), "%s", l);
}

static void test_lines(void **state)
{
	static const uint32_t pkg[] = { 0, 1, ~0u };
	static const unsigned ns[] = { 90, 140, 300, 141, 92, 0 };
	struct latm m;
	char d[200];

	(void)state;
	node_matrix(&m, 2, 3, ns, pkg);
	set_src(&m, 0, 0, "L-DRAM");
	set_src(&m, 0, 1, "R-DRAM");
	nlines = 0;
	latm_lines(grab, NULL, &m);
	assert_int_equal(nlines, 3);
	assert_string_equal(lines[0], "load_matrix: columns node 0 1 2; package 0 1 -");
	assert_string_equal(lines[1], "load_matrix: from node 0 (cpu 0): 90 140 300 ns (dsrc "
			    "L-DRAM R-DRAM -)");
	assert_string_equal(lines[2], "load_matrix: from node 1 (cpu 2): 141 92 - ns (dsrc - - -)");
	assert_int_equal(latm_complete(&m, d, sizeof(d)), 0);
	assert_string_equal(d, "5 of 6 cells measured (2 rows x 3 columns)");
}

/* 2 packages x 128 cores x 2 threads, SNC2: CPU numbers as Linux enumerates them (first
 * threads, then siblings). */
static struct c2c_cpu big[512];

static void build_big(void)
{
	for (unsigned i = 0; i < 512; i++) {
		unsigned t = i / 256, k = i % 256;

		big[i] = (struct c2c_cpu){ .cpu = i, .package = k / 128, .core = k % 128,
					   .node = k / 64, .online = true };
		(void)t;
	}
}

static void test_pick(void **state)
{
	unsigned pick[C2C_MAX_CPUS], k;
	char d[200];
	struct c2c_cpu four[4] = {
		{ .cpu = 0, .package = 0, .core = 0, .online = true },
		{ .cpu = 1, .package = 0, .core = 0, .online = true },
		{ .cpu = 2, .package = 1, .core = 0, .node = 1, .online = true },
		{ .cpu = 3, .package = 1, .core = 0, .node = 1, .online = true },
	};

	(void)state;
	k = c2c_pick(four, 4, C2C_MAX_CPUS, pick);
	assert_int_equal(k, 4);
	assert_int_equal(c2c_coverage(four, 4, pick, k, d, sizeof(d)), 1);
	build_big();
	big[300].core_type = 0x20;	/* one odd core type */
	k = c2c_pick(big, 512, C2C_MAX_CPUS, pick);
	assert_int_equal(k, 16);
	assert_int_equal(pick[0], 0);
	assert_int_equal(c2c_coverage(big, 512, pick, k, d, sizeof(d)), 1);
	for (unsigned i = 1; i < k; i++)
		assert_true(pick[i - 1] < pick[i]);
	/* a pick without package 1, or without an SMT pair of package 0, is not covered */
	assert_int_equal(c2c_coverage(big, 512, (const unsigned[]){ 0, 64, 256, 300 }, 4, d,
				      sizeof(d)), 0);
	assert_string_equal(d, "no CPU of package 1 among the 4 picked");
	assert_int_equal(c2c_coverage(big, 512, (const unsigned[]){ 0, 64, 128, 192, 300, 384 },
				      6, d, sizeof(d)), 0);
	assert_string_equal(d, "no SMT sibling pair of package 0 among the 6 picked");
}

/* A c2c matrix over CPUs 0..3 of `four`'s shape; ns by class. */
static void c2c_matrix(struct latm *m, unsigned smt, unsigned pkg, unsigned rem)
{
	static const uint32_t p[] = { 0, 0, 0, 1 }, core[] = { 0, 0, 1, 0 };

	memset(m, 0, sizeof(*m));
	memset(cells, 0, sizeof(cells));
	m->name = "load_c2c/hitm";
	m->unit = "cpu";
	m->no_diag = true;
	m->nrow = m->ncol = 4;
	m->cell = cells;
	for (unsigned c = 0; c < 4; c++) {
		m->col_id[c] = m->row_id[c] = c;
		m->col_pkg[c] = p[c];
		m->col_core[c] = core[c];
	}
	for (unsigned r = 0; r < 4; r++)
		for (unsigned c = 0; c < 4; c++) {
			enum c2c_class cl = c2c_class_of(m, r, c);

			if (r == c)
				continue;
			latm_at(m, r, c)->flags = LATM_DONE;
			latm_at(m, r, c)->ns_x100 = 100ull * (cl == C2C_SMT ? smt : cl == C2C_PACKAGE ?
							      pkg : rem);
		}
}

static void test_c2c_order(void **state)
{
	struct latm m;
	char d[200];

	(void)state;
	c2c_matrix(&m, 20, 50, 120);
	assert_int_equal(latm_complete(&m, d, sizeof(d)), 1);
	assert_int_equal(c2c_order(&m, d, sizeof(d)), 1);
	assert_string_equal(d, "SMT sibling 20.00 ns (2), same package 50.00 ns (4), other "
			    "package 120.00 ns (6)");
	c2c_matrix(&m, 20, 130, 120);	/* the other package nearer than the same one */
	assert_int_equal(c2c_order(&m, d, sizeof(d)), 0);
	c2c_matrix(&m, 60, 50, 120);	/* the sibling slower than another core */
	assert_int_equal(c2c_order(&m, d, sizeof(d)), 0);
}

static void test_c2c_src(void **state)
{
	struct latm m;
	char d[200];

	(void)state;
	c2c_matrix(&m, 20, 50, 120);
	assert_int_equal(c2c_src_verdict(&m, "HitM", d, sizeof(d)), -1);
	set_src(&m, 0, 2, "L3/HitM");
	latm_at(&m, 0, 2)->flags |= LATM_SRC_JUDGED;
	assert_int_equal(c2c_src_verdict(&m, "HitM", d, sizeof(d)), 1);
	set_src(&m, 0, 3, "L-DRAM");
	latm_at(&m, 0, 3)->flags |= LATM_SRC_JUDGED | LATM_SRC_BAD;
	assert_int_equal(c2c_src_verdict(&m, "HitM", d, sizeof(d)), 0);
	assert_string_equal(d, "from cpu 0: cpu 3's records are L-DRAM, not HitM");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_src_label),
		cmocka_unit_test(test_remote_over_local),
		cmocka_unit_test(test_in_order),
		cmocka_unit_test(test_snc_and_remote_source),
		cmocka_unit_test(test_remote_source_unsampled),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_c2c_order),
		cmocka_unit_test(test_c2c_src),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
