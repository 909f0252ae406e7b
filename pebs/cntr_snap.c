/*
 * cntr_snap.c: per-level core cycles per sampled window from the counter snapshots of PEBS
 * records (see cntr_snap.h). The group's values are GP counters in bitmap order, then fixed
 * counters (Linux ds.c __setup_pebs_counter_group; docs/hardware.md §4.3, docs/arch-pebs.md
 * "Counter snapshots"). A counter is 48 bits wide at most, so a difference is taken modulo
 * 2^48 (one wrap between two records is harmless).
 */
#include "pebs/cntr_snap.h"

#include "kernel/fmt.h"

#include <string.h>

#define CNTR_MASK ((1ull << 48) - 1)

void pebs_cntr_agg_init(struct pebs_cntr_agg *a)
{
	memset(a, 0, sizeof(*a));
}

bool pebs_cntr_value(const struct pebs_record *r, bool fixed, unsigned idx, uint64_t *v)
{
	uint32_t map = fixed ? r->cntr_fixed : r->cntr_gp;
	unsigned pos;

	if (!(r->valid & PEBS_F_COUNTERS) || !r->cntr || idx >= 32 || !(map & (1u << idx)))
		return false;
	pos = pebs_popcount32(map & ((1u << idx) - 1));
	if (fixed)
		pos += pebs_popcount32(r->cntr_gp);
	memcpy(v, r->cntr + 8 * pos, 8);
	return true;
}

void pebs_cntr_agg_add(struct pebs_cntr_agg *a, const struct pebs_record *r, unsigned level)
{
	uint64_t now;

	a->records++;
	if (!pebs_cntr_value(r, true, PEBS_CNTR_CORE_CYCLES, &now)) {
		a->no_cycles++;
		return;
	}
	if (level >= PEBS_LVL_COUNT)
		level = PEBS_LVL_NA;
	if (!a->have_prev)
		a->first = now;
	else if (now < a->prev)
		a->backwards++;
	if (a->have_prev) {
		a->windows[level]++;
		a->cycles[level] += (now - a->prev) & CNTR_MASK;
	}
	a->prev = now;
	a->have_prev = true;
}

int pebs_cntr_check(const struct pebs_cntr_agg *a, char *d, size_t n)
{
	uint64_t snaps = a->records - a->no_cycles, span = (a->prev - a->first) & CNTR_MASK;
	uint64_t rspan = (a->rdpmc_end - a->rdpmc_start) & CNTR_MASK;

	if (!a->rdpmc_ok) {
		fmt_snprintf(d, n, "RDPMC of fixed counter %u faulted: nothing to compare",
			     PEBS_CNTR_CORE_CYCLES);
		return -1;
	}
	if (snaps < 2) {
		fmt_snprintf(d, n, "%llu core-cycle snapshots: no window", (unsigned long long)snaps);
		return -1;
	}
	if (a->backwards || a->first < a->rdpmc_start || a->prev > a->rdpmc_end) {
		fmt_snprintf(d, n, "snapshots 0x%llx..0x%llx (%llu backwards) outside RDPMC "
			     "0x%llx..0x%llx of the same counter", (unsigned long long)a->first,
			     (unsigned long long)a->prev, (unsigned long long)a->backwards,
			     (unsigned long long)a->rdpmc_start, (unsigned long long)a->rdpmc_end);
		return 0;
	}
	fmt_snprintf(d, n, "%llu snapshots span %llu cycles within RDPMC's %llu over the same "
		     "window", (unsigned long long)snaps, (unsigned long long)span,
		     (unsigned long long)rspan);
	return 1;
}

void pebs_cntr_agg_lines(const struct pebs_cntr_agg *a, const char *name,
			 void (*out)(void *ctx, const char *line), void *ctx)
{
	char line[128];
	bool any = false;

	for (unsigned l = 0; l < PEBS_LVL_COUNT; l++) {
		if (!a->windows[l])
			continue;
		any = true;
		fmt_snprintf(line, sizeof(line), "%s: counters %s windows=%llu cycles/window=%llu",
			     name, pebs_level_id(l), (unsigned long long)a->windows[l],
			     (unsigned long long)(a->cycles[l] / a->windows[l]));
		out(ctx, line);
	}
	if (!any) {
		fmt_snprintf(line, sizeof(line), "%s: counters none records=%llu "
			     "without-cycles=%llu", name, (unsigned long long)a->records,
			     (unsigned long long)a->no_cycles);
		out(ctx, line);
	}
}
