/*
 * pebs_measure_test.c: the whole PEBS step of a load kernel against the PMU model
 * (tests/model/pmu_model.h) on Haswell (fmt 2), Skylake (fmt 3), Ice Lake-SP (adaptive 4) and
 * Sapphire Rapids (adaptive 5): the model writes records with data sources the test chooses,
 * pebs/measure.c drains them through the driver's PMI into the aggregate, the verdicts of
 * loads/pebs_verdict.c judge, loads/kpebs_print.c prints the docs/output.md lines. Also: a
 * distribution where the target does not dominate fails naming the level; drops at a full
 * buffer are counted and printed; a raw dump round-trips (hex + CRC-32 -> the same aggregate);
 * store and STLB verdicts; the core-cycle counter's programming (pebs/cycles.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cpu.h"
#include "kernel/hw.h"
#include "loads/kpebs_print.h"
#include "loads/pebs_verdict.h"
#include "model/pmu_model.h"
#include "model/pmu_fixture.h"
#include "model/pmu_model_hostile.h"
#include "pebs/cycles.h"
#include "pebs/measure.h"
#include "pebs/msr.h"

static struct pebs_caps caps;
static struct cpu_info ci;
static struct pebs_measure m;
static uint8_t dump[PEBS_DUMP_BYTES];

static const struct model_cpu *const cpus[] = { &model_haswell, &model_skylake,
						&model_icelake_sp, &model_sapphire_rapids };

/* What one chunk of "workload" feeds: up to 4 (share %, level, latency, stlb) parts. */
struct part { unsigned pct; enum pebs_level lvl; uint64_t lat; bool stlb; };
struct feed {
	struct part p[4];
	unsigned np;
	bool store;
	uint64_t per_chunk, chunks, max_chunks;
};

static char lines[2048][KP_LINE];
static unsigned nlines;

static void cap(void *ctx, const char *s)
{
	(void)ctx;
	if (nlines < 2048)
		snprintf(lines[nlines++], KP_LINE, "%s", s);
}

static const char *find_line(const char *sub)
{
	for (unsigned i = 0; i < nlines; i++)
		if (strstr(lines[i], sub))
			return lines[i];
	return NULL;
}

static void probe(const struct model_cpu *c)
{
	pmu_fixture_probe(c, &ci, &caps);
}

/* The aux code the model writes for a level: found through the decoder, not hard-coded. */
static uint64_t code_for(enum pebs_level l, bool store)
{
	const struct pebs_model *pm = pebs_model_lookup(caps.family, caps.model,
							pebs_measure_core(&caps));
	struct pebs_dsrc d;

	assert_non_null(pm);
	if (store && pm->store != PEBS_ST_TABLE)
		return l == PEBS_LVL_L1 ? 1 : 0;	/* DataLA: bit 0 = L1 hit */
	for (uint64_t c = 0; c < 512; c++) {	/* 9 bits: Panther Cove's OMR codes */
		pebs_dsrc_decode(pm, store ? PEBS_EV_STORE : PEBS_EV_LOAD, c, &d);
		if (!d.reserved && d.level == l && d.stlb_miss != PEBS_YES && d.hit == PEBS_YES)
			return c;
	}
	fail_msg("no code for level %u", l);
	return 0;
}

static bool work(void *ctx)
{
	struct feed *f = ctx;
	const struct model_cpu *c = model_cpu();

	for (unsigned i = 0; i < f->np; i++) {
		struct model_load ld = { 0x200040, code_for(f->p[i].lvl, f->store), f->p[i].lat,
					 0x401000 };

		if (f->p[i].stlb)
			ld.dsrc |= m.ab.stlb_mask;
		model_feed(f->store ? c->st_event : c->ll_event, f->per_chunk * f->p[i].pct / 100,
			   &ld);
	}
	return ++f->chunks < f->max_chunks;
}

/* One measurement on the CPU probed last. */
static int measure_here(struct feed *f, uint64_t sav, uint64_t buf, bool with_dump)
{
	struct pebs_measure_cfg cfg = { .work = work, .work_ctx = f, .target_records = 2000 };

	pebs_config_init(&cfg.pc, f->store ? PEBS_STORE : PEBS_LOAD_LATENCY, NULL, NULL);
	cfg.pc.sav = sav;
	cfg.pc.buf_bytes = buf;
	if (with_dump) {
		cfg.dump = dump;
		cfg.dump_cap = sizeof(dump);
	}
	f->chunks = 0;
	if (!f->max_chunks)
		f->max_chunks = 1000;
	if (!f->per_chunk)
		f->per_chunk = 10000;
	nlines = 0;
	return pebs_measure_run(&m, &caps, &cfg);
}

