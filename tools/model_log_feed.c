/*
 * model_log_feed.c: the workload of tools/model-log's PEBS steps (model_log.h): the seeded
 * generator, the record mixes per kernel, the latency range of each level (published
 * load-to-use latencies, docs/latency-method.md §6), the data-source code of a level and kind
 * of hit as the CPU's own decoder table gives it, and the chunks of "loads" fed to the PMU
 * model (model_feed), which turns them into PEBS records as the hardware would.
 */
#include "tools/model_log.h"
#include "loads/xcore.h"
#include "model/pmu_model.h"
#include "pebs/measure.h"

#include <stdio.h>
#include <stdlib.h>

#define BATCH 8			/* events fed with one drawn data source and latency */

/* [mix][kernel]: percent of loads per level; kernels load_l1, load_l2, load_l3, load_dram */
static const struct ml_mixrow mixes[3][4] = {
	[ML_CLEAN] = { { { { 93, PEBS_LVL_L1 }, { 7, PEBS_LVL_LFB } } },
		       { { { 88, PEBS_LVL_L2 }, { 8, PEBS_LVL_L1 }, { 4, PEBS_LVL_L3 } } },
		       { { { 85, PEBS_LVL_L3 }, { 10, PEBS_LVL_L2 }, { 5, PEBS_LVL_RAM } } },
		       { { { 86, PEBS_LVL_RAM }, { 9, PEBS_LVL_L3 }, { 5, PEBS_LVL_L2 } } } },
	[ML_MIXED] = { { { { 93, PEBS_LVL_L1 }, { 7, PEBS_LVL_LFB } } },
		       { { { 88, PEBS_LVL_L2 }, { 8, PEBS_LVL_L1 }, { 4, PEBS_LVL_L3 } } },
		       { { { 85, PEBS_LVL_L3 }, { 10, PEBS_LVL_L2 }, { 5, PEBS_LVL_RAM } } },
		       { { { 55, PEBS_LVL_L3 }, { 45, PEBS_LVL_RAM } } } },
	[ML_L1] = { { { { 95, PEBS_LVL_L1 }, { 5, PEBS_LVL_L2 } } },
		    { { { 95, PEBS_LVL_L1 }, { 5, PEBS_LVL_L2 } } },
		    { { { 95, PEBS_LVL_L1 }, { 5, PEBS_LVL_L2 } } },
		    { { { 95, PEBS_LVL_L1 }, { 5, PEBS_LVL_L2 } } } },
};

/* Latency range per level, core cycles. */
static const struct { enum pebs_level lvl; unsigned lo, hi; } lat_range[] = {
	{ PEBS_LVL_L1, 4, 6 }, { PEBS_LVL_LFB, 7, 20 }, { PEBS_LVL_L2, 12, 18 },
	{ PEBS_LVL_L3, 40, 80 }, { PEBS_LVL_RAM, 180, 420 },
};

static const enum pebs_level target_of[4] = { PEBS_LVL_L1, PEBS_LVL_L2, PEBS_LVL_L3,
					      PEBS_LVL_RAM };

static uint64_t rng_state = 1;

void ml_srand(uint64_t seed)
{
	rng_state = seed * 0x9e3779b97f4a7c15ull + 1;
}

