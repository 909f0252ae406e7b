/*
 * kibs.c: the PEBS step of the load tests on AMD (kibs.h): one IBS measurement per kernel,
 * right after its timing, over the same chain, in chunks with interrupts on so each sample's
 * interrupt decodes it into the aggregate; its cost measured as on the Intel path
 * (loads/pebs_cost.h: the same chunks unarmed first, loads/kstep.h). The mean op period is the sav the Intel
 * path would use (~1 % overhead, sav= overrides); each re-arm draws the max count anew
 * (ibs/ibs.c) so samples do not alias with the chain. APM Vol. 2 "IBS"; docs/ibs.md.
 */
#include "loads/kibs.h"
#include "kernel/cmdline.h"
#include "kernel/console.h"
#include "kernel/hw.h"
#include "kernel/tsc.h"
#include "loads/kibs_report.h"
#include "loads/kstep.h"
#include "loads/pebs_cost.h"
#include "pebs/pebs.h"

#include <string.h>

static struct ibs_measure meas;
static uint8_t dump_buf[64u << 10];
static struct kibs_levels levels;

struct armed_ctx {
	struct ibs_measure_cfg *cfg;
	struct kstep *k;
	const struct ibs_caps *c;
};

static int armed(void *ctx, uint64_t period, uint64_t *records, uint64_t *irqs, uint64_t *used)
{
	struct armed_ctx *a = ctx;
	uint64_t fl;
	int rc;

	a->cfg->period = period;
	a->cfg->seed = rdtsc();
	kstep_arm_deadline(a->k);
	fl = hw_irq_on();	/* each sample's interrupt decodes it */
	rc = ibs_measure_run(&meas, a->c, a->cfg);
	hw_irq_restore(fl);
	*records = meas.agg.records;
	*irqs = meas.st.irqs;
	*used = period;
	return rc;
}

const char *kibs_unavailable(void)
{
	return ibs_unavailable(ibs_caps_init());
}

enum kt_result kibs_check(struct ktest *t, const struct load_run *r, enum load_target tg)
{
	const struct ibs_caps *c = ibs_caps_init();
	const char *dump = cmdline_get(&kcmdline, "dump");
	static struct kstep k;
	struct ibs_measure_cfg cfg = { .work = pebs_cost_chunk, .work_ctx = &k.run,
				       .lo = (uintptr_t)r->base, .hi = (uintptr_t)r->base + r->ws };
	struct armed_ctx ac = { .cfg = &cfg, .k = &k, .c = c };
	bool user_sav = cmdline_get(&kcmdline, "sav") != NULL;
	struct pebs_config pc;
	struct pebs_cost cost;
	enum kibs_dump dk = KIBS_DUMP_NONE;
	uint64_t period;

	kstep_init(&k, r);
	pebs_config_init(&pc, PEBS_LOAD_LATENCY, &kcmdline, kstep_warn);
	period = user_sav ? pc.sav : pebs_cost_default_sav(r->ns_x100 / k.per_step);
	if (dump && (!strcmp(dump, "raw") || !strcmp(dump, "decoded"))) {
		cfg.dump = dump_buf;
		cfg.dump_cap = sizeof(dump_buf);
		dk = !strcmp(dump, "raw") ? KIBS_DUMP_RAW : KIBS_DUMP_DECODED;
	}
	kstep_baseline(&k);
	if (pebs_cost_measure(&cost, &k.base, &k.run, period, !user_sav, true, tsc_hz, armed,
			      &ac)) {
		kt_check(t, false, "pebs_source # %s", meas.err);
		return kt_verdict(t);
	}
	kibs_report(t, r->name, &meas, c, &cost, tg, k.timed_x100, r->res.have_core, &levels, dk);
	return kt_verdict(t);
}

void kibs_register(void)
{
	kload_set_pebs_check(kibs_check);
	kload_set_pebs_unavailable(kibs_unavailable);
}
