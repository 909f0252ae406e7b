/*
 * model_log_pebs.c: the PEBS step of tools/model-log (model_log.h). It runs what loads/kpebs.c
 * kpebs_check runs on hardware, over the PMU model (tests/model/pmu_model.h) instead of a live
 * chain: pebs/measure.c programs the load-latency event and drains the model's records through
 * the driver's PMI into the aggregate; loads/kpebs_print.c prints the `pebs`, `lvl`, `hist`,
 * `dump`, `raw`/`rec` lines; loads/pebs_verdict.c judges (pebs_source, pebs_latency,
 * pebs_rises), and a failed verdict appends sample/agg_print.c's full table (`|` lines), as
 * kpebs.c does. Only the workload differs: the records' data sources (per level, found through
 * the decoder's own table) and latencies (uniform in a per-level range) are drawn from the
 * seeded generator per the mix. Ranges: published load-to-use latencies
 * (docs/latency-method.md §6).
 */
#include "tools/model_log.h"
#include "kernel/console.h"
#include "loads/kpebs_print.h"
#include "loads/kpebs_ktap.h"
#include "loads/pebs_cost.h"
#include "loads/pebs_verdict.h"
#include "loads/plan.h"
#include "model/pmu_model.h"
#include "sample/agg_print.h"
#include "pebs/measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DUMP_RECORDS 280	/* fits PEBS_DUMP_BYTES at the largest record (Skylake 192 B) */
#define BATCH 8			/* events fed with one drawn data source and latency */
#define CHUNK_EVENTS (256 * BATCH)	/* events one work chunk feeds */
#define BASE_CHUNKS 8		/* unarmed chunks timed for the cost (as kpebs.c) */


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
static struct pebs_measure boot_meas;	/* as in kpebs.c: static, not on the stack */
static uint8_t dump_buf[PEBS_DUMP_BYTES];
static uint64_t level_p50[4];
static bool level_have[4];
static unsigned level_cpu;	/* the CPU level_p50/level_have belong to */

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

/* The load data-source code the model writes for a level: found through the decoder's table
 * for this CPU (a hit without STLB miss), not hard-coded. */
static uint64_t code_for(const struct pebs_caps *c, enum pebs_level l)
{
	const struct pebs_model *pm = pebs_model_lookup(c->family, c->model,
							pebs_measure_core(c));
	struct pebs_dsrc d;

	for (uint64_t code = 0; pm && code < 256; code++) {
		pebs_dsrc_decode(pm, PEBS_EV_LOAD, code, &d);
		if (!d.reserved && d.level == l && d.stlb_miss != PEBS_YES && d.hit == PEBS_YES)
			return code;
	}
	fprintf(stderr, "model-log: no data-source code for level %u\n", l);
	exit(2);
}

struct feed {
	const struct ml_mixrow *mx;
	uint64_t code[3];
	unsigned lo[3], hi[3];
	uint64_t events_left;
	uint64_t fed;		/* events fed so far: the cost's step count */
};

/* One chunk of "workload": 256 batches, each with a drawn level and latency. */
static bool work(void *ctx)
{
	struct feed *f = ctx;
	const struct model_cpu *mc = model_cpu();

	for (unsigned b = 0; b < 256 && f->events_left; b++) {
		unsigned i = ml_draw(f->mx);
		struct model_load ld = { .addr = 0x40000000 + (ml_rand() % 65536) * 64,
					 .ip = 0x401000 + 4 * (ml_rand() % 3) };

		ld.dsrc = f->code[i];
		ld.lat = f->lo[i] + ml_rand() % (f->hi[i] - f->lo[i] + 1);
		model_feed(mc->ll_event, BATCH, &ld);
		f->fed += BATCH;
		f->events_left = f->events_left > BATCH ? f->events_left - BATCH : 0;
	}
	return f->events_left > 0;
}

/* A verdict, its subtest named with o->sub's prefix; a failure also shows the whole table. */
static void judge(struct ktest *t, const struct ml_opts *o, const struct pebs_measure *m,
		  const char *name, const char *sub, enum pv_result v, const char *detail)
{
	char b[48];

	snprintf(b, sizeof(b), "%s%s", o->sub ? o->sub : "", sub);
	kpk_judge(t, name, b, v, detail, &m->agg);
}

static uint64_t model_clock(void *ctx)
{
	(void)ctx;
	return model_tsc();
}

struct ml_armed {
	struct pebs_measure_cfg *cfg;
	struct feed *f;
	const struct pebs_caps *c;
	struct pebs_cpu *pc;	/* per-CPU run: that CPU's state (pebs_cpu_measure) */
	struct pebs_measure *m;
	uint64_t want;
};

