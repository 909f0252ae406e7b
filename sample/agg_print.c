/*
 * agg_print.c: compact text for the per-level aggregate of sampled loads (see
 * agg_print.h). Names follow perf (docs/hardware.md §5.6, perf mem-events.c); the table
 * layout follows docs/latency-method.md §9 item 11 (count, min, p50, p90, p99, max per level
 * + histogram).
 */
#include "sample/agg_print.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* One row per level; a level holds local and remote samples, so no "Local"/"Remote". */
static const char *const table_name[PEBS_LVL_COUNT] = {
	[PEBS_LVL_NA] = "N/A",
	[PEBS_LVL_L1] = "L1 hit",
	[PEBS_LVL_LFB] = "LFB/MAB hit",
	[PEBS_LVL_L2] = "L2 hit",
	[PEBS_LVL_L2_MHB] = "L2 MHB hit",
	[PEBS_LVL_L3] = "L3",
	[PEBS_LVL_L4] = "L4 hit",
	[PEBS_LVL_MSC] = "Memory-side Cache hit",
	[PEBS_LVL_RAM] = "RAM hit",
	[PEBS_LVL_PMEM] = "PMEM",
	[PEBS_LVL_CXL] = "CXL",
	[PEBS_LVL_IO] = "I/O",
	[PEBS_LVL_UNCACHED] = "Uncached",
	[PEBS_LVL_ANY_CACHE] = "Any cache hit",
	[PEBS_LVL_L0] = "L0 hit",
};

const char *pebs_agg_level_name(unsigned level)
{
	return level < ARRAY_SIZE(table_name) ? table_name[level] : "N/A";
}

static void print_level(const struct pebs_agg_level *l, unsigned i, fmt_sink_fn sink,
			void *ctx)
{
	uint64_t lg[PEBS_AGG_LOG2_BUCKETS];
	uint64_t n = l->count + l->nolat;

	fmt_format(sink, ctx, "  %-21s %7llu", pebs_agg_level_name(i), (unsigned long long)n);
	if (l->count)
		fmt_format(sink, ctx, " %5llu %5llu %5llu %5llu %5llu %5llu",
			   (unsigned long long)l->min,
			   (unsigned long long)pebs_agg_percentile(l, 500),
			   (unsigned long long)pebs_agg_percentile(l, 900),
			   (unsigned long long)pebs_agg_percentile(l, 990),
			   (unsigned long long)l->max, (unsigned long long)pebs_agg_mean(l));
	else
		fmt_format(sink, ctx, " %5s %5s %5s %5s %5s %5s", "-", "-", "-", "-", "-", "-");
	fmt_format(sink, ctx, " %5u ", l->stlb_miss);
	for (unsigned s = 0, first = 1; s < PEBS_SNOOP_COUNT; s++) {
		if (!l->snoop[s])
			continue;
		fmt_format(sink, ctx, "%s%s:%u", first ? " " : ",", pebs_snoop_name(s), l->snoop[s]);
		first = 0;
	}
	fmt_format(sink, ctx, "\n");
	if (!l->count)
		return;
	pebs_agg_log2(l, lg);
	fmt_format(sink, ctx, "    log2");
	for (unsigned k = 0; k < PEBS_AGG_LOG2_BUCKETS; k++)
		if (lg[k])
			fmt_format(sink, ctx, " 2^%u:%llu", k, (unsigned long long)lg[k]);
	fmt_format(sink, ctx, "\n");
}

void pebs_agg_print(const struct pebs_agg *a, fmt_sink_fn sink, void *ctx)
{
	fmt_format(sink, ctx, "pebs: %llu records, %llu errors\n",
		   (unsigned long long)a->records, (unsigned long long)a->errors);
	fmt_format(sink, ctx, "  %-21s %7s %5s %5s %5s %5s %5s %5s %5s  %s\n", "level", "count",
		   "min", "p50", "p90", "p99", "max", "mean", "stlb", "snoop");
	for (unsigned i = 0; i < PEBS_LVL_COUNT; i++)
		if (a->lvl[i].count || a->lvl[i].nolat)
			print_level(&a->lvl[i], i, sink, ctx);
}
