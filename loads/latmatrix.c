/*
 * latmatrix.c: the verdicts on a latency matrix (loads/latmatrix.h). The node matrix follows
 * the ACPI definitions of what the firmware declares: the SLIT's relative distances (ACPI 6.5
 * §5.2.17, 10 = local) and the HMAT's access latencies (§5.2.28.4, System Locality Latency and
 * Bandwidth Information); a remote node is never nearer than the local one. The data-source
 * label follows the sampler's decode (sample/dsrc.h: SDM Vol. 3B 20.3.8.1.2 data-source
 * encodings; AMD IBS DataSrc, docs/ibs.md). Pure C.
 */
#include "loads/latmatrix.h"
#include "kernel/fmt.h"

#include <string.h>

#define X100(v) (unsigned long long)((v) / 100), (unsigned long long)((v) % 100)

/* Short level names for a cell's label (sample/dsrc.h levels). */
static const char *const lvl_short[PEBS_LVL_COUNT] = {
	[PEBS_LVL_NA] = "NA", [PEBS_LVL_L1] = "L1", [PEBS_LVL_LFB] = "LFB",
	[PEBS_LVL_L2] = "L2", [PEBS_LVL_L2_MHB] = "L2", [PEBS_LVL_L3] = "L3",
	[PEBS_LVL_L4] = "L4", [PEBS_LVL_MSC] = "MSC", [PEBS_LVL_RAM] = "DRAM",
	[PEBS_LVL_PMEM] = "PMEM", [PEBS_LVL_CXL] = "CXL", [PEBS_LVL_IO] = "IO",
	[PEBS_LVL_UNCACHED] = "UC", [PEBS_LVL_ANY_CACHE] = "Cache", [PEBS_LVL_L0] = "L0",
};

static bool memory_level(unsigned l)
{
	return l == PEBS_LVL_RAM || l == PEBS_LVL_PMEM || l == PEBS_LVL_CXL;
}

int latm_col_of(const struct latm *m, uint32_t id)
{
	for (unsigned c = 0; c < m->ncol; c++)
		if (m->col_id[c] == id)
			return (int)c;
	return -1;
}

void latm_src_label(const struct pebs_agg *a, char *b, size_t n)
{
	unsigned best = PEBS_LVL_COUNT, sn = PEBS_SNOOP_NA;
	uint64_t most = 0;
	const struct pebs_agg_level *l;
	bool remote;

	for (unsigned i = 0; i < PEBS_LVL_COUNT; i++) {
		uint64_t k = a->lvl[i].count + a->lvl[i].nolat;

		if (k > most) {
			most = k;
			best = i;
		}
	}
	if (best == PEBS_LVL_COUNT) {
		fmt_snprintf(b, n, "-");
		return;
	}
	l = &a->lvl[best];
	remote = (uint64_t)l->remote * 2 > most;
	for (unsigned s = 0, top = 0; s < PEBS_SNOOP_COUNT; s++)
		if (l->snoop[s] > top) {
			top = l->snoop[s];
			sn = s;
		}
	fmt_snprintf(b, n, "%s%s%s", memory_level(best) ? (remote ? "R-" : "L-") :
		     remote ? "R-" : "", lvl_short[best],
		     memory_level(best) ? "" : sn == PEBS_SNOOP_HITM ? "/HitM" :
		     sn == PEBS_SNOOP_HIT ? "/Hit" : sn == PEBS_SNOOP_FWD ? "/Fwd" : "");
}

static int local_col(const struct latm *m, unsigned r)
{
	int c = latm_col_of(m, m->row_id[r]);

	return c >= 0 && (latm_at(m, r, (unsigned)c)->flags & LATM_DONE) ? c : -1;
}

int latm_remote_over_local(const struct latm *m, char *d, size_t n)
{
	unsigned judged = 0;

	fmt_snprintf(d, n, "no row has a measured local cell");
	for (unsigned r = 0; r < m->nrow; r++) {
		int lc = local_col(m, r);
		uint64_t loc;

		if (lc < 0)
			continue;
		loc = latm_at(m, r, (unsigned)lc)->ns_x100;
		for (unsigned c = 0; c < m->ncol; c++) {
			const struct latm_cell *x = latm_at(m, r, c);

			if (c == (unsigned)lc || !(x->flags & LATM_DONE))
				continue;
			judged++;
			if (x->ns_x100 * 100 < loc * (100 - LATM_NOISE_PCT)) {
				fmt_snprintf(d, n, "from %s %u: %s %u %llu.%02llu ns < %u%% of local "
					     "%llu.%02llu ns", m->unit, m->row_id[r], m->unit,
					     m->col_id[c], X100(x->ns_x100), 100 - LATM_NOISE_PCT,
					     X100(loc));
				return 0;
			}
		}
	}
	if (!judged)
		return -1;
	fmt_snprintf(d, n, "%u remote cells, none under %u%% of its row's local cell", judged,
		     100 - LATM_NOISE_PCT);
	return 1;
}

