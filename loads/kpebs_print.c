/*
 * kpebs_print.c: the per-load-kernel PEBS lines (see kpebs_print.h and docs/output.md §3).
 * Shares are permille printed as I.F %; latencies come from the aggregate's percentiles
 * (sample/aggregate.h error bound). CRC-32 per ISO-HDLC / IEEE 802.3 (the zlib/PNG CRC).
 */
#include "loads/kpebs_print.h"
#include "loads/pebs_verdict.h"
#include "kernel/fmt.h"
#include "sample/agg_print.h"
#include "pebs/record_print.h"

#include <string.h>

uint32_t kp_crc32(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t c = 0xffffffffu;

	while (len--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
	}
	return c ^ 0xffffffffu;
}

static void x100(char *b, size_t n, uint64_t v)
{
	fmt_snprintf(b, n, "%llu.%02llu", (unsigned long long)(v / 100),
		     (unsigned long long)(v % 100));
}

/* The cost fields: unarmed_ns armed_ns overhead rec_ns pmi_ns sav_tuned (docs/output.md §3). */
static void cost_fields(char *b, size_t n, const struct pebs_cost *c)
{
	uint64_t u = pebs_cost_base_ns_x100(c), a = pebs_cost_armed_ns_x100(c);
	char o[24], pmi[24] = "-", tuned[24] = "-";

	if (!pebs_cost_valid(c)) {
		fmt_snprintf(b, n, "unarmed_ns=- armed_ns=- overhead=- rec_ns=- pmi_ns=- sav_tuned=-");
		return;
	}
	pv_pct_x100(o, sizeof(o), pebs_cost_overhead_x100(c));
	if (c->pmis_known && c->pmis)
		fmt_snprintf(pmi, sizeof(pmi), "%llu", (unsigned long long)pebs_cost_per_pmi_ns(c));
	if (c->sav_first)
		fmt_snprintf(tuned, sizeof(tuned), "%llu", (unsigned long long)c->sav_first);
	fmt_snprintf(b, n, "unarmed_ns=%llu.%02llu armed_ns=%llu.%02llu overhead=%s rec_ns=%llu "
		     "pmi_ns=%s sav_tuned=%s", (unsigned long long)(u / 100),
		     (unsigned long long)(u % 100), (unsigned long long)(a / 100),
		     (unsigned long long)(a % 100), o[0] == '+' ? o + 1 : o,
		     (unsigned long long)pebs_cost_per_record_ns(c), pmi, tuned);
}

void kp_pebs_line(kp_line_fn out, void *ctx, const char *name, const struct kp_pebs *p,
		  int target, uint64_t timed_x100, bool core_clock)
{
	char line[KP_LINE], ll[16] = "-", tgt[48] = "-", p50[24] = "-", t[24], pm[24] = "-";
	char cost[200];

	if (p->ldlat)
		fmt_snprintf(ll, sizeof(ll), "%u", p->ldlat);
	if (p->pmis_known)
		fmt_snprintf(pm, sizeof(pm), "%llu", (unsigned long long)p->pmis);
	if (target >= 0) {
		unsigned s = pv_share_permille(p->agg, (unsigned)target);

		fmt_snprintf(tgt, sizeof(tgt), "%s share=%u.%u%%", pebs_level_id((unsigned)target),
			     s / 10, s % 10);
		if (p->agg->lvl[target].count)
			fmt_snprintf(p50, sizeof(p50), "%llu", (unsigned long long)
				     pebs_agg_percentile(&p->agg->lvl[target], 500));
	} else {
		fmt_snprintf(tgt, sizeof(tgt), "- share=-");
	}
	x100(t, sizeof(t), timed_x100);
	cost_fields(cost, sizeof(cost), p->cost);
	fmt_snprintf(line, sizeof(line), "%s: pebs event=%s ldlat=%s sav=%llu records=%llu "
		     "dropped=%llu pmis=%s errors=%llu target=%s p50=%s timed=%s clock=%s %s", name,
		     p->ev == PEBS_EV_STORE ? "store" : "load", ll, (unsigned long long)p->sav,
		     (unsigned long long)p->agg->records, (unsigned long long)p->dropped, pm,
		     (unsigned long long)p->agg->errors, tgt, p50, t, core_clock ? "core" : "tsc",
		     cost);
	out(ctx, line);
}

void kp_summary(kp_line_fn out, void *ctx, const char *name, const struct pebs_measure *m,
		const struct pebs_cost *cost, int target, uint64_t timed_x100, bool core_clock)
{
	const struct kp_pebs p = {
		.ev = m->ev, .ldlat = m->ldlat, .sav = m->sav, .dropped = m->st.dropped,
		.pmis = m->st.pmis, .pmis_known = true, .agg = &m->agg, .cost = cost,
	};

	kp_pebs_line(out, ctx, name, &p, target, timed_x100, core_clock);
}

