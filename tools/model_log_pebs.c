/*
 * model_log_pebs.c: the PEBS step of tools/model-log (model_log.h). It runs what loads/kpebs.c
 * kpebs_check runs on hardware, over the PMU model (tests/model/pmu_model.h) instead of a live
 * chain: pebs/measure.c programs the load-latency event and drains the model's records through
 * the driver's PMI into the aggregate; loads/kpebs_print.c prints the `pebs`, `lvl`, `hist`,
 * `dump`, `raw`/`rec` lines; loads/pebs_verdict.c judges (pebs_source, pebs_latency,
 * pebs_rises), and a failed verdict appends pebs/agg_print.c's full table (`|` lines), as
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
#include "loads/kload.h"
#include "loads/pv_xsrc.h"
#include "loads/xcore.h"
#include "model/pmu_model.h"
#include "pebs/agg_print.h"
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

/* The data-source code the model writes for a level (and a kind of hit: plain, STLB miss,
 * remote, snoop Hit, snoop HitM): found through the decoder's table for this CPU, not
 * hard-coded. Returns false when the table has none. */
static bool find_code(const struct pebs_caps *c, enum pebs_event ev, enum pebs_level l,
		      enum ml_want want, uint64_t *out)
{
	const struct pebs_model *pm = pebs_model_lookup(c->family, c->model,
							pebs_measure_core(c));
	struct pebs_dsrc d;