static int measure(const struct model_cpu *c, struct feed *f, uint64_t sav, uint64_t buf,
		   bool with_dump)
{
	probe(c);
	return measure_here(f, sav, buf, with_dump);
}

static void test_l1_dominant_passes(void **state)
{
	char d[160];

	(void)state;
	for (unsigned k = 0; k < 4; k++) {
		struct feed f = { { { 90, PEBS_LVL_L1, 5, false }, { 7, PEBS_LVL_L2, 14, false },
				    { 3, PEBS_LVL_L3, 42, false } }, 3, false, 0, 0, 0 };

		assert_int_equal(measure(cpus[k], &f, 97, 0, false), 0);
		assert_int_equal(m.ldlat, 3);
		assert_true(m.agg.records >= 2000);
		assert_int_equal(m.agg.records, model_stats()->records_written);
		assert_int_equal(m.st.pmis, model_stats()->pmis_delivered);
		assert_true(m.st.pmis >= 1);
		assert_int_equal(m.agg.errors, 0);
		/* 90 % +- sampling: the model samples every 98th event of a 90/7/3 stream */
		assert_in_range(pv_share_permille(&m.agg, PEBS_LVL_L1), 870, 930);
		assert_int_equal(pebs_agg_percentile(&m.agg.lvl[PEBS_LVL_L1], 500), 5);
		assert_int_equal(pebs_agg_percentile(&m.agg.lvl[PEBS_LVL_L2], 500), 14);
		assert_int_equal(pv_source(&m.agg, PEBS_LVL_L1, d, sizeof(d)), PV_PASS);
		assert_int_equal(pv_latency(&m.agg, PEBS_LVL_L1, 480, true, d, sizeof(d)), PV_PASS);
		/* a timed 20 cycles/load is far outside: band 10..44 core cycles */
		assert_int_equal(pv_latency(&m.agg, PEBS_LVL_L1, 2000, true, d, sizeof(d)), PV_FAIL);
		kp_summary(cap, NULL, "load_l1", &m, NULL, PEBS_LVL_L1, 480, true);
		kp_table(cap, NULL, "load_l1", &m.agg);
		assert_non_null(strstr(lines[0], "load_l1: pebs event=load ldlat=3 sav=97 records="));
		assert_non_null(strstr(lines[0], "target=L1 share="));
		assert_non_null(strstr(lines[0], " p50=5 timed=4.80 clock=core"));
		assert_non_null(find_line("load_l1: lvl level count share min p50 p90 p99 max"));
		assert_non_null(find_line("load_l1: lvl L1 hit "));
		assert_non_null(find_line("load_l1: lvl L2 hit "));
		assert_non_null(find_line("load_l1: hist L1 2:"));
		assert_non_null(find_line("load_l1: hist L3 5:"));
		assert_int_equal(model_violation_count(), 0);
	}
}

/* The same measurement on the architectural-PEBS rows (format 0xF: IA32_PEBS_BASE/INDEX,
 * CFG_C, fragments walked by the aggregation), with pebs_counters=on: the per-level table and
 * the cycles per sampled window (98 events x 7 cycles of the model's clock). */
/* The retire latency of the L1 records on `c` (feed: every load 5 cycles), with the model's
 * knob retire_pct = pct (0: none): judged against 5.00 core cycles per load. */
static enum pv_result retire_on(const struct model_cpu *c, unsigned pct, char *d, size_t n)
{
	const struct model_hostile h = { .retire_pct = pct };
	struct feed f = { { { 100, PEBS_LVL_L1, 5, false } }, 1, false, 10000, 0, 1000 };
	struct pebs_measure_cfg cfg = { .work = work, .work_ctx = &f, .target_records = 500,
					.retire = true, .retire_level = PEBS_LVL_L1 };

	probe(c);
	model_hostile(&h);
	pebs_config_init(&cfg.pc, PEBS_LOAD_LATENCY, NULL, NULL);
	cfg.pc.sav = 97;
	assert_int_equal(pebs_measure_run(&m, &caps, &cfg), 0);
	assert_int_equal(model_violation_count(), 0);
	return pv_retire(&m.retire, 500, true, d, n);
}