static void num(char *b, size_t n, const struct pebs_agg_level *l, unsigned permille, int which)
{
	uint64_t v = which == 0 ? l->min : which == 1 ? l->max : pebs_agg_percentile(l, permille);

	if (!l->count)
		fmt_snprintf(b, n, "-");
	else
		fmt_snprintf(b, n, "%llu", (unsigned long long)v);
}

void kp_table(kp_line_fn out, void *ctx, const char *name, const struct pebs_agg *a)
{
	char line[KP_LINE], v[5][24];

	fmt_snprintf(line, sizeof(line), "%s: lvl level count share min p50 p90 p99 max", name);
	out(ctx, line);
	for (unsigned i = 0; i < PEBS_LVL_COUNT; i++) {
		const struct pebs_agg_level *l = &a->lvl[i];
		unsigned s = pv_share_permille(a, i);

		if (!l->count && !l->nolat)
			continue;
		num(v[0], sizeof(v[0]), l, 0, 0);
		num(v[1], sizeof(v[1]), l, 500, 2);
		num(v[2], sizeof(v[2]), l, 900, 2);
		num(v[3], sizeof(v[3]), l, 990, 2);
		num(v[4], sizeof(v[4]), l, 0, 1);
		fmt_snprintf(line, sizeof(line), "%s: lvl %s %llu %u.%u%% %s %s %s %s %s", name,
			     pebs_agg_level_name(i), (unsigned long long)(l->count + l->nolat),
			     s / 10, s % 10, v[0], v[1], v[2], v[3], v[4]);
		out(ctx, line);
	}
	for (unsigned i = 0; i < PEBS_LVL_COUNT; i++) {
		uint64_t lg[PEBS_AGG_LOG2_BUCKETS];
		size_t o;

		if (!a->lvl[i].count)
			continue;
		pebs_agg_log2(&a->lvl[i], lg);
		o = (size_t)fmt_snprintf(line, sizeof(line), "%s: hist %s", name, pebs_level_id(i));
		for (unsigned k = 0; k < PEBS_AGG_LOG2_BUCKETS && o < sizeof(line); k++)
			if (lg[k])
				o += (size_t)fmt_snprintf(line + o, sizeof(line) - o, " %u:%llu", k,
							  (unsigned long long)lg[k]);
		out(ctx, line);
	}
}

struct strbuf {
	char *b;
	size_t n, o;
};

static void str_sink(void *ctx, const char *s, size_t n)
{
	struct strbuf *sb = ctx;

	while (n-- && sb->o + 1 < sb->n)
		sb->b[sb->o++] = *s++;
	sb->b[sb->o] = 0;
}

static void raw_line(kp_line_fn out, void *ctx, const char *name, const struct pebs_record *r,
		     const uint8_t *base)
{
	static const char hx[] = "0123456789abcdef";
	char line[KP_LINE];
	const uint8_t *p = base + r->offset;
	size_t o = (size_t)fmt_snprintf(line, sizeof(line), "%s: raw %u ", name, r->index);

	if (r->size > KP_RAW_MAX) {
		fmt_snprintf(line + o, sizeof(line) - o, "- crc=%08x", kp_crc32(p, r->size));
		out(ctx, line);
		return;
	}
	for (uint32_t i = 0; i < r->size; i++) {
		line[o++] = hx[p[i] >> 4];
		line[o++] = hx[p[i] & 15];
	}
	fmt_snprintf(line + o, sizeof(line) - o, " crc=%08x", kp_crc32(p, r->size));
	out(ctx, line);
}

void kp_dump(kp_line_fn out, void *ctx, const char *name, const struct pebs_measure *m,
	     const struct pebs_caps *c, bool raw)
{
	static const char *const core[] = { "any", "p", "e" };
	char line[KP_LINE];
	struct pebs_walker w;
	struct pebs_record r;
	struct pebs_dsrc d;

	fmt_snprintf(line, sizeof(line), "%s: dump cpu=%02X_%02X core=%s format=%u event=%s "
		     "records=%llu kept=%llu lost=%llu bytes=%llu", name, c->family, c->model,
		     core[m->core], m->format, m->ev == PEBS_EV_STORE ? "store" : "load",
		     (unsigned long long)m->agg.records, (unsigned long long)m->dump_kept,
		     (unsigned long long)m->dump_lost, (unsigned long long)m->dump_len);
	out(ctx, line);
	pebs_walk_init(&w, m->dump, m->dump_len, m->format, m->walk_flags);
	while (pebs_walk_next(&w, &r)) {
		struct strbuf sb = { line, sizeof(line), 0 };

		if (raw && !r.err) {
			raw_line(out, ctx, name, &r, m->dump);
			continue;
		}
		fmt_format(str_sink, &sb, "%s: ", name);
		if (!r.err && (r.valid & PEBS_F_AUX))
			pebs_dsrc_decode(m->model, m->ev, r.aux, &d);
		else
			memset(&d, 0, sizeof(d));
		pebs_record_print(&r, &d, str_sink, &sb);
		if (sb.o && line[sb.o - 1] == '\n')
			line[--sb.o] = 0;
		out(ctx, line);
	}
}
