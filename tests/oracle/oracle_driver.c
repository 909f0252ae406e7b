/*
 * oracle_driver.c: every aux word of every data-source table decoded twice, through Linux's
 * own code (linux_glue.h: v6.12's ds.c, extracted at test time) and through ours
 * (pebs/datasrc.c), one line per word: "<config> <word> | <linux> | <ours>", each side as
 * "level snoop hit remote stlb lock". tests/scripts/linux_oracle.t compares the two sides
 * and fails on any difference docs/tables.md does not list. The configurations are Linux's
 * per-model choices in core.c intel_pmu_init (table, decode function, pebs_no_tlb).
 */
#include "pebs/datasrc.h"
#include "tests/oracle/linux_glue.h"

#include <stdio.h>

struct cfg {
	const char *name;
	unsigned fam, mod;
	enum pebs_core core;
	int store;
	enum lx_setup setup;
	enum lx_fn fn;
	int no_tlb;
	unsigned codes;		/* words 0..codes-1 of the code field */
	unsigned b0, b1;	/* the two flag bits (STLB miss, locked) of this layout */
};

static const struct cfg cfgs[] = {
	{ .name = "nhm/06_1E", .fam = 6, .mod = 0x1e, .core = PEBS_CORE_ANY, .store = 0,
	  .setup = LX_NHM, .fn = LX_LOAD_LATENCY, .no_tlb = 1, .codes = 16, .b0 = 4, .b1 = 5 },
	{ .name = "nhm-ex/06_2E", .fam = 6, .mod = 0x2e, .core = PEBS_CORE_ANY, .store = 0,
	  .setup = LX_NHM, .fn = LX_LOAD_LATENCY, .no_tlb = 1, .codes = 16, .b0 = 4, .b1 = 5 },
	{ .name = "wsm/06_25", .fam = 6, .mod = 0x25, .core = PEBS_CORE_ANY, .store = 0,
	  .setup = LX_NHM, .fn = LX_LOAD_LATENCY, .no_tlb = 0, .codes = 16, .b0 = 4, .b1 = 5 },
	{ .name = "snb/06_2A", .fam = 6, .mod = 0x2a, .core = PEBS_CORE_ANY, .store = 0,
	  .setup = LX_TABLE_A, .fn = LX_LOAD_LATENCY, .no_tlb = 0, .codes = 16, .b0 = 4, .b1 = 5 },
	{ .name = "hsw/06_3C", .fam = 6, .mod = 0x3c, .core = PEBS_CORE_ANY, .store = 0,
	  .setup = LX_TABLE_A, .fn = LX_LOAD_LATENCY, .no_tlb = 0, .codes = 16, .b0 = 4, .b1 = 5 },
	{ .name = "skl/06_5E", .fam = 6, .mod = 0x5e, .core = PEBS_CORE_ANY, .store = 0,
	  .setup = LX_SKL, .fn = LX_LOAD_LATENCY, .no_tlb = 0, .codes = 16, .b0 = 4, .b1 = 5 },
	{ .name = "skx/06_55", .fam = 6, .mod = 0x55, .core = PEBS_CORE_ANY, .store = 0,
	  .setup = LX_SKL_PMEM, .fn = LX_LOAD_LATENCY, .no_tlb = 0, .codes = 16, .b0 = 4, .b1 = 5 },
	{ .name = "spr/06_8F", .fam = 6, .mod = 0x8f, .core = PEBS_CORE_ANY, .store = 0,
	  .setup = LX_SKL_PMEM, .fn = LX_LOAD_LATENCY, .no_tlb = 0, .codes = 16, .b0 = 4, .b1 = 5 },
	{ .name = "spr-store/06_8F", .fam = 6, .mod = 0x8f, .core = PEBS_CORE_ANY, .store = 1,
	  .setup = LX_SKL_PMEM, .fn = LX_STORE_LATENCY, .no_tlb = 0, .codes = 16, .b0 = 4, .b1 = 5 },
	{ .name = "adl-p/06_97", .fam = 6, .mod = 0x97, .core = PEBS_CORE_P, .store = 0,
	  .setup = LX_SKL, .fn = LX_LOAD_LATENCY, .no_tlb = 0, .codes = 16, .b0 = 4, .b1 = 5 },
	{ .name = "adl-e/06_97", .fam = 6, .mod = 0x97, .core = PEBS_CORE_E, .store = 0,
	  .setup = LX_GRT, .fn = LX_GRT_LATENCY, .no_tlb = 0, .codes = 16, .b0 = 4, .b1 = 5 },
	{ .name = "adl-e-store/06_97", .fam = 6, .mod = 0x97, .core = PEBS_CORE_E, .store = 1,
	  .setup = LX_GRT, .fn = LX_GRT_LATENCY, .no_tlb = 0, .codes = 16, .b0 = 4, .b1 = 5 },
	{ .name = "mtl-e/06_AA", .fam = 6, .mod = 0xaa, .core = PEBS_CORE_E, .store = 0,
	  .setup = LX_CMT, .fn = LX_CMT_LATENCY, .no_tlb = 0, .codes = 32, .b0 = 5, .b1 = 6 },
	{ .name = "srf/06_AF", .fam = 6, .mod = 0xaf, .core = PEBS_CORE_ANY, .store = 0,
	  .setup = LX_CMT, .fn = LX_CMT_LATENCY, .no_tlb = 0, .codes = 32, .b0 = 5, .b1 = 6 },
	{ .name = "lnl-e/06_BD", .fam = 6, .mod = 0xbd, .core = PEBS_CORE_E, .store = 0,
	  .setup = LX_CMT, .fn = LX_CMT_LATENCY, .no_tlb = 0, .codes = 32, .b0 = 5, .b1 = 6 },
	{ .name = "lnl-p/06_BD", .fam = 6, .mod = 0xbd, .core = PEBS_CORE_P, .store = 0,
	  .setup = LX_LNC, .fn = LX_LNC_LATENCY, .no_tlb = 0, .codes = 256, .b0 = 10, .b1 = 11 },
	{ .name = "lnl-p-store/06_BD", .fam = 6, .mod = 0xbd, .core = PEBS_CORE_P, .store = 1,
	  .setup = LX_LNC, .fn = LX_LNC_LATENCY, .no_tlb = 0, .codes = 256, .b0 = 10, .b1 = 11 },
};

