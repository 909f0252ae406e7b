/*
 * latmatrix_nodes.c: which NUMA nodes the node matrix (test load_matrix) measures, and which
 * it cannot (loads/latmatrix.h). Nodes are the SRAT's proximity domains as platform/numa.h
 * numbers them (ACPI 6.5 §5.2.16 SRAT: Processor and Memory Affinity Structures; up to
 * NUMA_MAX_NODES): a node with an online CPU is a row, a node with memory a column, and only
 * the first LATM_MAX of each fit. A machine with more (large SNC or CXL systems) is not
 * silently measured in part: the nodes past the bound that would have been a row or a column
 * are counted and named, and rows_cover_nodes SKIPs with them rather than comparing the rows
 * with a count of nodes cut at the same bound. Pure C.
 */
#include "loads/latmatrix.h"
#include "kernel/fmt.h"

#include <string.h>

/* Append node range [lo, hi] to d ("64-127" or "130"), "..." once d is nearly full. */
static void add_range(char *d, size_t n, unsigned lo, unsigned hi)
{
	size_t len = strlen(d);
	char one[32];

	if (len >= n - 1 || (len >= 3 && !strcmp(d + len - 3, "...")))
		return;
	if (lo == hi)
		fmt_snprintf(one, sizeof(one), "%s%u", len ? ", " : "", lo);
	else
		fmt_snprintf(one, sizeof(one), "%s%u-%u", len ? ", " : "", lo, hi);
	if (len + strlen(one) + 5 > n) {
		fmt_snprintf(d + len, n - len, "%s...", len ? ", " : "");
		return;
	}
	memcpy(d + len, one, strlen(one) + 1);
}

void latm_node_axes(struct latm *m, uint32_t *row_pkg, const struct latm_nodes *in,
		    struct latm_cover *cov)
{
	unsigned run = 0, run_lo = 0;

	memset(cov, 0, sizeof(*cov));
	for (unsigned n = 0; n < in->nodes; n++) {
		bool cpus = in->has_cpus(in->ctx, n), mem = in->has_mem(in->ctx, n);
		int ci;

		cov->cpu_nodes += cpus;
		if (n >= LATM_MAX) {
			if (cpus || mem) {
				cov->left++;
				if (!run++)
					run_lo = n;
				continue;
			}
			if (run)
				add_range(cov->left_ids, sizeof(cov->left_ids), run_lo, n - 1);
			run = 0;
			continue;
		}
		ci = in->cpu_of(in->ctx, n);
		if (ci >= 0) {
			m->row_id[m->nrow] = n;
			m->row_cpu[m->nrow] = (unsigned)ci;
			row_pkg[m->nrow++] = in->pkg_of(in->ctx, (unsigned)ci);
		}
		if (mem) {
			m->col_id[m->ncol] = n;
			m->col_pkg[m->ncol++] = ci >= 0 ? in->pkg_of(in->ctx, (unsigned)ci) : ~0u;
		}
	}
	if (run)
		add_range(cov->left_ids, sizeof(cov->left_ids), run_lo, in->nodes - 1);
}

int latm_rows_cover(const struct latm *m, const struct latm_cover *cov, char *d, size_t n)
{
	if (cov->left) {
		fmt_snprintf(d, n, "%u nodes with CPUs or memory past the matrix's %u not measured "
			     "(nodes %s): it covers nodes 0-%u only", cov->left, LATM_MAX,
			     cov->left_ids, LATM_MAX - 1);
		return -1;
	}
	fmt_snprintf(d, n, "%u rows, %u nodes with CPUs in the SRAT", m->nrow, cov->cpu_nodes);
	return m->nrow == cov->cpu_nodes;
}
