/*
 * model_log_special.c: tools/model-log's other load kernels, after load_dram and in the
 * kernel's table order, as ktests/load_special.c, ktests/load_remote.c and
 * ktests/load_xcore.c print them: load_lfb, load_store, load_stlb (a reference chase and the
 * kernel, its PEBS step, the chain checks, the timing comparison), load_remote (local and
 * remote DRAM, the other node's data source) and load_snoop / load_hitm (cross-core loads,
 * their snoop results). SYNTHESIZED as in model-log.c: the `chain`, `time` and cross-core
 * timing lines (nothing is built or timed; core cycles per load from the modelled latency
 * ranges, docs/latency-method.md §6); the PEBS steps are the kernel's code over the PMU model,
 * their records drawn from the rows below. A kernel the CPU's data-source table cannot show
 * (no remote code on a one-socket part, no snoop HitM code) SKIPs with that reason, as the
 * kernel SKIPs what a machine cannot run. On an AMD part (zen3, zen4) the steps run through
 * IBS (model_log_ibs.c, loads/kibs_report.c) and load_snoop / load_hitm SKIP their sampling
 * step as loads/xcore_pebs.c does there (it samples through PEBS only).
 */
#include "tools/model_log.h"
#include "loads/geometry.h"
#include "loads/kload.h"
#include "loads/plan.h"
#include "loads/pv_xsrc.h"
#include "loads/xcore.h"
#include "pebs/measure.h"

#include <stdio.h>

static const struct ibs_caps *ibs;	/* AMD parts: the IBS step in place of PEBS */

/* Records per kernel: percent, level, kind of code (enum ml_want). */
static const struct ml_mixrow lfb_mix = { { { 80, PEBS_LVL_LFB, ML_W_HIT },
					    { 12, PEBS_LVL_RAM, ML_W_HIT },
					    { 8, PEBS_LVL_L3, ML_W_HIT } } };
static const struct ml_mixrow store_mix = { { { 92, PEBS_LVL_L1, ML_W_HIT },
					      { 8, PEBS_LVL_L2, ML_W_HIT } } };
static const struct ml_mixrow stlb_mix = { { { 90, PEBS_LVL_RAM, ML_W_STLB },
					     { 10, PEBS_LVL_L3, ML_W_STLB } } };
static const struct ml_mixrow remote_mix = { { { 80, PEBS_LVL_RAM, ML_W_REMOTE },
					       { 20, PEBS_LVL_L3, ML_W_HIT } } };
static const struct ml_mixrow snoop_mix = { { { 85, PEBS_LVL_L3, ML_W_SNOOP },
					      { 15, PEBS_LVL_L1, ML_W_HIT } } };
static const struct ml_mixrow hitm_mix = { { { 85, PEBS_LVL_L3, ML_W_HITM },
					     { 15, PEBS_LVL_L1, ML_W_HIT } } };

static uint64_t ns_of(uint64_t core_x100, uint64_t tsc_khz)
{
	return core_x100 * 100 / 110 * 1000000 / tsc_khz;
}

/* The modelled core cycles x100 of a level (the middle of its range), +-3 % seeded jitter. */
static uint64_t lat(enum pebs_level l, const struct ml_opts *o, unsigned pct)
{
	unsigned lo, hi;

	ml_lat_range(l, o, &lo, &hi);
	return (uint64_t)(lo + hi) * 50 * pct / 100 * (97 + ml_rand() % 7) / 100;
}