/* Timed PEBS (PERF_CAPABILITIES[17]) on Lion Cove's format 6, Granite Rapids' format 4 and
 * Meteor Lake P's format 5 (Redwood Cove), and arch PEBS on Panther Lake: the records' retire
 * latency passes; the model's knob (retire latencies 5x the load latency, not what a chase
 * retires at) fails it; Sapphire Rapids' format 5 without the bit has none (SKIP). */
static void test_retire_knob(void **state)
{
	static const struct model_cpu *const timed[] = { &model_lion_cove, &model_gnr,
							 &model_mtl_p, &model_ptl_p };
	char d[160];

	(void)state;
	for (unsigned k = 0; k < 4; k++) {
		assert_int_equal(retire_on(timed[k], 0, d, sizeof(d)), PV_PASS);
		assert_true(m.retire.count >= 500);
		assert_string_equal(d, "retire p50 5 vs 5.00 core/load, band 2..14");
		assert_int_equal(retire_on(timed[k], 500, d, sizeof(d)), PV_FAIL);
		assert_string_equal(d, "retire p50 25 vs 5.00 core/load, band 2..14");
	}
	assert_true(caps.timing_info == false);	/* PTL: arch PEBS, no DS timing bit */
	assert_int_equal(retire_on(&model_sapphire_rapids, 500, d, sizeof(d)), PV_SKIP);
	assert_string_equal(d, "no record carried a retire latency");
}

static void test_arch_rows(void **state)
{
	static const struct model_cpu *const arch[] = { &model_ptl_p, &model_cwf, &model_dmr };

	(void)state;
	for (unsigned k = 0; k < 3; k++) {
		struct feed f = { { { 90, PEBS_LVL_L1, 5, false }, { 7, PEBS_LVL_L2, 14, false },
				    { 3, PEBS_LVL_L3, 42, false } }, 3, false, 0, 0, 0 };
		struct pebs_measure_cfg cfg = { .work = work, .work_ctx = &f,
						.target_records = 2000, .retire = true,
						.retire_level = PEBS_LVL_L1 };
		char d[160];

		probe(arch[k]);
		pebs_config_init(&cfg.pc, PEBS_LOAD_LATENCY, NULL, NULL);
		cfg.pc.sav = 97;
		cfg.pc.counters = true;
		f.max_chunks = 1000;
		f.per_chunk = 10000;
		nlines = 0;
		assert_int_equal(pebs_measure_run(&m, &caps, &cfg), 0);
		assert_int_equal(m.format, 0xf);
		assert_true(m.agg.records >= 2000);
		assert_int_equal(m.agg.records, model_stats()->records_written);
		assert_int_equal(m.agg.errors, 0);
		assert_int_equal(m.st.bad, 0);
		assert_in_range(pv_share_permille(&m.agg, PEBS_LVL_L1), 870, 930);
		assert_int_equal(pebs_agg_percentile(&m.agg.lvl[PEBS_LVL_L1], 500), 5);
		assert_int_equal(pebs_agg_percentile(&m.agg.lvl[PEBS_LVL_L3], 500), 42);
		pebs_cntr_agg_lines(&m.cntr, "load_l1", cap, NULL);
		assert_non_null(find_line("load_l1: counters L1 windows="));
		assert_non_null(strstr(find_line("load_l1: counters L1 "), "cycles/window=686"));
		assert_non_null(strstr(find_line("load_l1: counters L3 "), "cycles/window=686"));
		assert_int_equal(model_violation_count(), 0);
		/* issue 31: arch PEBS retire latency of the L1 records against 5.00 cycles/load */
		assert_true(m.retire.count > 0);
		assert_int_equal(pebs_agg_percentile(&m.retire, 500), 5);
		assert_int_equal(pv_retire(&m.retire, 500, true, d, sizeof(d)), PV_PASS);
		assert_string_equal(d, "retire p50 5 vs 5.00 core/load, band 2..14");
		assert_int_equal(pv_retire(&m.retire, 500, false, d, sizeof(d)), PV_SKIP);
		assert_int_equal(pebs_cntr_check(&m.cntr, d, sizeof(d)), 1);
	}
}