static char tri(uint8_t t)
{
	return t == PEBS_YES ? 'y' : t == PEBS_NO ? 'n' : '?';
}

int main(void)
{
	for (unsigned c = 0; c < sizeof(cfgs) / sizeof(cfgs[0]); c++) {
		const struct cfg *g = &cfgs[c];
		const struct pebs_model *m = pebs_model_lookup(g->fam, g->mod, g->core);

		if (!m) {
			printf("%s: no model row\n", g->name);
			return 1;
		}
		lx_setup(g->setup, g->no_tlb, 0);
		for (unsigned code = 0; code < g->codes; code++) {
			for (unsigned f = 0; f < 4; f++) {
				uint64_t w = code | (uint64_t)(f & 1) << g->b0 |
					     (uint64_t)(f >> 1) << g->b1;
				struct pebs_dsrc d;
				char lx[96];

				lx_decode(g->fn, g->store, w, lx, sizeof(lx));
				pebs_dsrc_decode(m, g->store ? PEBS_EV_STORE : PEBS_EV_LOAD, w, &d);
				printf("%s %s 0x%03llx | %s | %s %s %c %c %c %c\n", g->name,
				       pebs_ds_table_name(m->table), (unsigned long long)w, lx,
				       pebs_level_id(d.level), pebs_snoop_id(d.snoop), tri(d.hit),
				       tri(d.remote), tri(d.stlb_miss), tri(d.locked));
			}
		}
	}
	return 0;
}
