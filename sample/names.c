/*
 * names.c: printable names for decoded data sources: the CLI identifiers (level
 * "L1".."NA", snoop "NONE".."NA") and the human names perf prints (docs/hardware.md §5.6,
 * Linux tools/perf/util/mem-events.c: "L1 hit", "LFB/MAB hit", "L3 miss", "Local RAM hit",
 * "Remote cache hit", snoop "HitM").
 */
#include "sample/dsrc.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const level_id[PEBS_LVL_COUNT] = {
	[PEBS_LVL_NA] = "NA",		[PEBS_LVL_L1] = "L1",
	[PEBS_LVL_LFB] = "LFB",		[PEBS_LVL_L2] = "L2",
	[PEBS_LVL_L2_MHB] = "L2_MHB",	[PEBS_LVL_L3] = "L3",
	[PEBS_LVL_L4] = "L4",		[PEBS_LVL_MSC] = "MSC",
	[PEBS_LVL_RAM] = "RAM",		[PEBS_LVL_PMEM] = "PMEM",
	[PEBS_LVL_CXL] = "CXL",		[PEBS_LVL_IO] = "IO",
	[PEBS_LVL_UNCACHED] = "UNCACHED", [PEBS_LVL_ANY_CACHE] = "ANY_CACHE",
	[PEBS_LVL_L0] = "L0",
};

static const char *const snoop_id[PEBS_SNOOP_COUNT] = {
	[PEBS_SNOOP_NA] = "NA",		[PEBS_SNOOP_NONE] = "NONE",
	[PEBS_SNOOP_HIT] = "HIT",	[PEBS_SNOOP_MISS] = "MISS",
	[PEBS_SNOOP_HITM] = "HITM",	[PEBS_SNOOP_FWD] = "FWD",
	[PEBS_SNOOP_PEER] = "PEER",
};

/* perf's snoop strings (mem-events.c snoop_access / snoopx names). */
static const char *const snoop_name[PEBS_SNOOP_COUNT] = {
	[PEBS_SNOOP_NA] = "N/A",	[PEBS_SNOOP_NONE] = "None",
	[PEBS_SNOOP_HIT] = "Hit",	[PEBS_SNOOP_MISS] = "Miss",
	[PEBS_SNOOP_HITM] = "HitM",	[PEBS_SNOOP_FWD] = "Fwd",
	[PEBS_SNOOP_PEER] = "Peer",
};

/* Human level names: [level][0 = local hit, 1 = remote hit]; misses handled below. */
static const char *const level_name[PEBS_LVL_COUNT][2] = {
	[PEBS_LVL_NA] = { "N/A", "N/A" },
	[PEBS_LVL_L1] = { "L1 hit", "L1 hit" },
	[PEBS_LVL_LFB] = { "LFB/MAB hit", "LFB/MAB hit" },
	[PEBS_LVL_L2] = { "L2 hit", "L2 hit" },
	[PEBS_LVL_L2_MHB] = { "L2 MHB hit", "L2 MHB hit" },
	[PEBS_LVL_L3] = { "L3 hit", "Remote cache hit" },
	[PEBS_LVL_L4] = { "L4 hit", "Remote L4 hit" },
	[PEBS_LVL_MSC] = { "Memory-side Cache hit", "Remote Memory-side Cache hit" },
	[PEBS_LVL_RAM] = { "Local RAM hit", "Remote RAM hit" },
	[PEBS_LVL_PMEM] = { "PMEM", "Remote PMEM" },
	[PEBS_LVL_CXL] = { "CXL", "Remote CXL" },
	[PEBS_LVL_IO] = { "I/O", "I/O" },
	[PEBS_LVL_UNCACHED] = { "Uncached", "Uncached" },
	[PEBS_LVL_ANY_CACHE] = { "Any cache hit", "Remote Any cache hit" },
	[PEBS_LVL_L0] = { "L0 hit", "L0 hit" },
};

const char *pebs_level_id(unsigned level)
{
	return level < ARRAY_SIZE(level_id) ? level_id[level] : "NA";
}

const char *pebs_snoop_id(unsigned snoop)
{
	return snoop < ARRAY_SIZE(snoop_id) ? snoop_id[snoop] : "NA";
}

const char *pebs_snoop_name(unsigned snoop)
{
	return snoop < ARRAY_SIZE(snoop_name) ? snoop_name[snoop] : "N/A";
}

const char *pebs_dsrc_level_name(const struct pebs_dsrc *d)
{
	if (d->reserved)
		return "unknown";
	if (d->level >= PEBS_LVL_COUNT)
		return "N/A";
	if (d->hit == PEBS_NO) {
		if (d->level == PEBS_LVL_L1)
			return "L1 miss";
		if (d->level == PEBS_LVL_L3)
			return "L3 miss";
	}
	return level_name[d->level][d->remote == PEBS_YES];
}
