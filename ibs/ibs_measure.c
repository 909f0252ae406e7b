/*
 * ibs_measure.c: one IBS measurement (see ibs_measure.h). The sink runs in the interrupt: it
 * decodes into the aggregate and copies bytes, nothing else; printing happens after the stop.
 * IbsOpCntCtl counts the interrupt handler's own ops too, so a load sample whose DC linear
 * address (IbsDcLinAd, valid per IBS_OP_DATA3 DcLinAddrValid) lies outside the workload's
 * buffer is the handler's (its stack, the session) and not aggregated (H2: counted as
 * foreign); a tick between chunks renews the interrupt budget (ibs_tick). With the
 * load-latency filter, samples under its threshold are dropped (below_ldlat).
 */
#include "ibs/ibs_measure.h"
#include "ibs/ibs_regs.h"
#include "kernel/fmt.h"

#include <string.h>

#define IBS_MEASURE_LOADS 4096u

static bool foreign(const struct ibs_measure *m, const struct ibs_sample *s)
{
	uint64_t a = s->w[IBS_W_LINADDR];

	return m->hi && (s->w[IBS_W_DATA3] & IBS_DATA3_DC_LIN_ADDR_VALID) &&
	       (a < m->lo || a >= m->hi);
}

/* With the load-latency filter, a load that did not miss the DC or whose IbsDcMissLat is not
 * above the threshold should not have been tagged: dropped and counted, as Linux
 * perf_ibs_handle_irq() drops it (ld_op && dc_miss && dc_miss_lat > ldlat). */
static bool below(const struct ibs_measure *m, const struct ibs_sample *s)
{
	uint64_t d3 = s->w[IBS_W_DATA3];

	return m->ldlat && (d3 & IBS_DATA3_LD_OP) &&
	       (!(d3 & IBS_DATA3_DC_MISS) ||
		(d3 & IBS_DATA3_DC_MISS_LAT) >> IBS_DATA3_DC_MISS_LAT_SHIFT <= m->ldlat);
}

static void sink(void *ctx, const struct ibs_sample *s)
{
	struct ibs_measure *m = ctx;

	if (foreign(m, s)) {
		m->foreign++;
		return;
	}
	if (below(m, s)) {
		m->below_ldlat++;
		return;
	}
	if (!ibs_agg_add(&m->agg, m->fam, m->ext_dsrc, s)) {
		m->other_ops++;
		return;
	}
	m->loads++;
	if (!m->dump)
		return;		/* the dump holds the aggregated (load) samples only */
	if (m->dump_len + IBS_SAMPLE_BYTES <= m->dump_cap) {
		ibs_sample_write(s, m->dump + m->dump_len);
		m->dump_len += IBS_SAMPLE_BYTES;
		m->dump_kept++;
	} else {
		m->dump_lost++;
	}
}

int ibs_measure_run(struct ibs_measure *m, const struct ibs_caps *c,
		    const struct ibs_measure_cfg *cfg)
{
	uint64_t target = cfg->target_loads ? cfg->target_loads : IBS_MEASURE_LOADS;
	struct ibs_config ic = { .period = cfg->period, .seed = cfg->seed, .sink = sink,
				 .ldlat = cfg->ldlat };

	memset(m, 0, sizeof(*m));
	m->fam = c->fam;
	m->ext_dsrc = c->ext_dsrc;
	m->period = cfg->period;
	m->dump = cfg->dump;
	m->dump_cap = cfg->dump ? cfg->dump_cap : 0;
	m->lo = cfg->lo;
	m->hi = cfg->hi;
	m->ldlat = cfg->ldlat;
	pebs_agg_init(&m->agg);
	ic.sink_ctx = m;
	if (ibs_start(&m->s, c, &ic)) {
		fmt_snprintf(m->err, sizeof(m->err), "%s", m->s.err);
		return -1;
	}
	while (m->loads < target) {
		m->chunks++;
		if (!cfg->work(cfg->work_ctx))
			break;
		ibs_tick(&m->s);
	}
	ibs_stop(&m->s);
	m->st = m->s.st;
	return 0;
}