static void test_not_dominant_fails_naming_level(void **state)
{
	char d[160];

	(void)state;
	for (unsigned k = 0; k < 4; k++) {
		struct feed f = { { { 40, PEBS_LVL_L1, 5, false }, { 60, PEBS_LVL_L2, 14, false } },
				  2, false, 0, 0, 0 };

		assert_int_equal(measure(cpus[k], &f, 97, 0, false), 0);
		assert_int_equal(pv_source(&m.agg, PEBS_LVL_L1, d, sizeof(d)), PV_FAIL);
		assert_non_null(strstr(d, "L2 hit dominates with"));
		/* dominant but below its share: L3 at 55 % < 60 % */
		f = (struct feed){ { { 55, PEBS_LVL_L3, 40, false }, { 25, PEBS_LVL_L2, 14, false },
				     { 20, PEBS_LVL_RAM, 200, false } }, 3, false, 0, 0, 0 };
		assert_int_equal(measure(cpus[k], &f, 97, 0, false), 0);
		assert_int_equal(pv_dominant(&m.agg), PEBS_LVL_L3);
		assert_int_equal(pv_source(&m.agg, PEBS_LVL_L3, d, sizeof(d)), PV_FAIL);
		assert_non_null(strstr(d, "< 60%"));
		assert_int_equal(pv_source(&m.agg, PEBS_LVL_RAM, d, sizeof(d)), PV_FAIL);
		assert_non_null(strstr(d, "L3 dominates"));
	}
}

static void test_full_buffer_drops_counted(void **state)
{
	(void)state;
	for (unsigned k = 0; k < 4; k++) {
		struct feed f = { { { 100, PEBS_LVL_L1, 5, false } }, 1, false, 0, 0, 3 };

		/* PMIs held off (interrupts disabled): the 4 KiB buffer fills and records drop */
		probe(cpus[k]);
		model_pmi_delivery(false);
		{
			struct pebs_measure_cfg cfg = { .work = work, .work_ctx = &f,
							.target_records = 100000 };

			pebs_config_init(&cfg.pc, PEBS_LOAD_LATENCY, NULL, NULL);
			cfg.pc.sav = 50;
			cfg.pc.buf_bytes = 4096;
			f.per_chunk = 20000;
			nlines = 0;
			assert_int_equal(pebs_measure_run(&m, &caps, &cfg), 0);
		}
		assert_true(m.st.dropped >= 1);
		assert_int_equal(m.st.dropped, model_stats()->dropped);
		assert_int_equal(m.agg.records, model_stats()->records_written);
		kp_summary(cap, NULL, "load_l1", &m, NULL, PEBS_LVL_L1, 500, false);
		{
			char want[48];

			snprintf(want, sizeof(want), " dropped=%llu ",
				 (unsigned long long)m.st.dropped);
			assert_non_null(strstr(lines[0], want));
		}
		model_pmi_delivery(true);
	}
}

static int hexval(char c)
{
	return c <= '9' ? c - '0' : c - 'a' + 10;
}

/* dump=raw: hex + CRC per record; the bytes give back the aggregate the kernel printed. */
static void test_raw_dump_round_trip(void **state)
{
	static uint8_t back[PEBS_DUMP_BYTES];
	(void)state;
	assert_int_equal(kp_crc32("123456789", 9), 0xcbf43926u);	/* CRC-32/ISO-HDLC check */
	for (unsigned k = 0; k < 4; k++) {
		struct feed f = { { { 80, PEBS_LVL_L1, 5, false }, { 20, PEBS_LVL_L3, 45, false } },
				  2, false, 1000, 0, 30 };
		struct pebs_agg a2;
		size_t len = 0;
		unsigned raws = 0;

		assert_int_equal(measure(cpus[k], &f, 97, 0, true), 0);
		assert_int_equal(m.dump_lost, 0);
		assert_int_equal(m.dump_kept, m.agg.records);
		kp_dump(cap, NULL, "load_l1", &m, &caps, true);
		assert_non_null(strstr(lines[0], "load_l1: dump cpu="));
		assert_non_null(strstr(lines[0], k < 2 ? "core=any format=" : "core=any format="));
		for (unsigned i = 1; i < nlines; i++) {
			const char *h = strstr(lines[i], ": raw ");
			const char *crc;
			size_t start = len;
			unsigned idx, want;

			assert_non_null(h);
			assert_int_equal(sscanf(h, ": raw %u", &idx), 1);
			assert_int_equal(idx, raws);
			h = strchr(h + 6, ' ') + 1;
			crc = strstr(h, " crc=");
			assert_non_null(crc);
			for (const char *p = h; p < crc; p += 2)
				back[len++] = (uint8_t)(hexval(p[0]) << 4 | hexval(p[1]));
			assert_int_equal(sscanf(crc, " crc=%x", &want), 1);
			assert_int_equal(kp_crc32(back + start, len - start), want);
			raws++;
		}
		assert_int_equal(raws, m.dump_kept);
		pebs_agg_init(&a2);
		pebs_aggbuf_add(&m.ab, &a2, back, len);
		assert_memory_equal(&a2, &m.agg, sizeof(a2));
		/* dump=decoded: one rec line per kept record */
		nlines = 0;
		kp_dump(cap, NULL, "load_l1", &m, &caps, false);
		assert_int_equal(nlines, 1 + m.dump_kept);
		assert_non_null(strstr(lines[1], "load_l1: rec 0 "));
		assert_non_null(find_line("lat 45"));
	}
}

