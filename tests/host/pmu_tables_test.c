/*
 * pmu_tables_test.c: every generated row of pebs/pmu_tables.c (docs/tables.md). Each event
 * row is found again by its own key; its data-source row exists for the same core and names
 * the same table; hybrid models have P and E rows in both tables, chosen by the CPUID.1AH
 * core type (and native model on Arrow Lake-H); counter masks fit the PEBS counters; unknown
 * models stay unknown. Expectations for named models from Linux intel_pmu_init (WCL = PTL
 * path) and perfmon's mapfile (06_C5 native model ids 2 and 3).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "pebs/datasrc.h"
#include "pebs/uarch.h"

#define P_CORE 0x40
#define E_CORE 0x20

/* The data-source table an event row's dsrc id means (PNC: pebs/datasrc_pantherc.c). */
static unsigned ds_table(enum pebs_dsrc_id id)
{
	static const unsigned map[] = {
		[DSRC_NONE] = PEBS_DS_NONE, [DSRC_NHM] = PEBS_DS_NHM, [DSRC_SNB] = PEBS_DS_SNB,
		[DSRC_SKL] = PEBS_DS_SKL, [DSRC_SKL_PMEM] = PEBS_DS_SKL_PMEM,
		[DSRC_GRT] = PEBS_DS_GRT, [DSRC_CMT] = PEBS_DS_CMT, [DSRC_LNC] = PEBS_DS_LNC,
		[DSRC_PNC] = PEBS_DS_PNC, [DSRC_ARW] = PEBS_DS_ARW,
	};

	assert_true((unsigned)id < sizeof(map) / sizeof(map[0]));
	return map[id];
}

static bool has_core(uint32_t fam, uint32_t mod, uint8_t type)
{
	for (unsigned i = 0; i < pebs_uarch_count; i++) {
		const struct pebs_uarch *u = &pebs_uarch_table[i];

		if (u->family == fam && u->model == mod && u->core_type == type)
			return true;
	}
	return false;
}

static void test_every_row(void **state)
{
	(void)state;
	assert_true(pebs_uarch_count >= 90);
	for (unsigned i = 0; i < pebs_uarch_count; i++) {
		const struct pebs_uarch *u = &pebs_uarch_table[i];
		enum pebs_core core = u->core_type == P_CORE ? PEBS_CORE_P :
				      u->core_type == E_CORE ? PEBS_CORE_E : PEBS_CORE_ANY;
		const struct pebs_model *m = pebs_model_lookup(u->family, u->model, core);

		if (pebs_uarch_find(u->family, u->model, u->core_type, u->native) != u)
			fail_msg("row %u (%s %02X_%02X): lookup finds another row", i, u->name,
				 u->family, u->model);
		if (m == NULL || m->table != ds_table(u->dsrc))
			fail_msg("%s %02X_%02X core 0x%x: data-source row %s, event row %s", u->name,
				 u->family, u->model, u->core_type,
				 m ? pebs_ds_table_name(m->table) : "missing",
				 pebs_ds_table_name(ds_table(u->dsrc)));
		assert_int_equal(pebs_model_is_hybrid(u->family, u->model), u->core_type != 0);
		assert_non_null(u->name);
		assert_non_null(u->src);
		assert_int_not_equal(u->steppings, 0);
		if (u->ll_event && u->pebs_fmt != 0xf)
			assert_int_not_equal(u->ll_gp, 0);
		if (u->pebs_gp) {	/* load and store counters can PEBS */
			assert_int_equal(u->ll_gp & ~u->pebs_gp, 0);
			assert_int_equal(u->st_gp & ~u->pebs_gp, 0);
		}
		if (!u->ll_event)
			assert_int_equal(u->dsrc, DSRC_NONE);
	}
}

/* Hybrid: a P row and an E row in both tables, and neither table names the other core's. */
static void test_hybrid_core_types(void **state)
{
	unsigned hybrid = 0;

	(void)state;
	for (unsigned i = 0; i < pebs_uarch_count; i++) {
		const struct pebs_uarch *u = &pebs_uarch_table[i];

		if (u->core_type != P_CORE)
			continue;
		hybrid++;
		assert_true(has_core(u->family, u->model, E_CORE));
		const struct pebs_uarch *e = pebs_uarch_find(u->family, u->model, E_CORE, 0);
		const struct pebs_model *mp = pebs_model_lookup(u->family, u->model, PEBS_CORE_P);
		const struct pebs_model *me = pebs_model_lookup(u->family, u->model, PEBS_CORE_E);

		assert_non_null(e);
		assert_non_null(mp);
		assert_non_null(me);
		assert_int_equal(mp->table, ds_table(u->dsrc));
		assert_int_equal(me->table, ds_table(e->dsrc));
		assert_int_equal(mp->core, PEBS_CORE_P);
		assert_int_equal(me->core, PEBS_CORE_E);
		/* no core type (a die without E-cores): the P-core row, both tables */
		assert_ptr_equal(pebs_uarch_find(u->family, u->model, 0, 0), u);
		assert_ptr_equal(pebs_model_lookup(u->family, u->model, PEBS_CORE_ANY), mp);
	}
	assert_true(hybrid >= 15);
}

