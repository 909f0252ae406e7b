/*
 * latmatrix_nodes_test.c: the node matrix's rows and columns (loads/latmatrix_nodes.c) on
 * machines with more NUMA nodes than the matrix holds (LATM_MAX): the SRAT may declare up to
 * NUMA_MAX_NODES (1024) proximity domains (ACPI 6.5 §5.2.16). The nodes past the bound that
 * have CPUs or memory are counted and named, and rows_cover_nodes SKIPs with them instead of
 * passing on a matrix cut at LATM_MAX while it counted the nodes with CPUs only up to there.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "loads/latmatrix.h"

/* The modelled SRAT: per node CPUs (online or not) and memory. */
static struct {
	bool cpus[1024], online[1024], mem[1024];
} srat;

static bool has_cpus(void *ctx, unsigned n) { (void)ctx; return srat.cpus[n]; }
static bool has_mem(void *ctx, unsigned n) { (void)ctx; return srat.mem[n]; }
static int cpu_of(void *ctx, unsigned n) { (void)ctx; return srat.online[n] ? (int)n * 4 : -1; }
static uint32_t pkg_of(void *ctx, unsigned cpu) { (void)ctx; return cpu / 64; }

static struct latm m;
static uint32_t row_pkg[LATM_MAX];
static struct latm_cover cov;
static char d[200];

static int axes(unsigned nodes)
{
	struct latm_nodes in = { .nodes = nodes, .has_cpus = has_cpus, .cpu_of = cpu_of,
				 .pkg_of = pkg_of, .has_mem = has_mem };

	memset(&m, 0, sizeof(m));
	latm_node_axes(&m, row_pkg, &in, &cov);
	return latm_rows_cover(&m, &cov, d, sizeof(d));
}

static void node(unsigned n, bool cpus, bool online, bool mem)
{
	srat.cpus[n] = cpus;
	srat.online[n] = online;
	srat.mem[n] = mem;
}

static int reset(void **state)
{
	(void)state;
	memset(&srat, 0, sizeof(srat));
	return 0;
}

static void test_fits(void **state)
{
	(void)state;
	for (unsigned n = 0; n < 4; n++)
		node(n, n < 2, n < 2, true);	/* 2 CPU nodes, 2 memory-only (CXL) */
	assert_int_equal(axes(4), 1);
	assert_int_equal(m.nrow, 2);
	assert_int_equal(m.ncol, 4);
	assert_int_equal(m.col_pkg[3], ~0u);
	assert_string_equal(d, "2 rows, 2 nodes with CPUs in the SRAT");
	node(1, true, false, true);	/* its CPUs not online: no row */
	assert_int_equal(axes(4), 0);
	assert_string_equal(d, "1 rows, 2 nodes with CPUs in the SRAT");
}

/* 128 nodes, all with CPUs and memory: the matrix holds 0-63 and says 64-127 are missing. */
static void test_past_the_bound(void **state)
{
	(void)state;
	for (unsigned n = 0; n < 128; n++)
		node(n, true, true, true);
	assert_int_equal(axes(128), -1);
	assert_int_equal(m.nrow, LATM_MAX);
	assert_int_equal(m.ncol, LATM_MAX);
	assert_int_equal(cov.cpu_nodes, 128);
	assert_int_equal(cov.left, 64);
	assert_string_equal(d, "64 nodes with CPUs or memory past the matrix's 64 not measured "
			    "(nodes 64-127): it covers nodes 0-63 only");
}

/* 1024 SRAT nodes, sparse past the bound (a memory-only node, a range, the last one); nodes
 * with neither CPUs nor memory are not "left out". Many ranges are cut with "...". */
static void test_sparse_1024(void **state)
{
	(void)state;
	for (unsigned n = 0; n < 8; n++)
		node(n, true, true, true);
	node(100, false, false, true);
	for (unsigned n = 500; n < 512; n++)
		node(n, true, true, false);
	node(1023, true, true, true);
	assert_int_equal(axes(1024), -1);
	assert_int_equal(m.nrow, 8);
	assert_int_equal(cov.left, 14);
	assert_string_equal(cov.left_ids, "100, 500-511, 1023");
	reset(NULL);
	for (unsigned n = 0; n < 1024; n += 2)
		node(n, true, true, true);
	assert_int_equal(axes(1024), -1);
	assert_int_equal(cov.left, 480);
	assert_true(strlen(cov.left_ids) < sizeof(cov.left_ids));
	assert_non_null(strstr(cov.left_ids, "64, 66, 68"));
	assert_string_equal(cov.left_ids + strlen(cov.left_ids) - 3, "...");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_fits, reset),
		cmocka_unit_test_setup(test_past_the_bound, reset),
		cmocka_unit_test_setup(test_sparse_1024, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
