/*
 * measure.c: one PEBS measurement (see measure.h). The sink runs inside the drain, i.e. in the
 * PMI with counters frozen (pebs_pmi) and once more at pebs_stop: it only decodes into the
 * aggregate (pebs_aggbuf_add, no per-record storage) and copies bytes; printing happens after.
 * Model selection per docs/decoder.md "Use from the PMI drain". The session's DS area and
 * buffer carry over from one run to the next (pebs/pebs_mem.c): memory stays bounded.
 */
#include "pebs/measure.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"

#include <string.h>

enum pebs_core pebs_measure_core(const struct pebs_caps *c)
{
	if (c->core_type == 0x40)	/* CPUID.1AH:EAX[31:24] Intel Core */
		return PEBS_CORE_P;
	if (c->core_type == 0x20)	/* Intel Atom */
		return PEBS_CORE_E;
	return PEBS_CORE_ANY;
}

/* The aggregate folds precise-store/DataLA hit and miss into level L1: count them here. A
 * store-latency data source (PEBS_ST_TABLE: Golden Cove and later, Linux ds.c get_data_src
 * decodes it with the load table) names the level the store hit: a hit beyond L1 (L0 on
 * Panther Cove) is an L1 miss, as pv_store counts them. */
static void store_status(struct pebs_measure *m, const uint8_t *rec, size_t len)
{
	struct pebs_walker w;
	struct pebs_record r;
	struct pebs_dsrc d;
	bool l1;

	pebs_walk_init(&w, rec, len, m->format, m->walk_flags);
	while (pebs_walk_next(&w, &r)) {
		if (r.err || !(r.valid & PEBS_F_AUX)) {
			m->st_unknown++;
			continue;
		}
		pebs_dsrc_decode(m->model, PEBS_EV_STORE, r.aux, &d);
		l1 = d.level == PEBS_LVL_L1 || d.level == PEBS_LVL_L0;
		if (d.hit == PEBS_YES && l1)
			m->st_hit++;
		else if (d.hit == PEBS_NO || (d.hit == PEBS_YES && d.level != PEBS_LVL_NA))
			m->st_miss++;
		else
			m->st_unknown++;
	}
}

/* pebs_counters=on: the snapshots of each record, per level (cntr_snap.h); and the retire
 * latency of the target level's records (timed PEBS, arch PEBS). */
static void per_record(struct pebs_measure *m, const uint8_t *rec, size_t len)
{
	struct pebs_walker w;
	struct pebs_record r;
	struct pebs_dsrc d;

	pebs_walk_init(&w, rec, len, m->format, m->walk_flags);
	while (pebs_walk_next(&w, &r)) {
		pebs_dsrc_decode((r.valid & PEBS_F_AUX) ? m->model : NULL, m->ev, r.aux, &d);
		if (m->s.cfg.counters)
			pebs_cntr_agg_add(&m->cntr, &r, d.level);
		if (m->keep_retire && !r.err && (r.valid & PEBS_F_RETIRE_LATENCY) &&
		    d.level == m->retire_level)
			pebs_agg_add_latency(&m->retire, r.retire_latency);
	}
}

static void sink(void *ctx, const uint8_t *rec, size_t len)
{
	struct pebs_measure *m = ctx;

	pebs_aggbuf_add(&m->ab, &m->agg, rec, len);
	if (m->s.cfg.counters || m->keep_retire)
		per_record(m, rec, len);
	if (m->ev == PEBS_EV_STORE)
		store_status(m, rec, len);
	if (!m->dump)
		return;
	if (m->dump_len + len <= m->dump_cap) {
		memcpy(m->dump + m->dump_len, rec, len);
		m->dump_len += len;
		m->dump_kept++;
	} else {
		m->dump_lost++;
	}
}

int pebs_measure_run(struct pebs_measure *m, const struct pebs_caps *c,
		     const struct pebs_measure_cfg *cfg)
{
	struct pebs_config pc = cfg->pc;
	uint64_t target = cfg->target_records ? cfg->target_records : PEBS_MEASURE_RECORDS;
	struct pebs_session kept = m->s;

	memset(m, 0, sizeof(*m));
	/* the DS area and buffer of the last run, reused while valid (pebs/pebs_mem.c) */
	m->s.ds = kept.ds;
	m->s.buf = kept.buf;
	m->s.buf_alloc = kept.buf_alloc;
	m->s.mem_gen = kept.mem_gen;
	m->core = pebs_measure_core(c);
	m->ev = pc.kind == PEBS_STORE ? PEBS_EV_STORE : PEBS_EV_LOAD;
	m->format = c->pebs_fmt;
	m->model = pebs_model_lookup(c->family, c->model, m->core);
	if (m->model && m->model->split_latency)
		m->walk_flags |= PEBS_WALK_SPLIT_LATENCY;
	if (c->timing_info)
		m->walk_flags |= PEBS_WALK_TIMING_INFO;
	pebs_agg_init(&m->agg);
	pebs_cntr_agg_init(&m->cntr);
	m->keep_retire = cfg->retire;
	m->retire.min = UINT64_MAX;
	m->retire_level = cfg->retire_level;
	if (pebs_aggbuf_init(&m->ab, m->model, m->ev, m->format, m->walk_flags)) {
		fmt_snprintf(m->err, sizeof(m->err), "decoder: data-source layout of %s unsupported",
			     m->model ? m->model->name : "?");
		return -1;
	}
	m->dump = cfg->dump;
	m->dump_cap = cfg->dump ? cfg->dump_cap : 0;
	pc.sink = sink;
	pc.sink_ctx = m;
	/* pebs_counters=on: the snapshotted counter through RDPMC around the session, the
	 * window every snapshot must lie in (pebs_cntr_check) */
	m->cntr.rdpmc_ok = pc.counters && !rdpmc_safe(1u << 30 | PEBS_CNTR_CORE_CYCLES,
						      &m->cntr.rdpmc_start);
	if (pebs_start(&m->s, c, &pc)) {
		fmt_snprintf(m->err, sizeof(m->err), "%s", m->s.err);
		return -1;
	}
	m->sav = m->s.cfg.sav;
	m->ldlat = pc.kind == PEBS_LOAD_LATENCY ? m->s.cfg.ldlat : 0;
	m->event = (uint16_t)(m->s.evtsel & 0xffff);
	/* m->s.st.records grows in the PMI drains; the final drain is in pebs_stop */
	while (m->s.st.records < target) {
		m->chunks++;
		if (!cfg->work(cfg->work_ctx))
			break;
	}
	pebs_stop(&m->s);
	if (m->cntr.rdpmc_ok)
		m->cntr.rdpmc_ok = !rdpmc_safe(1u << 30 | PEBS_CNTR_CORE_CYCLES, &m->cntr.rdpmc_end);
	m->st = m->s.st;
	return 0;
}
