/*
 * xcore_pebs.c: the PEBS step of load_snoop / load_hitm. The kernel runs again, in chunks,
 * under the load-latency event on the measuring (boot) CPU (pebs/measure.h; SDM Vol. 3B
 * "Load Latency Performance Monitoring Facility"), with the latency threshold at
 * XCORE_LDLAT core cycles unless ldlat= is given, so the handshake's L1-hit spin loads are
 * not sampled, and a small sample-after value (a few thousand cross-core loads in all),
 * raised to the model's minimum period where one applies (Nehalem/Westmere 32: Linux
 * nhm_limit_period; the line says so).
 * The verdict (loads/xcore_expect.c) counts the snoop results of the records served by
 * another core's cache. Where PEBS cannot run the subtest SKIPs with the reason.
 */
#include "loads/xcore.h"
#include "kernel/cmdline.h"
#include "kernel/console.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"
#include "kernel/idt.h"
#include "kernel/ktap.h"
#include "kernel/tsc.h"
#include "loads/kload.h"
#include "loads/kpebs.h"
#include "pebs/caps.h"
#include "pebs/measure.h"
#include "loads/pebs_verdict.h"
#include "loads/latmatrix.h"

#define XCORE_LDLAT 32u		/* an L1/L2 hit costs far less, a cross-core load far more */
#define XCORE_SAV   2u
#define CHUNK       32u

struct chunk_ctx {
	struct xcore_run *r;
	uint64_t deadline;
	bool stalled;
};

static struct pebs_measure meas;
static uint64_t asked_sav;	/* the sav asked for (before a model's minimum period) */

static bool chunk(void *ctx)
{
	struct chunk_ctx *c = ctx;

	for (unsigned k = 0; k < CHUNK; k++)
		if (!xcore_step(c->r)) {
			c->stalled = c->r->loads < c->r->want;
			return false;
		}
	return rdtsc() < c->deadline;
}

static void warn(const char *msg)
{
	kprintf("# warning: %s\n", msg);
}

/* r's kernel again under load-latency PEBS on the boot CPU (pc NULL), or on the CPU this runs
 * on through its own state pc: 0 with the aggregate in *agg, or -1 with *why (*skip: a SKIP,
 * not a failure). */
static int measure(struct xcore_run *r, struct pebs_cpu *pc, const char **why, bool *skip,
		   const struct pebs_agg **agg)
{
	struct pebs_measure *m = pc ? &pc->meas : &meas;
	struct chunk_ctx cc = { .r = r };
	struct pebs_measure_cfg cfg = { .work = chunk, .work_ctx = &cc };
	uint64_t fl;
	int rc;

	*skip = false;
	*why = pc ? kpebs_cpu_unavailable(pc) : kload_pebs_unavailable();
	if (*why) {
		*skip = true;
		return -1;
	}
	if (!pc && !pebs_caps_pebs_ok(pebs_caps_init(), why)) {	/* the sampler is IBS */
		static char ibs_why[200];

		fmt_snprintf(ibs_why, sizeof(ibs_why), XCORE_PEBS_ONLY "%s", *why);
		*why = ibs_why;
		*skip = true;
		return -1;
	}
	pebs_config_init(&cfg.pc, PEBS_LOAD_LATENCY, &kcmdline, warn);
	if (!cmdline_get(&kcmdline, "ldlat"))
		cfg.pc.ldlat = XCORE_LDLAT;
	if (!cmdline_get(&kcmdline, "sav"))
		cfg.pc.sav = XCORE_SAV;
	asked_sav = cfg.pc.sav;
	if (xcore_begin(r)) {
		*why = r->why;
		return -1;
	}
	cc.deadline = rdtsc() + tsc_hz / 1000 * kload_timing()->budget_ms;
	fl = irq_save();
	irq_enable();		/* the threshold PMI drains the buffer */
	rc = pc ? pebs_cpu_measure(pc, &cfg) : pebs_measure_run(&meas, pebs_caps_init(), &cfg);
	irq_restore(fl);
	if (xcore_end(r) || cc.stalled) {
		*why = r->why ? r->why : "the helper stalled";
		return -1;
	}
	if (rc) {
		*why = m->err;
		return -1;
	}
	*agg = &m->agg;
	return 0;
}

void xcore_pebs_step(struct ktest *t, struct xcore_run *base)
{
	struct xcore_run r = { .name = base->name, .kind = base->kind, .helper = base->helper,
			       .want = XCORE_MAX_LOADS };
	const char *rule = NULL, *why;
	const struct pebs_agg *agg;
	char d[200];
	bool skip;
	int v;

	if (measure(&r, NULL, &why, &skip, &agg)) {
		if (skip)
			kt_skip_sub(t, "pebs_source", "%s", why);
		else
			kt_check(t, false, "pebs_source # %s", why);
		return;
	}
	if (pv_records(&meas.st, meas.s.counter, d, sizeof(d)) == PV_SKIP) {
		kt_skip_sub(t, "pebs_source", "%s", d);
		return;
	}
	(void)pebs_limit_period(pebs_caps_init()->uarch, meas.event, asked_sav, &rule);
	kt_info(t, "%s pebs: %u loads, ldlat %u, sav %llu%s%s%s, %llu records, %llu PMIs", r.name,
		r.loads, meas.ldlat, (unsigned long long)meas.sav, rule ? " (clamped: " : "",
		rule ? rule : "", rule ? ")" : "", (unsigned long long)meas.agg.records,
		(unsigned long long)meas.st.pmis);
	v = xcore_pebs_verdict(&meas.agg, r.kind, d, sizeof(d));
	if (v < 0)
		kt_skip_sub(t, "pebs_source", "too few records: %s", d);
	else
		kt_check(t, v == 1, "pebs_source # %s", d);
}

int xcore_pebs_cell(const struct xcore_run *base, struct pebs_cpu *pc, char *src, unsigned n)
{
	struct xcore_run r = { .name = base->name, .kind = base->kind, .helper = base->helper,
			       .want = XCORE_MAX_LOADS };
	const struct pebs_agg *agg;
	const char *why;
	char d[200];
	bool skip;
	int v;

	if ((base->measurer != 0) != (pc != NULL) || (pc && base->helper == 0) ||
	    measure(&r, pc, &why, &skip, &agg))
		return -1;
	latm_src_label(agg, src, n);
	v = xcore_pebs_verdict(agg, r.kind, d, sizeof(d));
	return v < 0 ? 2 : v;
}