int latm_in_order(const struct latm *m, const uint32_t *ref, const char *what, char *d,
		  size_t n)
{
	unsigned pairs = 0;

	fmt_snprintf(d, n, "no row has two cells the %s ranks apart", what);
	for (unsigned r = 0; r < m->nrow; r++)
		for (unsigned a = 0; a < m->ncol; a++)
			for (unsigned b = 0; b < m->ncol; b++) {
				const struct latm_cell *x = latm_at(m, r, a), *y = latm_at(m, r, b);
				uint32_t ra = ref[r * m->ncol + a], rb = ref[r * m->ncol + b];

				if (!ra || !rb || ra >= rb || !(x->flags & y->flags & LATM_DONE))
					continue;
				pairs++;
				if (x->ns_x100 * 100 > y->ns_x100 * (100 + LATM_NOISE_PCT)) {
					fmt_snprintf(d, n, "from %s %u: %s %u (%s %u) %llu.%02llu ns > "
						     "%s %u (%s %u) %llu.%02llu ns", m->unit,
						     m->row_id[r], m->unit, m->col_id[a], what, ra,
						     X100(x->ns_x100), m->unit, m->col_id[b], what,
						     rb, X100(y->ns_x100));
					return 0;
				}
			}
	if (!pairs)
		return -1;
	fmt_snprintf(d, n, "%u cell pairs in %s order (within %u%%)", pairs, what,
		     LATM_NOISE_PCT);
	return 1;
}

unsigned latm_snc_label(struct latm *m, const uint32_t *row_pkg)
{
	unsigned k = 0;

	for (unsigned r = 0; r < m->nrow; r++)
		for (unsigned c = 0; c < m->ncol; c++) {
			struct latm_cell *x = latm_at(m, r, c);

			if (m->col_id[c] == m->row_id[r] || m->col_pkg[c] != row_pkg[r] ||
			    !(x->flags & LATM_SRC) || strncmp(x->src, "L-DRAM", 7))
				continue;
			x->flags |= LATM_SNC;
			fmt_snprintf(x->src, sizeof(x->src), "SNC-DRAM");
			k++;
		}
	return k;
}

int latm_src_remote(struct latm *m, const uint32_t *row_pkg, char *d, size_t n)
{
	unsigned judged = 0, bad = 0, far = 0;

	fmt_snprintf(d, n, "no cell has a sampled data source");
	for (unsigned r = 0; r < m->nrow; r++)
		for (unsigned c = 0; c < m->ncol; c++) {
			struct latm_cell *x = latm_at(m, r, c);
			bool local = m->col_id[c] == m->row_id[r];
			bool rem = !strncmp(x->src, "R-", 2);

			if (!(x->flags & LATM_SRC) || m->col_pkg[c] == ~0u ||
			    (!local && m->col_pkg[c] == row_pkg[r]))
				continue;	/* memory-only, or SNC: no precise event says */
			judged++;
			far += !local;
			x->flags |= LATM_SRC_JUDGED;
			if (local == rem) {
				x->flags |= LATM_SRC_BAD;
				if (!bad++)
					fmt_snprintf(d, n, "from %s %u: %s %u is %s, its source %s",
						     m->unit, m->row_id[r], m->unit, m->col_id[c],
						     local ? "local" : "on another package",
						     x->src);
			}
		}
	if (bad)
		return 0;
	if (!judged)
		return -1;
	if (!far) {	/* the local cells alone say nothing about remote memory */
		fmt_snprintf(d, n, "%u local cell%s judged, no cell on another package sampled",
			     judged, judged == 1 ? "" : "s");
		return -1;
	}
	fmt_snprintf(d, n, "%u cells (%u on another package): local memory local, another "
		     "package's remote", judged, far);
	return 1;
}

int latm_complete(const struct latm *m, char *d, size_t n)
{
	unsigned done = 0, want = 0;

	for (unsigned r = 0; r < m->nrow; r++)
		for (unsigned c = 0; c < m->ncol; c++) {
			if (m->no_diag && m->row_id[r] == m->col_id[c])
				continue;
			want++;
			done += (latm_at(m, r, c)->flags & LATM_DONE) != 0;
		}
	fmt_snprintf(d, n, "%u of %u cells measured (%u rows x %u columns)", done, want,
		     m->nrow, m->ncol);
	return want && done == want;
}