	for (uint64_t code = 0; pm && code < 4096; code++) {
		bool ok;

		pebs_dsrc_decode(pm, ev, code, &d);
		if (ev == PEBS_EV_STORE) {	/* a store's status: L1 hit or not (pv_store) */
			if (d.hit == (l == PEBS_LVL_L1 ? PEBS_YES : PEBS_NO) &&
			    d.stlb_miss != PEBS_YES && d.locked != PEBS_YES) {
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
		case ML_W_SNOOP:
			ok = d.snoop == PEBS_SNOOP_HIT && d.stlb_miss != PEBS_YES;
			break;
		case ML_W_HITM:
			ok = d.snoop == PEBS_SNOOP_HITM && d.stlb_miss != PEBS_YES;
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

bool ml_has_code(const struct pebs_caps *c, enum pebs_level l, enum ml_want want)
{
	uint64_t code;

	return find_code(c, PEBS_EV_LOAD, l, want, &code);
}

static uint64_t code_for(const struct pebs_caps *c, enum pebs_level l)
{
	uint64_t code;

	if (find_code(c, PEBS_EV_LOAD, l, ML_W_HIT, &code))
		return code;
	fprintf(stderr, "model-log: no data-source code for level %u\n", l);
	exit(2);
}

struct feed {
	uint16_t event;		/* the model's event the loads (or stores) count on */
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
		model_feed(f->event ? f->event : mc->ll_event, BATCH, &ld);
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

/* One PEBS measurement over f's records and its lines, as loads/kpebs.c step_run runs and
 * prints it before its verdicts. NULL when the measurement failed (the subtest says why). */
static struct pebs_measure *measure(struct ktest *t, const char *name, const struct pebs_caps *c,
				    const struct ml_opts *o, uint64_t timed_x100, int lvl,
				    bool store, struct feed *f, struct pebs_cost *cost)
{
	uint64_t want = o->dump != ML_DUMP_NONE ? DUMP_RECORDS : PEBS_MEASURE_RECORDS;
	uint64_t tick_per_load = timed_x100 / 110 ? timed_x100 / 110 : 1;	/* TSC = core/1.10 */
	static struct feed bf;
	struct pebs_cost_run base = { .work = work, .ctx = &bf, .clock = model_clock,
				      .step_count = &bf.fed };
	struct pebs_cost_run run = { .work = work, .ctx = f, .clock = model_clock,
				     .step_count = &f->fed };
	struct pebs_measure_cfg cfg = { .work = pebs_cost_chunk, .work_ctx = &run,
					.target_records = want };
	struct pebs_measure *m = o->pc ? &o->pc->meas : &boot_meas;
	struct ml_armed ac = { .cfg = &cfg, .f = f, .c = c, .pc = o->pc, .m = m, .want = want };

	model_set_costs(tick_per_load, o->assist_ns * o->tsc_khz / 1000000,
			o->pmi_ns * o->tsc_khz / 1000000);
	pebs_config_init(&cfg.pc, store ? PEBS_STORE : PEBS_LOAD_LATENCY, NULL, NULL);
	if (o->dump != ML_DUMP_NONE) {
		cfg.dump = dump_buf;
		cfg.dump_cap = sizeof(dump_buf);
	}
	bf = *f;
	bf.events_left = BASE_CHUNKS * CHUNK_EVENTS;
	pebs_cost_baseline(&base, BASE_CHUNKS);
	if (pebs_cost_measure(cost, &base, &run, o->sav, !o->sav_given, true,
			      o->tsc_khz * 1000, armed, &ac)) {
		kt_check(t, false, "%spebs_source # %s", o->sub ? o->sub : "", m->err);
		return NULL;
	}
	kp_summary(kpk_line, t, name, m, cost, lvl, timed_x100, true);
	kp_table(kpk_line, t, name, &m->agg);
	if (cfg.dump)
		kp_dump(kpk_line, t, name, m, c, o->dump == ML_DUMP_RAW);
	return m;
}

void ml_pebs_step(struct ktest *t, unsigned k, const char *name, const struct pebs_caps *c,
		  const struct ml_opts *o, uint64_t timed_x100)
{
	struct feed f = { .mx = &mixes[o->mix][k] };
	struct pebs_measure *m;
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
	m = measure(t, name, c, o, timed_x100, (int)lvl, false, &f, &cost);
	if (!m)
		return;
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

/* f's codes and latency ranges for the parts of mx, for event ev; false: a part has none. */
static bool setup(struct feed *f, const struct pebs_caps *c, const struct ml_opts *o,
		  enum pebs_event ev, const struct ml_mixrow *mx)
{
	f->mx = mx;
	for (unsigned i = 0; i < 3 && mx->p[i].pct; i++) {
		if (!find_code(c, ev, mx->p[i].lvl, mx->p[i].want, &f->code[i]))
			return false;
		ml_lat_range(mx->p[i].lvl, o, &f->lo[i], &f->hi[i]);
		if (!f->hi[i])
			f->lo[i] = 1, f->hi[i] = 2;	/* a store: no latency */
	}
	return true;
}

bool ml_pebs_target(struct ktest *t, const char *name, const struct pebs_caps *c,
		    const struct ml_opts *o, uint64_t timed_x100, int tg,
		    const struct ml_mixrow *mx)
{
	static const int lv[] = { [TGT_LFB] = PEBS_LVL_LFB, [TGT_STORE] = -1, [TGT_STLB] = -1,
				  [TGT_REMOTE] = PEBS_LVL_RAM };
	struct feed f = { 0 };
	struct pebs_measure *m;
	struct pebs_cost cost;
	char d[200];

	if (!setup(&f, c, o, tg == TGT_STORE ? PEBS_EV_STORE : PEBS_EV_LOAD, mx))
		return false;
	if (tg == TGT_STORE)
		f.event = model_cpu()->st_event;
	m = measure(t, name, c, o, timed_x100, lv[tg], tg == TGT_STORE, &f, &cost);
	if (!m)
		return true;
	judge(t, o, m, name, "pebs_overhead", pv_overhead(&cost, m->sav, d, sizeof(d)), d);
	if (tg == TGT_STORE) {
		judge(t, o, m, name, "pebs_store", pv_store(m->agg.records, m->st_hit, m->st_miss,
						   m->model ? m->model->store : PEBS_ST_NONE,
						   d, sizeof(d)), d);
	} else if (tg == TGT_STLB) {
		judge(t, o, m, name, "pebs_stlb", pv_stlb(&m->agg, m->ab.stlb_mask != 0, d,
							     sizeof(d)), d);
	} else {
		judge(t, o, m, name, "pebs_source", pv_source(&m->agg, (enum pebs_level)lv[tg], d,
								sizeof(d)), d);
		if (tg == TGT_REMOTE)
			judge(t, o, m, name, "pebs_remote", pv_xsrc(&m->agg, m->model, PV_X_REMOTE,
								    d, sizeof(d)), d);
	}
	return true;
}

/* loads/xcore_pebs.c: ldlat 32 (the handshake's spin loads are not sampled), sav 2. */
void ml_xcore_pebs(struct ktest *t, const char *name, const struct pebs_caps *c,
		   const struct ml_opts *o, int kind, const struct ml_mixrow *mx)
{
	struct feed f = { 0 };
	struct pebs_cost_run run = { .work = work, .ctx = &f, .clock = model_clock,
				     .step_count = &f.fed };
	struct pebs_measure_cfg cfg = { .work = pebs_cost_chunk, .work_ctx = &run };
	char d[200];
	int v;

	if (!setup(&f, c, o, PEBS_EV_LOAD, mx)) {
		kt_skip_sub(t, "pebs_source", "no such data source in this CPU's table");
		return;
	}
	f.events_left = 4096 * 3;
	model_set_costs(100, o->assist_ns * o->tsc_khz / 1000000, o->pmi_ns * o->tsc_khz / 1000000);
	pebs_config_init(&cfg.pc, PEBS_LOAD_LATENCY, NULL, NULL);
	cfg.pc.ldlat = 32;
	cfg.pc.sav = 2;
	if (pebs_measure_run(&boot_meas, c, &cfg)) {
		kt_check(t, false, "pebs_source # %s", boot_meas.err);
		return;
	}
	kt_info(t, "%s pebs: %u loads, ldlat %u, sav %llu, %llu records, %llu PMIs", name,
		4096u, boot_meas.ldlat, (unsigned long long)boot_meas.sav,
		(unsigned long long)boot_meas.agg.records, (unsigned long long)boot_meas.st.pmis);
	v = xcore_pebs_verdict(&boot_meas.agg, (enum xcore_kind)kind, d, sizeof(d));
	if (v < 0)
		kt_skip_sub(t, "pebs_source", "too few records: %s", d);
	else
		kt_check(t, v == 1, "pebs_source # %s", d);
}