static void test_store_and_stlb(void **state)
{
	char d[160];

	(void)state;
	for (unsigned k = 0; k < 2; k++) {	/* Haswell, Skylake: DataLA stores */
		struct feed f = { { { 95, PEBS_LVL_L1, 1, false }, { 5, PEBS_LVL_NA, 1, false } },
				  2, true, 0, 0, 0 };

		assert_int_equal(measure(cpus[k], &f, 97, 0, false), 0);
		assert_true(m.agg.records >= 2000);
		assert_in_range(m.st_hit * 100 / (m.st_hit + m.st_miss), 93, 97);
		assert_int_equal(pv_store(m.agg.records, m.st_hit, m.st_miss, m.model->store, d,
					  sizeof(d)), PV_PASS);
		f.p[0].pct = 50;
		f.p[1].pct = 50;
		assert_int_equal(measure(cpus[k], &f, 97, 0, false), 0);
		assert_int_equal(pv_store(m.agg.records, m.st_hit, m.st_miss, m.model->store, d,
					  sizeof(d)), PV_FAIL);
	}
	assert_int_equal(pv_store(10, 0, 0, PEBS_ST_NONE, d, sizeof(d)), PV_SKIP);
	for (unsigned k = 0; k < 4; k++) {
		struct feed f = { { { 85, PEBS_LVL_RAM, 300, true }, { 15, PEBS_LVL_L3, 60, false } },
				  2, false, 0, 0, 0 };

		assert_int_equal(measure(cpus[k], &f, 97, 0, false), 0);
		assert_true(m.ab.stlb_mask != 0);
		assert_int_equal(pv_stlb(&m.agg, true, d, sizeof(d)), PV_PASS);
		f.p[0].stlb = false;
		f.p[1].stlb = true;
		assert_int_equal(measure(cpus[k], &f, 97, 0, false), 0);
		assert_int_equal(pv_stlb(&m.agg, true, d, sizeof(d)), PV_FAIL);
	}
}

/* Store-latency data sources (PEBS_ST_TABLE: the load table's codes, Linux ds.c
 * get_data_src) name the level the store hit: a hit at L2 is an L1 miss for pebs_store. On
 * Sapphire Rapids (Golden Cove table) and Nova Lake's Panther Cove and Arctic Wolf tables
 * (hit codes only, datasrc_pantherc.c). */
static void test_store_latency_levels(void **state)
{
	static const struct model_cpu *const st[] = { &model_sapphire_rapids, &model_nvl_p,
						      &model_nvl_e };
	char d[160];

	(void)state;
	for (unsigned k = 0; k < 3; k++) {
		struct feed f = { { { 95, PEBS_LVL_L1, 0, false }, { 5, PEBS_LVL_L2, 0, false } },
				  2, true, 0, 0, 0 };

		assert_int_equal(measure(st[k], &f, 97, 0, false), 0);
		assert_true(m.agg.records >= 2000);
		assert_in_range(m.st_hit * 100 / (m.st_hit + m.st_miss), 93, 97);
		assert_int_equal(m.st_unknown, 0);
		assert_int_equal(pv_store(m.agg.records, m.st_hit, m.st_miss, m.model->store, d,
					  sizeof(d)), PV_PASS);
		f.p[0].pct = 50;
		f.p[1].pct = 50;
		assert_int_equal(measure(st[k], &f, 97, 0, false), 0);
		assert_int_equal(pv_store(m.agg.records, m.st_hit, m.st_miss, m.model->store, d,
					  sizeof(d)), PV_FAIL);
		assert_int_equal(model_violation_count(), 0);
	}
}

