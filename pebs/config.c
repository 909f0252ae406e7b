/*
 * config.c: a PEBS session's configuration: command-line defaults (ldlat=, sav=, pebs_buf=,
 * pebs_counters=), the checks against the probed capabilities before anything is written
 * (ldlat range, MSR_PEBS_LD_LAT_THRESHOLD; the reload value's width under full-width
 * writes), the choice of event and PEBS-capable counter (pebs/pmu_tables.c rows), and the
 * per-model counter quirks (docs/hardware.md §7.1, Linux arch/x86/events/intel/core.c):
 * minimum periods clamped as x86_pmu.limit_period does (nhm_limit_period, hsw_limit_period,
 * bdw_limit_period), counters the SMT sibling's session uses avoided for events 0xD0-0xD3
 * (BJ122/BV98/HSD29, intel_ht_bug's exclusive counters), and PMC3 on TSX_FORCE_ABORT parts
 * only with MSR_TSX_FORCE_ABORT[0] set (tfa_get_event_constraints, intel_set_tfa; the one
 * register access, in pebs/probe.c).
 */
#include "pebs/pebs.h"
#include "pebs/msr.h"
#include "kernel/fmt.h"

#define INST_RETIRED_ALL 0x01c0	/* INST_RETIRED.ALL (HSW11/BDM11/BDM55) */

#include <stdarg.h>
#include <string.h>

void pebs_config_init(struct pebs_config *cfg, enum pebs_kind kind, const struct cmdline *cl,
		      cmdline_warn_fn warn)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->kind = kind;
	cfg->counter = -1;
	cfg->ldlat = PEBS_LD_LAT_MIN;
	cfg->sav = PEBS_SAV_DEFAULT;
	cfg->buf_bytes = PEBS_BUF_DEFAULT;
	if (!cl)
		return;
	cfg->ldlat = (uint32_t)cmdline_u64(cl, "ldlat", PEBS_LD_LAT_MIN, PEBS_LD_LAT_MIN,
					   PEBS_LD_LAT_MASK, warn);
	cfg->sav = cmdline_u64(cl, "sav", PEBS_SAV_DEFAULT, 1, 0x7fffffff, warn);
	cfg->buf_bytes = cmdline_u64(cl, "pebs_buf", PEBS_BUF_DEFAULT / 1024, 4,
				     PEBS_BUF_MAX / 1024, warn) * 1024;
	cfg->counters = pebs_cntr_option(cl, warn);
}

uint64_t pebs_counter_value(const struct pebs_caps *c, uint64_t n)
{
	uint64_t mask = c->gp_width >= 64 ? ~0ull : (1ull << c->gp_width) - 1;

	return (0 - n) & mask;
}

int pebs_fail(struct pebs_session *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	return -1;
}

/* BJ122/BV98/HSD29: with HT on, events 0xD0-0xD3 corrupt the sibling's counter of the same
 * index. Linux (intel_ht_bug) schedules such counters exclusively across the siblings; here
 * one CPU measures at a time, and the counters other CPUs' sessions hold are avoided (any
 * other CPU may be the sibling): all of them for such an event, those carrying such an event
 * for any other. */
static int ht_exclude(struct pebs_session *s, uint16_t event, uint32_t *allowed)
{
	bool excl = (event & 0xff) >= 0xd0 && (event & 0xff) <= 0xd3;
	uint32_t busy;

	if (!(s->caps->uarch->quirks & Q_HT_ERRATUM))
		return 0;
	busy = pebs_pmi_counters_elsewhere(!excl) & *allowed;
	if (busy && (!(*allowed & ~busy) ||
		     (s->cfg.counter >= 0 && s->cfg.counter < 32 && (busy >> s->cfg.counter) & 1)))
		return pebs_fail(s, "BJ122/BV98/HSD29: counters 0x%x in use on another CPU, exclusive "
				 "with HT for event 0x%04x", busy, event);
	*allowed &= ~busy;
	return 0;
}

