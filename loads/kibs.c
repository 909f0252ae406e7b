/*
 * kibs.c: the load kernels' sampler on AMD (kibs.h, loads/sampler.h): one IBS op-sampling
 * measurement per kernel, right after its timing, over the same chain, in chunks with
 * interrupts on so each sample's interrupt decodes it into the aggregate (loads/kstep.c runs
 * the step and its cost). The mean op period is the sav the Intel path would use (~1 %
 * overhead, sav= overrides); each re-arm draws the max count anew (ibs/ibs.c) so samples do
 * not alias with the chain. APM Vol. 2 "Instruction-Based Sampling"; docs/ibs.md.
 */
#include "loads/kibs.h"
#include "kernel/cmdline.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"
#include "loads/kibs_report.h"
#include "loads/sampler.h"
#include "pebs/pebs.h"

#include <string.h>

static struct ibs_state {
	struct ibs_measure meas;
	struct ibs_measure_cfg cfg;
	const struct ibs_caps *c;
	enum kibs_dump dump;
	struct kibs_levels levels;
	uint8_t dump_buf[64u << 10];
} ibs_st;

static const char *unavailable(void *self)
{
	(void)self;
	return ibs_unavailable(ibs_caps_init());
}

static void prepare(void *self, const struct load_run *r, enum load_target tg, struct kstep *k,
		    uint64_t *period, bool *user)
{
	struct ibs_state *st = self;
	const char *dump = cmdline_get(&kcmdline, "dump");
	struct pebs_config pc;

	st->c = ibs_caps_init();
	/* samples outside the chain's buffer are not the workload's (the handler's own loads:
	 * ibs/ibs_measure.h lo/hi) */
	st->cfg = (struct ibs_measure_cfg){ .work = pebs_cost_chunk, .work_ctx = &k->run,
					    .lo = (uintptr_t)r->base,
					    .hi = (uintptr_t)r->base + r->ws };
	st->dump = KIBS_DUMP_NONE;
	*user = cmdline_get(&kcmdline, "sav") != NULL;
	pebs_config_init(&pc, PEBS_LOAD_LATENCY, &kcmdline, kstep_warn);
	*period = *user ? pc.sav : pebs_cost_default_sav(r->ns_x100 / k->per_step);
	st->cfg.ldlat = kibs_ldlat(st->c, tg, cmdline_get(&kcmdline, "ldlat") ? pc.ldlat : 0,
				   kstep_warn);
	if (dump && (!strcmp(dump, "raw") || !strcmp(dump, "decoded"))) {
		st->cfg.dump = st->dump_buf;
		st->cfg.dump_cap = sizeof(st->dump_buf);
		st->dump = !strcmp(dump, "raw") ? KIBS_DUMP_RAW : KIBS_DUMP_DECODED;
	}
}

static int measure(void *self, uint64_t period, struct sampler_result *out)
{
	struct ibs_state *st = self;
	int rc;

	st->cfg.period = period;
	st->cfg.seed = rdtsc();
	rc = ibs_measure_run(&st->meas, st->c, &st->cfg);
	out->records = st->meas.agg.records;
	out->irqs = st->meas.st.irqs;
	out->period = period;
	return rc;
}

static const char *error(void *self)
{
	return ((struct ibs_state *)self)->meas.err;
}

static void report(void *self, struct ktest *t, const struct load_run *r, enum load_target tg,
		   const struct pebs_cost *cost, uint64_t timed_x100)
{
	struct ibs_state *st = self;

	kibs_report(t, r->name, &st->meas, st->c, cost, tg, timed_x100, r->res.have_core,
		    &st->levels, st->dump);
}

static const char *source_name(void *self, char *b, unsigned n)
{
	(void)self;
	fmt_snprintf(b, n, "ibs_source");
	return b;
}

static const struct pebs_agg *aggregate(void *self)
{
	return &((struct ibs_state *)self)->meas.agg;
}

static const struct sampler ibs_sampler = {
	.name = "IBS", .prefix = "ibs", .self = &ibs_st, .unavailable = unavailable,
	.prepare = prepare, .measure = measure, .error = error, .report = report, .source_name = source_name,
	.aggregate = aggregate,
};

const char *kibs_unavailable(void)
{
	return unavailable(NULL);
}

enum kt_result kibs_check(struct ktest *t, const struct load_run *r, enum load_target tg)
{
	return kstep_sample(t, r, tg, &ibs_sampler);
}

void kibs_register(void)
{
	kload_set_sampler(&ibs_sampler);
}
