/*
 * model_log_ibs.c: the PEBS step of tools/model-log on a modelled AMD part (model_log.h): what
 * loads/kibs.c runs on hardware, over the IBS model (tests/model/ibs_model.h) instead of a live
 * chain. ibs/ibs_measure.c arms op sampling through the driver and decodes each sample in the
 * model's interrupt; loads/kibs_report.c prints and judges exactly as the kernel does, for
 * load_l1..load_dram and the other kernels (LFB, store, STLB: a sample's DTLB-miss bits; remote:
 * RmtNode; model_log_special.c). Only the workload differs: per chase step one load (level drawn per the Intel run's mix, miss
 * latency uniform in its per-level range: model_log_pebs.c) and one other op (the loop's
 * bookkeeping), fed in batches of loads then as many other ops (a batch is period/32 loads
 * at long periods, so a run costs O(samples) model calls), so about half the samples are
 * loads. IbsDcMissLat counts from the data-cache miss to the fill, a few cycles under
 * load-to-use (docs/ibs.md "Latency and the verdicts"): the ranges are inputs, not claims.
 */
#include "tools/model_log.h"
#include "loads/kibs_report.h"
#include "loads/pebs_cost.h"
#include "model/ibs_model.h"
#include "model/vclock.h"
#include "ibs/ibs_measure.h"

#define BATCH 8			/* loads fed with one drawn level and latency */
#define CHUNK_BATCHES 256
#define BASE_CHUNKS 8
#define DUMP_SAMPLES 256	/* load samples aimed at with a dump ... */
#define DUMP_CAP 320		/* ... and kept: the overshoot of the last chunk fits */

static struct ibs_measure meas;
static uint8_t dump_buf[DUMP_CAP * IBS_SAMPLE_BYTES];
static struct kibs_levels levels;

struct feed {
	const struct ml_mixrow *mx;
	const struct ml_opts *o;
	uint64_t batch;		/* loads per drawn level: BATCH, or period/32 for long periods */
	uint64_t loads_left;
	uint64_t fed;		/* loads fed: the cost's step count */
};

static bool work(void *ctx)
{
	struct feed *f = ctx;
	const struct ibs_model_op other = { .load = false };

	for (unsigned b = 0; b < CHUNK_BATCHES && f->loads_left; b++) {
		unsigned i = ml_draw(f->mx), lo = 0, hi = 0;
		struct ibs_model_op ld = { .load = true,
					   .addr = 0x40000000 + (ml_rand() % 65536) * 64 };

		ld.level = (uint8_t)f->mx->p[i].lvl;
		ld.remote = f->mx->p[i].want == ML_W_REMOTE;
		ld.stlb_miss = f->mx->p[i].want == ML_W_STLB;
		ml_lat_range(f->mx->p[i].lvl, f->o, &lo, &hi);
		ld.lat = (uint16_t)(lo + ml_rand() % (hi - lo + 1));
		ibs_model_feed(&ld, f->batch);
		ibs_model_feed(&other, f->batch);
		f->fed += f->batch;
		f->loads_left = f->loads_left > f->batch ? f->loads_left - f->batch : 0;
	}
	return f->loads_left > 0;
}

static uint64_t clock_v(void *ctx)
{
	(void)ctx;
	return vclock.now;
}

struct armed_ctx {
	struct ibs_measure_cfg *cfg;
	struct feed *f;
	const struct ibs_caps *c;
	uint64_t want;
};

static int armed(void *ctx, uint64_t period, uint64_t *records, uint64_t *irqs, uint64_t *used)
{
	struct armed_ctx *a = ctx;
	int rc;

	a->cfg->period = period;
	a->cfg->seed = ml_rand() | 1;
	a->f->loads_left = a->want * period * 3;	/* two ops per load, +50 % margin */
	a->f->batch = period / 32 > BATCH ? period / 32 : BATCH;
	rc = ibs_measure_run(&meas, a->c, a->cfg);
	*records = meas.agg.records;
	*irqs = meas.st.irqs;
	*used = period;
	return rc;
}

void ml_ibs_target(struct ktest *t, const char *name, const struct ibs_caps *c,
		   const struct ml_opts *o, uint64_t timed_x100, int tg,
		   const struct ml_mixrow *mx)
{
	uint64_t want = o->dump != ML_DUMP_NONE ? DUMP_SAMPLES : 4096;
	uint64_t tick_per_load = timed_x100 / 110 ? timed_x100 / 110 : 1;	/* TSC = core/1.10 */
	struct feed f = { .mx = mx, .o = o, .batch = BATCH }, bf;
	struct pebs_cost_run base = { .work = work, .ctx = &bf, .clock = clock_v,
				      .step_count = &bf.fed };
	struct pebs_cost_run run = { .work = work, .ctx = &f, .clock = clock_v,
				     .step_count = &f.fed };
	struct ibs_measure_cfg cfg = { .work = pebs_cost_chunk, .work_ctx = &run,
				       .target_loads = want,
				       .ldlat = kibs_ldlat(c, (enum load_target)tg, 0, NULL) };
	struct armed_ctx ac = { .cfg = &cfg, .f = &f, .c = c, .want = want };
	struct pebs_cost cost;

	/* a load step costs the `time` line's ticks; the other op is free (it overlaps) */
	ibs_model_set_costs(tick_per_load / 2 ? tick_per_load / 2 : 1,
			    o->pmi_ns * o->tsc_khz / 1000000);
	if (o->dump != ML_DUMP_NONE) {
		cfg.dump = dump_buf;
		cfg.dump_cap = sizeof(dump_buf);
	}
	bf = f;
	bf.loads_left = BASE_CHUNKS * CHUNK_BATCHES * BATCH;
	pebs_cost_baseline(&base, BASE_CHUNKS);
	if (pebs_cost_measure(&cost, &base, &run, o->sav, !o->sav_given, true,
			      o->tsc_khz * 1000, armed, &ac)) {
		kt_check(t, false, "ibs_source # %s", meas.err);
		return;
	}
	kibs_report(t, name, &meas, c, &cost, (enum load_target)tg, timed_x100, true, &levels,
		    o->dump == ML_DUMP_RAW ? KIBS_DUMP_RAW : o->dump == ML_DUMP_DECODED ?
		    KIBS_DUMP_DECODED : KIBS_DUMP_NONE);
}

void ml_ibs_step(struct ktest *t, unsigned k, const char *name, const struct ibs_caps *c,
		 const struct ml_opts *o, uint64_t timed_x100)
{
	ml_ibs_target(t, name, c, o, timed_x100, (int)k, ml_mix_row(o->mix, k));
}