/* ktests/load_special.c pair_test: reference, subject, PEBS step, chain checks, verdict. */
static void pair(struct ktest *t, const char *ref, const char *sub, uint64_t ws, unsigned stride,
		 const char *ref_pages, const char *sub_pages, uint64_t ref_core, uint64_t sub_core,
		 int tg, const struct ml_mixrow *mx, const char *verdict, unsigned max_pct,
		 bool sub_slower, const struct pebs_caps *c, const struct ml_opts *o)
{
	uint64_t rn = ns_of(ref_core, o->tsc_khz), sn = ns_of(sub_core, o->tsc_khz);

	ml_timing_lines(t, ref, o->tsc_khz, ws, stride, ref_pages, "load", ref_core);
	ml_timing_lines(t, sub, o->tsc_khz, ws, stride, sub_pages, tg == TGT_LFB ? "step8" :
			tg == TGT_STORE ? "ldst" : "load", sub_core);
	if (ml_amd)
		ml_ibs_target(t, sub, ibs, o, sub_core, tg, mx);
	else if (!ml_pebs_target(t, sub, c, o, sub_core, tg, mx))
		kt_skip_sub(t, tg == TGT_STORE ? "pebs_store" : tg == TGT_STLB ? "pebs_stlb" :
			    "pebs_source", "no such data source in this CPU's table");
	kt_check(t, true, "chain_cycle");
	kt_check(t, true, "chain_placement");
	if (sub_slower)
		kt_check(t, load_step_ok(rn, sn, max_pct), "%s # %llu.%02llu ns >= %u%% of "
			 "%llu.%02llu ns", verdict, X100(sn), max_pct, X100(rn));
	else
		kt_check(t, load_step_ok(sn, rn * max_pct / 100, 100), "%s # %llu.%02llu ns <= %u%% "
			 "of %llu.%02llu ns", verdict, X100(sn), max_pct, X100(rn));
}

static void remote(struct ktest *t, uint64_t ws, const struct pebs_caps *c,
		   const struct ml_opts *o)
{
	uint64_t loc = lat(PEBS_LVL_RAM, o, 100), rem = lat(PEBS_LVL_RAM, o, 160);
	uint64_t ln = ns_of(loc, o->tsc_khz), rn = ns_of(rem, o->tsc_khz);

	kt_info(t, "load_remote: boot CPU APIC id 0 on node 0, remote node 1, SLIT distance 21 "
		"(modelled: two sockets)");
	ml_timing_lines(t, "load_remote/local", o->tsc_khz, ws, 64, "2M", "load", loc);
	ml_timing_lines(t, "load_remote", o->tsc_khz, ws, 64, "2M", "load", rem);
	kt_check(t, true, "buffer_on_node # local on node 0 (want 0), remote on node 1 (want 1)");
	if (ml_amd)
		ml_ibs_target(t, "load_remote", ibs, o, rem, TGT_REMOTE, &remote_mix);
	else
		ml_pebs_target(t, "load_remote", c, o, rem, TGT_REMOTE, &remote_mix);
	kt_check(t, true, "chain_cycle");
	kt_check(t, true, "chain_placement");
	kt_info(t, "load_remote: local %llu.%02llu ns, remote %llu.%02llu ns per load (%llu%%)",
		X100(ln), X100(rn), (unsigned long long)(rn * 100 / ln));
	kt_check(t, load_step_ok(ln, rn, 110), "remote_over_local # %llu.%02llu ns >= 110%% of "
		 "%llu.%02llu ns", X100(rn), X100(ln));
}

