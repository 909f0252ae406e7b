/*
 * ibs_ldlat_test.c: the IBS load-latency filter (ibs/ibs.c ibs_ldlat_round/ibs_ldlat_bits,
 * ibs_ldlat_choose, ibs/ibs_measure.c) on the IBS model's Zen 4, Zen 5 and
 * Zen 6 rows (tests/model/ibs_model.h (c)): thresholds in 128-cycle steps as Linux
 * perf_ibs_init() encodes them, the DRAM/remote kernels filtered and L1-L3 not, only loads
 * above the threshold sampled, erratum 1606's L3MissOnly on Zen 5 (knob: a Zen 5 decoder row
 * without the erratum arms LdLatEn alone, the model flags it and the filter leaks), Zen 6
 * without the erratum, no filter without CPUID OpLdLat. And Zen 6's other bits: IBS_OP_CTL2
 * left by firmware with kernel RIPs excluded (the model row's) cleared for the session and
 * restored, DATA2 RmtSocket/StrmSt decoded (only on rows that have them), Zen 4's extended
 * DataSrc codes 8 (CXL) and 12 (peer agent memory).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/ibs_model.h"
#include "model/vclock.h"
#include "ibs/ibs.h"
#include "ibs/ibs_measure.h"
#include "ibs/ibs_regs.h"
#include "host/ibs_fixture.h"

static char warned[160];

static void warn(const char *msg)
{
	snprintf(warned, sizeof(warned), "%s", msg);
}

static void test_round(void **state)
{
	const struct ibs_caps *c = setup(&ibs_model_zen5, APIC_X2APIC, PMI_NMI);

	(void)state;
	assert_int_equal(ibs_ldlat_round(3), 128);
	assert_int_equal(ibs_ldlat_round(200), 128);
	assert_int_equal(ibs_ldlat_round(256), 256);
	assert_int_equal(ibs_ldlat_round(300), 256);
	assert_int_equal(ibs_ldlat_round(5000), 2048);
	assert_int_equal(ibs_ldlat_bits(c, 0), 0);
	assert_int_equal(ibs_ldlat_bits(c, 300), IBS_OP_LDLAT_EN | 1ull << 59 | IBS_OP_L3MISSONLY);
	assert_int_equal(ibs_ldlat_bits(c, 2048), IBS_OP_LDLAT_EN | 15ull << 59 |
			 IBS_OP_L3MISSONLY);
	c = setup(&ibs_model_zen6, APIC_X2APIC, PMI_NMI);
	assert_int_equal(ibs_ldlat_bits(c, 128), IBS_OP_LDLAT_EN);	/* no erratum */
}

static void test_kernels(void **state)
{
	const struct ibs_caps *c = setup(&ibs_model_zen5, APIC_X2APIC, PMI_NMI);

	(void)state;
	warned[0] = 0;
	assert_int_equal(ibs_ldlat_choose(c, true, 0, warn), 128);
	assert_int_equal(ibs_ldlat_choose(c, true, 256, warn), 256);
	assert_string_equal(warned, "");
	assert_int_equal(ibs_ldlat_choose(c, true, 300, warn), 256);
	assert_string_equal(warned, "ldlat=300: IBS filters in 128-cycle steps (128..2048): 256 "
			    "cycles");
	assert_int_equal(ibs_ldlat_choose(c, false, 300, warn), 0);	/* L1-L3 */
	c = setup(&ibs_model_zen4, APIC_X2APIC, PMI_NMI);
	assert_int_equal(ibs_ldlat_choose(c, true, 300, warn), 0);	/* no OpLdLat */
}

struct feeder {
	struct ibs_model_op ops[5];
	unsigned chunks;
};

static bool work(void *ctx)
{
	struct feeder *f = ctx;

	for (unsigned i = 0; i < 5; i++)
		ibs_model_feed(&f->ops[i], 777);
	return ++f->chunks < 20000;
}

static const struct feeder mix = { .ops = {
	{ .load = true, .addr = 0x1000, .level = PEBS_LVL_RAM, .lat = 300 },
	{ .load = false },
	{ .load = true, .addr = 0x2000, .level = PEBS_LVL_L3, .lat = 40 },
	{ .load = true, .addr = 0x3000, .level = PEBS_LVL_RAM, .lat = 100 },	/* fast DRAM */
	{ .load = true, .addr = 0x4000, .level = PEBS_LVL_L2, .lat = 14 } } };

static void measure(const struct ibs_caps *c, unsigned ldlat, struct ibs_measure *m)
{
	struct feeder f = mix;
	struct ibs_measure_cfg cfg = { .period = 1000, .seed = 5, .target_loads = 500,
				       .work = work, .work_ctx = &f, .ldlat = ldlat };

	assert_int_equal(ibs_measure_run(m, c, &cfg), 0);
	for (unsigned i = 0; i < ibs_model_violation_count(); i++)
		print_message("violation: %s\n", ibs_model_violation(i));
}