/* One armed measurement (a pebs_cost_armed_fn): events for `want` records at sav. */
static int armed(void *ctx, uint64_t sav, uint64_t *records, uint64_t *pmis, uint64_t *used)
{
	struct ml_armed *a = ctx;
	uint64_t ev = a->want * (sav + 1);
	int rc;

	a->cfg->pc.sav = sav;
	a->f->events_left = ev;
	rc = a->pc ? pebs_cpu_measure(a->pc, a->cfg) : pebs_measure_run(a->m, a->c, a->cfg);
	*records = a->m->agg.records;
	*pmis = a->m->st.pmis;
	*used = a->m->sav;
	return rc;
}

void ml_pebs_step(struct ktest *t, unsigned k, const char *name, const struct pebs_caps *c,
		  const struct ml_opts *o, uint64_t timed_x100)
{
	uint64_t want = o->dump != ML_DUMP_NONE ? DUMP_RECORDS : PEBS_MEASURE_RECORDS;
	uint64_t tick_per_load = timed_x100 / 110 ? timed_x100 / 110 : 1;	/* TSC = core/1.10 */
	struct feed f = { .mx = &mixes[o->mix][k] }, bf;
	struct pebs_cost_run base = { .work = work, .ctx = &bf, .clock = model_clock,
				      .step_count = &bf.fed };
	struct pebs_cost_run run = { .work = work, .ctx = &f, .clock = model_clock,
				     .step_count = &f.fed };
	struct pebs_measure_cfg cfg = { .work = pebs_cost_chunk, .work_ctx = &run,
					.target_records = want };
	struct pebs_measure *m = o->pc ? &o->pc->meas : &boot_meas;
	struct ml_armed ac = { .cfg = &cfg, .f = &f, .c = c, .pc = o->pc, .m = m, .want = want };
	struct pebs_cost cost;
	enum pebs_level lvl = target_of[k];
	char d[200], b[48];

	if (level_cpu != o->cpu) {	/* pebs_rises compares levels of one CPU */
		memset(level_have, 0, sizeof(level_have));
		level_cpu = o->cpu;
	}
	for (unsigned i = 0; i < 3 && f.mx->p[i].pct; i++) {
		f.code[i] = code_for(c, f.mx->p[i].lvl);
		ml_lat_range(f.mx->p[i].lvl, o, &f.lo[i], &f.hi[i]);
	}
	model_set_costs(tick_per_load, o->assist_ns * o->tsc_khz / 1000000,
			o->pmi_ns * o->tsc_khz / 1000000);
	pebs_config_init(&cfg.pc, PEBS_LOAD_LATENCY, NULL, NULL);
	if (o->dump != ML_DUMP_NONE) {
		cfg.dump = dump_buf;
		cfg.dump_cap = sizeof(dump_buf);
	}
	bf = f;
	bf.events_left = BASE_CHUNKS * CHUNK_EVENTS;
	pebs_cost_baseline(&base, BASE_CHUNKS);
	if (pebs_cost_measure(&cost, &base, &run, o->sav, !o->sav_given, true,
			      o->tsc_khz * 1000, armed, &ac)) {
		kt_check(t, false, "%spebs_source # %s", o->sub ? o->sub : "", m->err);
		return;
	}
	kp_summary(kpk_line, t, name, m, &cost, (int)lvl, timed_x100, true);
	kp_table(kpk_line, t, name, &m->agg);
	if (cfg.dump)
		kp_dump(kpk_line, t, name, m, c, o->dump == ML_DUMP_RAW);
	judge(t, o, m, name, "pebs_overhead", pv_overhead(&cost, m->sav, d, sizeof(d)), d);
	judge(t, o, m, name, "pebs_source", pv_source(&m->agg, lvl, d, sizeof(d)), d);
	judge(t, o, m, name, "pebs_latency", pv_latency(&m->agg, lvl, timed_x100, true, d,
							  sizeof(d)), d);
	if (m->agg.lvl[lvl].count) {
		level_p50[k] = pebs_agg_percentile(&m->agg.lvl[lvl], 500);
		level_have[k] = true;
	}
	if (k == 0)
		return;
	snprintf(b, sizeof(b), "%spebs_rises", o->sub ? o->sub : "");
	if (!level_have[k - 1] || !level_have[k])
		kt_skip_sub(t, b, "%s", !level_have[k] ? "no target-level latency" :
			    "the level below was not measured with PEBS in this run");
	else
		judge(t, o, m, name, "pebs_rises", pv_rises(level_p50[k - 1],
						      load_level_name((enum load_level)(k - 1)),
						      level_p50[k], d, sizeof(d)), d);
}