/* Event, allowed counters and counter for this configuration. */
static int choose(struct pebs_session *s, uint16_t *event, uint32_t *allowed)
{
	const struct pebs_uarch *u = s->caps->uarch;
	const char *why;

	if (s->cfg.kind == PEBS_LOAD_LATENCY) {
		if (!pebs_caps_ll_ok(s->caps, &why))
			return pebs_fail(s, "%s", why);
		*event = u->ll_event;
		*allowed = u->ll_gp;
	} else if (s->cfg.kind == PEBS_STORE) {
		if (!u->st_event)
			return pebs_fail(s, "%s: no store-sampling event", u->name);
		*event = u->st_event;
		*allowed = u->st_gp;
	} else {
		*event = s->cfg.event;
		*allowed = ~0u;
	}
	*allowed &= pebs_caps_pebs_gp(s->caps);
	if (ht_exclude(s, *event, allowed))
		return -1;
	if (s->cfg.counter < 0) {
		if (!*allowed)
			return pebs_fail(s, "%s: no PEBS counter for event 0x%04x", u->name, *event);
		s->counter = (unsigned)__builtin_ctz(*allowed);
	} else if ((unsigned)s->cfg.counter >= 32 || !(*allowed & (1u << s->cfg.counter))) {
		return pebs_fail(s, "%s: event 0x%04x cannot PEBS on counter %d (allowed 0x%x)",
			    u->name, *event, s->cfg.counter, *allowed);
	} else {
		s->counter = (unsigned)s->cfg.counter;
	}
	return 0;
}

static int validate(struct pebs_session *s)
{
	const struct pebs_caps *c = s->caps;
	uint64_t max_sav = c->fw_write ? ((1ull << c->gp_width) - 1) >> 1 : 0x7fffffff;
	const char *why;

	if (!pebs_caps_pebs_ok(c, &why))
		return pebs_fail(s, "%s", why);
	if (s->cfg.ldlat == 0)
		s->cfg.ldlat = PEBS_LD_LAT_MIN;
	if (s->cfg.ldlat < PEBS_LD_LAT_MIN || s->cfg.ldlat > PEBS_LD_LAT_MASK)
		return pebs_fail(s, "ldlat=%u outside [%u, %llu] (MSR_PEBS_LD_LAT_THRESHOLD)",
			    s->cfg.ldlat, PEBS_LD_LAT_MIN, (unsigned long long)PEBS_LD_LAT_MASK);
	if (s->cfg.sav == 0 || s->cfg.sav > max_sav)
		return pebs_fail(s, "sav=%llu outside [1, %llu]", (unsigned long long)s->cfg.sav,
			    (unsigned long long)max_sav);
	if (c->pebs_fmt >= 4 && c->pebs_fmt <= 6 && !c->baseline)
		return pebs_fail(s, "PEBS format %u without baseline not supported", c->pebs_fmt);
	return 0;
}

uint64_t pebs_limit_period(const struct pebs_uarch *u, uint16_t event, uint64_t sav,
			   const char **rule)
{
	const char *r = NULL;
	uint64_t v = sav;

	if ((u->quirks & Q_MIN_PERIOD_32) && v < 32)
		v = 32, r = "Linux nhm_limit_period";
	if ((u->quirks & Q_HSW_PERIOD) && v < (event == INST_RETIRED_ALL ? 128u : 32u))
		v = event == INST_RETIRED_ALL ? 128 : 32, r = "Linux hsw_limit_period (HSW11)";
	if ((u->quirks & Q_BDW_PERIOD) && event == INST_RETIRED_ALL &&
	    (v < 128 || (v & 0x3f))) {
		v = v < 128 ? 128 : v & ~0x3full;
		r = "Linux bdw_limit_period (BDM11, BDM55)";
	}
	if (rule)
		*rule = v != sav ? r : NULL;
	return v;
}

int pebs_config_check(struct pebs_session *s, uint16_t *event, uint32_t *allowed)
{
	if (validate(s) || choose(s, event, allowed))
		return -1;
	s->cfg.sav = pebs_limit_period(s->caps->uarch, *event, s->cfg.sav, NULL);
	if (pebs_probe_tfa(s->caps, s->counter, s->err, sizeof(s->err)))
		return -1;
	return 0;
}