static void test_named_models(void **state)
{
	const struct pebs_uarch *p = pebs_uarch_find(6, 0xd5, P_CORE, 0);
	const struct pebs_uarch *e = pebs_uarch_find(6, 0xd5, E_CORE, 0);

	(void)state;
	/* Wildcat Lake: Panther Lake's cores (Linux: WILDCATLAKE_L joins lnl_common) */
	assert_non_null(p);
	assert_non_null(e);
	assert_int_equal(p->dsrc, DSRC_LNC);
	assert_int_equal(p->ll_event, 0x01cd);
	assert_int_equal(p->ll_gp, 0x3fc);
	assert_int_equal(e->dsrc, DSRC_CMT);
	assert_int_equal(e->ll_event, 0x05d0);
	assert_int_equal(e->ll_gp, 0x3);
	assert_string_equal(pebs_model_lookup(6, 0xd5, PEBS_CORE_E)->name, "Wildcat Lake E");
	/* Arrow Lake-H: two E-core kinds, told apart by the native model id */
	assert_string_equal(pebs_uarch_find(6, 0xc5, E_CORE, 2)->name, "Crestmont (ARL-H LP E)");
	assert_string_equal(pebs_uarch_find(6, 0xc5, E_CORE, 3)->name, "Skymont");
	/* reconciled counter masks (docs/tables.md): PMC3 for NHM/HSW load latency */
	assert_int_equal(pebs_uarch_find(6, 0x1a, 0, 0)->ll_gp, 0x8);
	assert_int_equal(pebs_uarch_find(6, 0x3c, 0, 0)->ll_gp, 0x8);
	/* PEBS without load latency, with the reason */
	assert_int_equal(pebs_uarch_find(6, 0x37, 0, 0)->ll_event, 0);
	assert_non_null(strstr(pebs_uarch_find(6, 0x37, 0, 0)->no_ll, "Silvermont"));
	/* Nova Lake (Linux tip c847a208f43b, 7cd264d1972d): the P-core decodes with Panther
	 * Cove's layout, the E-core (Arctic Wolf) has Linux's load/store latency on PMC0-7 and its
	 * own L2-hit table (docs/tables.md: perfmon lists no such event, Linux is followed) */
	for (unsigned mod = 1; mod <= 3; mod += 2) {
		const struct pebs_uarch *np = pebs_uarch_find(0x12, mod, P_CORE, 0);
		const struct pebs_uarch *ne = pebs_uarch_find(0x12, mod, E_CORE, 0);

		assert_non_null(np);
		assert_non_null(ne);
		assert_int_equal(np->dsrc, DSRC_PNC);
		assert_int_equal(pebs_model_lookup(0x12, mod, PEBS_CORE_P)->table, PEBS_DS_PNC);
		assert_int_equal(ne->dsrc, DSRC_ARW);
		assert_int_equal(ne->ll_event, 0x05d0);
		assert_int_equal(ne->ll_gp, 0xff);
		assert_int_equal(ne->st_event, 0x06d0);
		assert_int_equal(ne->st_gp, 0xff);
		assert_null(ne->no_ll);
		assert_int_equal(pebs_model_lookup(0x12, mod, PEBS_CORE_E)->store, PEBS_ST_TABLE);
	}
	/* 06_E5 Panther Lake-R: the Darkmont and Cougar Cove masks of 06_CC, not perfmon's 0-7 */
	p = pebs_uarch_find(6, 0xe5, P_CORE, 0);
	e = pebs_uarch_find(6, 0xe5, E_CORE, 0);
	assert_int_equal(e->ll_gp, pebs_uarch_find(6, 0xcc, E_CORE, 0)->ll_gp);
	assert_int_equal(e->st_gp, pebs_uarch_find(6, 0xcc, E_CORE, 0)->st_gp);
	assert_int_equal(e->ll_gp, 0x3);
	assert_int_equal(p->ll_gp, pebs_uarch_find(6, 0xcc, P_CORE, 0)->ll_gp);
	assert_string_equal(pebs_model_lookup(6, 0xe5, PEBS_CORE_E)->name, "Panther Lake-R E");
	/* grt store latency on PMC0-5 (Linux v6.12.117 INTEL_HYBRID_STLAT_CONSTRAINT(0x6d0, 0x3f)) */
	assert_int_equal(pebs_uarch_find(6, 0x97, E_CORE, 0)->st_gp, 0x3f);
	assert_int_equal(pebs_uarch_find(6, 0xaf, 0, 0)->st_gp, 0x3f);
	/* 06_75 Airmont NP (Linux tip a08340fd2916): Silvermont PEBS on PMC0, no load latency */
	const struct pebs_uarch *amnp = pebs_uarch_find(6, 0x75, 0, 0);

	assert_non_null(amnp);
	assert_string_equal(amnp->name, "Silvermont");
	assert_int_equal(amnp->pebs_gp, 0x1);
	assert_int_equal(amnp->ll_event, 0);
	assert_non_null(amnp->no_ll);
	assert_string_equal(pebs_model_lookup(6, 0x75, PEBS_CORE_ANY)->name, "Airmont NP");
	/* unknown models: no row, so the architectural path decides */
	assert_null(pebs_uarch_find(6, 0x99, 0, 0));
	assert_null(pebs_uarch_find(7, 0x2a, 0, 0));
	assert_null(pebs_model_lookup(6, 0x99, PEBS_CORE_ANY));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_row),
		cmocka_unit_test(test_hybrid_core_types),
		cmocka_unit_test(test_named_models),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
