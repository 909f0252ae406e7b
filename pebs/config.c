/*
 * config.c: a PEBS session's configuration: command-line defaults (ldlat=, sav=, pebs_buf=,
 * pebs_counters=), the checks against the probed capabilities before anything is written
 * (ldlat range, MSR_PEBS_LD_LAT_THRESHOLD; the reload value's width under full-width
 * writes; quirk minimum periods from pebs/uarch.c), and the choice of event and
 * PEBS-capable counter (pebs/pmu_tables.c rows). No register access.
 */
#include "pebs/pebs.h"
#include "pebs/msr.h"
#include "kernel/fmt.h"

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
	if ((c->uarch->quirks & Q_MIN_PERIOD_32) && s->cfg.sav < 32)
		return pebs_fail(s, "sav=%llu below the %s minimum period 32",
			    (unsigned long long)s->cfg.sav, c->uarch->name);
	if (c->pebs_fmt >= 4 && c->pebs_fmt <= 6 && !c->baseline)
		return pebs_fail(s, "PEBS format %u without baseline not supported", c->pebs_fmt);
	return 0;
}

int pebs_config_check(struct pebs_session *s, uint16_t *event, uint32_t *allowed)
{
	return validate(s) || choose(s, event, allowed) ? -1 : 0;
}