uint64_t ml_rand(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

const struct ml_mixrow *ml_mix_row(enum ml_mix m, unsigned k)
{
	return &mixes[m][k];
}

unsigned ml_draw(const struct ml_mixrow *mx)
{
	unsigned r = (unsigned)(ml_rand() % 100), i = 0;

	while (i < 2 && mx->p[i + 1].pct && r >= mx->p[i].pct)
		r -= mx->p[i++].pct;
	return i;
}

/* A level's latency range, RAM scaled by o->ram_pct (a slower memory system). */
void ml_lat_range(enum pebs_level l, const struct ml_opts *o, unsigned *lo, unsigned *hi)
{
	unsigned pct = l == PEBS_LVL_RAM ? o->ram_pct : 100;

	*lo = *hi = 0;
	for (unsigned i = 0; i < sizeof(lat_range) / sizeof(lat_range[0]); i++)
		if (lat_range[i].lvl == l) {
			*lo = lat_range[i].lo * pct / 100;
			*hi = lat_range[i].hi * pct / 100;
		}
}

uint64_t ml_target_lat_x100(unsigned k, const struct ml_opts *o)
{
	unsigned lo, hi;

	ml_lat_range(target_of[k], o, &lo, &hi);
	return (lo + hi) * 50ull;
}

/* The data-source code the model writes for a level (and a kind of hit: plain, STLB miss,
 * remote, snoop Hit, snoop HitM): found through the decoder's table for this CPU, not
 * hard-coded; a snoop or HitM code is one the cross-core verdict counts. Returns false when
 * the table has none. */
bool ml_find_code(const struct pebs_caps *c, enum pebs_event ev, enum pebs_level l,
		      enum ml_want want, uint64_t *out)
{
	const struct pebs_model *pm = pebs_model_lookup(c->family, c->model,
							pebs_measure_core(c));
	struct pebs_dsrc d;

	for (uint64_t code = 0; pm && code < 4096; code++) {
		bool ok;

		pebs_dsrc_decode(pm, ev, code, &d);
		if (ev == PEBS_EV_STORE) {	/* a store's status: L1 hit or not (pv_store) */
			/* a status word (precise store, DataLA) says hit or miss; a store-latency
			 * data source (PEBS_ST_TABLE) names the level the store hit: an L1 miss
			 * is a hit at l (Golden Cove's table has an L3-miss code 00 first; Panther
			 * Cove's and Arctic Wolf's only hit codes, datasrc_pantherc.c) */
			bool st = l == PEBS_LVL_L1 ? d.hit == PEBS_YES && d.level == PEBS_LVL_L1 :
				  d.hit == PEBS_NO || (d.hit == PEBS_YES && d.level == l);

			if (st && !d.reserved && d.stlb_miss != PEBS_YES && d.locked != PEBS_YES) {
				*out = code;
				return true;
			}
			continue;
		}
		if (d.reserved || d.level != l)
			continue;
		switch (want) {
		case ML_W_STLB:
			ok = d.stlb_miss == PEBS_YES;
			break;
		case ML_W_REMOTE:
			ok = d.remote == PEBS_YES && d.stlb_miss != PEBS_YES;
			break;
		case ML_W_SNOOP:	/* what load_snoop / load_hitm count (loads/xcore_expect.c):
					 * a clean hit may be Hit or Fwd (Lion Cove's only one is
					 * 0CH "L3 Hit Snoop Fwd", Linux ds.c lnc_pebs_data_source) */
		case ML_W_HITM:
			ok = xcore_code_fits(want == ML_W_SNOOP ? XCORE_SNOOP : XCORE_HITM, &d) &&
			     d.stlb_miss != PEBS_YES;
			break;
		default:
			ok = d.stlb_miss != PEBS_YES && d.hit == PEBS_YES && d.remote != PEBS_YES;
		}
		if (ok) {
			*out = code;
			return true;
		}
	}
	return false;
}

uint64_t ml_code_for(const struct pebs_caps *c, enum pebs_level l)
{
	uint64_t code;

	if (ml_find_code(c, PEBS_EV_LOAD, l, ML_W_HIT, &code))
		return code;
	fprintf(stderr, "model-log: no data-source code for level %u\n", l);
	exit(2);
}


/* One chunk of "workload": 256 batches, each with a drawn level and latency. */
bool ml_work(void *ctx)
{
	struct ml_feed *f = ctx;
	const struct model_cpu *mc = model_cpu();

	for (unsigned b = 0; b < 256 && f->events_left; b++) {
		unsigned i = ml_draw(f->mx);
		struct model_load ld = { .addr = 0x40000000 + (ml_rand() % 65536) * 64,
					 .ip = 0x401000 + 4 * (ml_rand() % 3) };

		ld.dsrc = f->code[i];
		ld.lat = f->lo[i] + ml_rand() % (f->hi[i] - f->lo[i] + 1);
		model_feed(f->event ? f->event : mc->ll_event, BATCH, &ld);
		f->fed += BATCH;
		f->events_left = f->events_left > BATCH ? f->events_left - BATCH : 0;
	}
	return f->events_left > 0;
}
enum pebs_level ml_target_of(unsigned k)
{
	return target_of[k];
}