static void test_filter(void **state)
{
	static struct ibs_measure m;
	const struct ibs_model_cpu *rows[] = { &ibs_model_zen5, &ibs_model_zen6 };

	(void)state;
	for (unsigned i = 0; i < 2; i++) {
		measure(setup(rows[i], APIC_X2APIC, PMI_NMI), 128, &m);
		assert_int_equal(ibs_model_violation_count(), 0);
		assert_true(m.loads >= 500);
		assert_int_equal(m.below_ldlat, 0);
		assert_int_equal(m.other_ops, 0);	/* only loads are tagged */
		assert_int_equal(m.agg.lvl[PEBS_LVL_RAM].count, m.loads);
		assert_int_equal(m.agg.lvl[PEBS_LVL_RAM].min, 300);	/* 100 is below */
		assert_true(ibs_model_restored());
	}
	/* unfiltered: every level, and other ops */
	measure(setup(&ibs_model_zen5, APIC_X2APIC, PMI_NMI), 0, &m);
	assert_true(m.agg.lvl[PEBS_LVL_L3].count > 0 && m.agg.lvl[PEBS_LVL_L2].count > 0 &&
		    m.other_ops > 0 && m.agg.lvl[PEBS_LVL_RAM].min == 100);
}

static void test_erratum_1606_knob(void **state)
{
	static struct ibs_measure m;
	struct ibs_family without;

	(void)state;
	setup(&ibs_model_zen5, APIC_X2APIC, PMI_NMI);
	without = *caps.fam;
	without.erratum_1606 = false;	/* the knob: no workaround */
	caps.fam = &without;
	measure(&caps, 128, &m);
	assert_true(ibs_model_has_violation("erratum 1606: IbsOpLdLatEn without "
					    "IbsOpL3MissOnly"));
	assert_true(m.below_ldlat > m.loads / 100);	/* the filter leaked: ibs_source fails */
}

static bool work_remote(void *ctx)
{
	const struct ibs_model_op op = { .load = true, .addr = 0x5000, .level = PEBS_LVL_RAM,
					 .remote = true, .lat = 600 };

	ibs_model_feed(&op, 4000);
	return ++*(unsigned *)ctx < 20000;
}

static void test_zen6_ctl2_rmt_socket(void **state)
{
	static struct ibs_measure m;
	unsigned chunks = 0;
	struct ibs_measure_cfg cfg = { .period = 1000, .seed = 7, .target_loads = 300,
				       .work = work_remote, .work_ctx = &chunks };
	const struct ibs_caps *c = setup(&ibs_model_zen6, APIC_X2APIC, PMI_NMI);

	(void)state;
	assert_int_equal(ibs_model_cpu()->op_ctl2, IBS_OP2_EXCL_RIP_63_EQ_1);
	assert_int_equal(ibs_measure_run(&m, c, &cfg), 0);
	assert_true(m.loads >= 300);	/* CTL2 cleared: kernel RIPs sampled */
	assert_int_equal(m.agg.lvl[PEBS_LVL_RAM].count, m.loads);
	assert_true(ibs_model_restored());	/* CTL2 back to firmware's */
	assert_int_equal(ibs_model_violation_count(), 0);
}

static void test_data2_bits(void **state)
{
	const struct ibs_family *z6 = ibs_family_lookup(0x1a, 0x50);
	const struct ibs_family *z5 = ibs_family_lookup(0x1a, 0x02);
	struct ibs_sample s = { .w = {
		[IBS_W_CTL] = IBS_OP_VAL,
		[IBS_W_DATA2] = 3 | IBS_DATA2_RMT_SOCKET | IBS_DATA2_STRM_ST,	/* DRAM */
		[IBS_W_DATA3] = IBS_DATA3_LD_OP | IBS_DATA3_DC_MISS | IBS_DATA3_L2_MISS } };
	struct ibs_op op;

	(void)state;
	assert_string_equal(z6->name, "Zen 6");
	ibs_decode(z6, true, &s, &op);
	assert_true(op.rmt_socket && op.strm_st);
	assert_int_equal(op.d.level, PEBS_LVL_RAM);
	assert_int_equal(op.d.remote, PEBS_YES);	/* RmtSocket without RmtNode */
	ibs_decode(z5, true, &s, &op);			/* bits 8-9 not Zen 5's */
	assert_false(op.rmt_socket || op.strm_st);
	assert_int_equal(op.d.remote, PEBS_NO);
	s.w[IBS_W_DATA2] = 0 | 1ull << IBS_DATA2_SRC_HI_SHIFT;	/* code 8: CXL */
	ibs_decode(z5, true, &s, &op);
	assert_int_equal(op.code, 8);
	assert_int_equal(op.d.level, PEBS_LVL_CXL);
	s.w[IBS_W_DATA2] = 4 | 1ull << IBS_DATA2_SRC_HI_SHIFT;	/* code 12: peer agent */
	ibs_decode(z5, true, &s, &op);
	assert_int_equal(op.code, 12);
	assert_int_equal(op.d.level, PEBS_LVL_NA);	/* no level: not a reserved code */
	assert_false(op.d.reserved);
	assert_string_equal(ibs_dsrc_row(IBS_DS_EXT, 12)->ppr, "peer agent memory");
}

static void test_no_opldlat(void **state)
{
	struct ibs_session s;
	struct ibs_config cfg = { .period = 1000, .ldlat = 128 };

	(void)state;
	assert_int_equal(ibs_start(&s, setup(&ibs_model_zen4, APIC_X2APIC, PMI_NMI), &cfg), -1);
	assert_string_equal(s.err, "CPUID 8000_001BH:EAX[12] (OpLdLat) = 0: no IBS load-latency "
			    "filter");
	assert_int_equal(ibs_model_violation_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round),
		cmocka_unit_test(test_kernels),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_erratum_1606_knob),
		cmocka_unit_test(test_no_opldlat),
		cmocka_unit_test(test_zen6_ctl2_rmt_socket),
		cmocka_unit_test(test_data2_bits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
