/*
 * ibs_oracle_driver.c: IBS_OP_DATA2/DATA3 combinations decoded twice, through Linux's
 * arch/x86/events/amd/ibs.c (ibs_glue.h, v6.12, extracted at test time) and through ours
 * (ibs/ibs_decode.c), one line each: "<config> <table> <data2> <data3> | <linux> | <ours>",
 * each side "level snoop hit remote stlb lock". tests/scripts/ibs_oracle.t compares them and
 * fails on a difference docs/tables.md does not list. Every DataSrc code of the row's table,
 * RmtNode and CacheHitSt each 0/1, over the DATA3 cases below (load ops: DataSrc is valid
 * for loads only); the configurations are one CPU per decoder row kind (erratum 1293,
 * CacheHitSt unreliable, extended DataSrc).
 */
#include "ibs/ibs_decode.h"
#include "ibs/ibs_regs.h"
#include "sample/dsrc.h"
#include "tests/oracle/ibs_glue.h"

#include <stdio.h>
#include <stdlib.h>

#define LD IBS_DATA3_LD_OP
#define MISS (IBS_DATA3_DC_MISS | IBS_DATA3_L2_MISS)
#define LIN IBS_DATA3_DC_LIN_ADDR_VALID

static const struct cfg {
	const char *name;
	unsigned fam, mod;
	uint32_t caps;		/* CPUID 8000_001BH:EAX */
} cfgs[] = {
	{ .name = "zen3-1293/19_01", .fam = 0x19, .mod = 0x01, .caps = 0x3ff },
	{ .name = "zen3/19_21", .fam = 0x19, .mod = 0x21, .caps = 0x3ff },
	{ .name = "zen4/19_11", .fam = 0x19, .mod = 0x11, .caps = 0xbff },
	{ .name = "zen5/1A_02", .fam = 0x1a, .mod = 0x02, .caps = 0x1bff },
};

static const uint64_t data3[] = {
	LD | LIN,						/* L1 hit */
	LD | LIN | IBS_DATA3_DC_MISS,				/* L2 hit */
	LD | LIN | MISS,					/* DataSrc decides */
	LD | MISS,						/* no linear address */
	LD | LIN | MISS | IBS_DATA3_DC_MISS_NO_MAB_ALLOC,	/* MAB hit (erratum 1293) */
	LD | LIN | MISS | IBS_DATA3_SW_PF,			/* software prefetch (1293) */
	LD | LIN | MISS | IBS_DATA3_DC_UC_MEM_ACC,		/* uncacheable */
	LD | LIN | MISS | IBS_DATA3_DC_LOCKED_OP,		/* locked */
	LD | LIN | MISS | IBS_DATA3_DC_L1TLB_MISS,		/* L2 TLB hit */
	LD | LIN | MISS | IBS_DATA3_DC_L1TLB_MISS | IBS_DATA3_DC_L2TLB_MISS,	/* TLB miss */
};

static char tri(uint8_t t)
{
	return t == PEBS_YES ? 'y' : t == PEBS_NO ? 'n' : '?';
}

/* One configuration per run (argv[1], its index; none: the count): Linux caches the CPU's
 * CacheHitSt validity in a function-local static (perf_ibs_cache_hit_st_valid), so each CPU
 * needs a fresh process. */
int main(int argc, char **argv)
{
	unsigned n = sizeof(cfgs) / sizeof(cfgs[0]);

	if (argc < 2) {
		printf("%u\n", n);
		return 0;
	}
	for (unsigned c = (unsigned)atoi(argv[1]); c < n; c = n) {
		const struct cfg *g = &cfgs[c];
		const struct ibs_family *fam = ibs_family_lookup(g->fam, g->mod);
		bool ext = g->caps & IBS_CAPS_ZEN4;

		if (!fam) {
			printf("%s: no decoder row\n", g->name);
			return 1;
		}
		for (unsigned code = 0; code < (ext ? 32u : 8u); code++)
			for (unsigned f = 0; f < 4; f++)
				for (unsigned i = 0; i < sizeof(data3) / sizeof(data3[0]); i++) {
					uint64_t d2 = (code & 7) | (uint64_t)(code >> 3) <<
						      IBS_DATA2_SRC_HI_SHIFT |
						      (f & 1 ? IBS_DATA2_RMT_NODE : 0) |
						      (f & 2 ? IBS_DATA2_CACHE_HIT_ST : 0);
					struct ibs_sample s = { .w = {
						[IBS_W_CTL] = IBS_OP_VAL, [IBS_W_DATA2] = d2,
						[IBS_W_DATA3] = data3[i], [IBS_W_LINADDR] = 0x1000 } };
					struct ibs_op op;
					char lx[96];

					ibs_lx_decode(g->fam, g->mod, g->caps, d2, data3[i], lx,
						      sizeof(lx));
					ibs_decode(fam, ext, &s, &op);
					printf("%s %s 0x%03llx 0x%llx | %s | %s %s %c %c %c %c\n",
					       g->name, ibs_dsrc_table_name(ext ? IBS_DS_EXT :
									   IBS_DS_LEGACY),
					       (unsigned long long)d2, (unsigned long long)data3[i],
					       lx, op.d.has_level ? pebs_level_id(op.d.level) : "?",
					       op.d.has_snoop ? pebs_snoop_id(op.d.snoop) : "?",
					       tri(op.d.hit), tri(op.d.remote), tri(op.d.stlb_miss),
					       tri(op.d.locked));
				}
	}
	return 0;
}