/* ktests/load_xcore.c xcore_test with the helper modelled: 4096 loads, all answered. */
static void xcore(struct ktest *t, const char *name, int kind, const struct pebs_caps *c,
		  const struct ml_opts *o)
{
	uint64_t x = ns_of(lat(PEBS_LVL_L3, o, kind == XCORE_HITM ? 150 : 120), o->tsc_khz);
	uint64_t l1 = ns_of(lat(PEBS_LVL_L1, o, 100), o->tsc_khz);
	uint64_t tk = x * o->tsc_khz / 100000000, l1t = l1 * o->tsc_khz / 100000000;
	char codes[200];
	const char *why;

	kt_info(t, "%s: helper cpu1 (APIC id 2, package 0 core 1), 4096 loads timed", name);
	kt_info(t, "%s time: per load median %llu.%02llu ns (%llu TSC), min %llu.%02llu ns (%llu "
		"TSC), mean %llu.%02llu ns; core cycles none (TSC only) 0; L1 re-load median "
		"%llu.%02llu ns (%llu TSC); timer overhead 20 TSC removed", name, X100(x),
		(unsigned long long)tk, X100(x * 95 / 100), (unsigned long long)(tk * 95 / 100),
		X100(x * 104 / 100), X100(l1), (unsigned long long)l1t);
	kt_check(t, true, "handshake_every_line");
	kt_check(t, true, "values_from_helper # 0 of 4096 loads wrong");
	kt_check(t, tk >= 3 * l1t, "xcore_slower_than_l1 # median %llu TSC vs L1 re-load %llu TSC",
		 (unsigned long long)tk, (unsigned long long)l1t);
	xcore_expected_text((enum xcore_kind)kind, codes, sizeof(codes));
	kt_info(t, "%s: expected PEBS data sources (local cache, snoop %s) per table: %s", name,
		kind == XCORE_SNOOP ? "Hit or Fwd" : "HitM", codes);
	if (!pebs_caps_pebs_ok(c, &why))	/* loads/xcore_pebs.c on an IBS part */
		kt_skip_sub(t, "pebs_source", XCORE_PEBS_ONLY "%s", why);
	else
		ml_xcore_pebs(t, name, c, o, kind, kind == XCORE_SNOOP ? &snoop_mix : &hitm_mix);
}

unsigned ml_special_tests(unsigned n, uint64_t tsc_khz, const struct pebs_caps *c,
			  const struct ibs_caps *ic, const struct cache_geometry *g,
			  const struct ml_opts *o)
{
	static const char *const names[] = { "load_lfb", "load_store", "load_stlb", "load_remote",
					     "load_snoop", "load_hitm" };
	uint64_t dram = load_ws(LOAD_DRAM, g), l2 = load_ws(LOAD_L2, g);
	const struct pebs_model *pm = ml_amd ? NULL : pebs_model_lookup(c->family, c->model,
									pebs_measure_core(c));

	(void)tsc_khz;
	ibs = ic;
	for (unsigned i = 0; i < 6; i++, n++) {
		const struct ktest_desc desc = { .name = names[i], .needs = NEED_NONE };
		struct ktest t = { .desc = &desc };
		uint64_t ram = lat(PEBS_LVL_RAM, o, 100), l2c = lat(PEBS_LVL_L2, o, 100);

		ktap_test_start(&t, n);
		switch (i) {
		case 0:
			pair(&t, "load_lfb/ref", "load_lfb", dram, 64, "2M", "2M", ram,
			     ram * 115 / 100, TGT_LFB, &lfb_mix, "lfb_rides_fill", 150, false, c, o);
			break;
		case 1:
			pair(&t, "load_store/ref", "load_store", l2, 64, "2M", "2M", l2c,
			     l2c * 104 / 100, TGT_STORE, &store_mix, "store_off_path", 150, false,
			     c, o);
			break;
		case 2:
			pair(&t, "load_stlb/2M", "load_stlb", KLOAD_STLB_WS, 4096, "2M", "4K", ram,
			     ram * 140 / 100, TGT_STLB, &stlb_mix, "walk_cost", 120, true, c, o);
			break;
		case 3:
			if (!ml_amd && !pv_xsrc_codes(pm, PV_X_REMOTE, NULL, 0)) {	/* IBS: RmtNode */
				/* a table with no remote code is a one-socket part's (Lion Cove:
				 * Linux ds.c lnc_pebs_data_source): the kernel SKIPs there on
				 * the SRAT, before any PEBS, so this log does the same */
				ktap_result(&t, n, kt_skip(&t, "one NUMA node: data-source table %s "
							  "has no remote code (one-socket parts "
							  "only)", pebs_ds_table_name(pm ?
							  pm->table : PEBS_DS_NONE)), NULL);
				continue;
			}
			remote(&t, dram, c, o);
			break;
		default:
			xcore(&t, names[i], i == 4 ? XCORE_SNOOP : XCORE_HITM, c, o);
		}
		ktap_result(&t, n, kt_verdict(&t), NULL);
	}
	return n;
}