static void test_rises_and_band(void **state)
{
	char d[160];
	unsigned lo, hi, slack;

	(void)state;
	assert_int_equal(pv_rises(5, "L1", 14, d, sizeof(d)), PV_PASS);
	assert_int_equal(pv_rises(14, "L2", 14, d, sizeof(d)), PV_FAIL);
	pv_band(true, &lo, &hi, &slack);
	assert_true(lo < 100 && hi > 100);
	pv_band(false, &lo, &hi, &slack);
	assert_true(lo < 50 && hi >= 300);
	assert_true(pv_min_share(PEBS_LVL_L1) > pv_min_share(PEBS_LVL_L3));
	assert_true(pv_min_share(PEBS_LVL_L2) > pv_min_share(PEBS_LVL_RAM));
}

static void test_core_clock(void **state)
{
	struct pmu_cycles pc;

	(void)state;
	probe(&model_skylake);
	assert_int_equal(pmu_cycles_init(&pc, &caps), 0);
	assert_true(pc.fixed);
	assert_int_equal(model_msr(MSR_IA32_FIXED_CTR_CTRL) & 0xf0, 0x30);
	assert_true(model_msr(MSR_IA32_PERF_GLOBAL_CTRL) & GLOBAL_FIXED(1));
	/* someone (pmu_count, the PEBS driver) cleared GLOBAL_CTRL: a read re-enables */
	assert_int_equal(wrmsr_safe(MSR_IA32_PERF_GLOBAL_CTRL, 0), 0);
	(void)pmu_cycles_read(&pc);
	assert_true(model_msr(MSR_IA32_PERF_GLOBAL_CTRL) & GLOBAL_FIXED(1));
	assert_int_equal(pc.fault, 0);
	probe(&model_qemu_tcg_skl);
	assert_int_equal(pmu_cycles_init(&pc, &caps), -1);
	assert_string_equal(pc.err, "CPUID.0AH: perfmon version 0");
}

/*
 * Issue 27 H10: a measurement reuses its CPU's DS area and PEBS buffer (pebs/pebs_mem.c):
 * 200 steps take the memory of one; after the test runner's release (mm_generation moves)
 * the next step takes fresh memory instead of the memory given back (ASan would see it).
 */
static void test_buffers_reused(void **state)
{
	struct feed f = { .p = { { 100, PEBS_LVL_L1, 20, false } }, .np = 1, .per_chunk = 2000,
			  .max_chunks = 4 };
	uint64_t held;
	unsigned mark;

	(void)state;
	probe(&model_skylake);
	assert_int_equal(measure_here(&f, 97, 16384, false), 0);
	held = model_kalloc_bytes();
	for (unsigned i = 0; i < 200; i++) {
		assert_int_equal(measure_here(&f, 97, i % 2 ? 16384 : 8192, false), 0);
		assert_true(m.st.records > 0);
	}
	if (model_kalloc_bytes() != held)
		fail_msg("200 measurements hold %llu bytes, one held %llu",
			 (unsigned long long)model_kalloc_bytes(), (unsigned long long)held);
	mark = model_mm_mark();
	assert_true(mark >= 2);
	model_mm_release(mark - 2);	/* the DS area and buffer go back */
	assert_int_equal(measure_here(&f, 97, 16384, false), 0);
	assert_true(m.st.records > 0);
	pmu_fixture_assert_clean();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buffers_reused),
		cmocka_unit_test(test_l1_dominant_passes),
		cmocka_unit_test(test_arch_rows),
		cmocka_unit_test(test_retire_knob),
		cmocka_unit_test(test_not_dominant_fails_naming_level),
		cmocka_unit_test(test_full_buffer_drops_counted),
		cmocka_unit_test(test_raw_dump_round_trip),
		cmocka_unit_test(test_store_and_stlb),
		cmocka_unit_test(test_store_latency_levels),
		cmocka_unit_test(test_rises_and_band),
		cmocka_unit_test(test_core_clock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
