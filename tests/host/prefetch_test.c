/*
 * prefetch_test.c: `prefetch=off|on` (kernel/prefetch.c) on the platform model's MSRs
 * (tests/model/platform_model.c, as strict as the SDM: a missing MSR #GPs, a reserved bit
 * #GPs, ignore_msrs reads 0 and drops writes as KVM/QEMU TCG do, pf_drop drops writes to an
 * MSR that exists). Checked: the table finds the documented models and no others (with the
 * reason), off sets exactly the row's bits and keeps the firmware's others, restore puts back
 * what the CPU had (not 0), on clears them, an already-set state writes nothing, a #GP or a
 * dropped write is a reason and leaves nothing to restore, and the option words parse.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cpu.h"
#include "kernel/prefetch.h"
#include "tests/model/platform_model.h"

static struct cpu_info ci(enum cpu_vendor v, uint32_t fam, uint32_t model)
{
	struct cpu_info c = { .vendor = v, .family = fam, .model = model };

	strcpy(c.vendor_str, v == VENDOR_AMD ? "AuthenticAMD" : "GenuineIntel");
	return c;
}

static void test_lookup(void **state)
{
	struct cpu_info c;
	const struct prefetch_row *r;
	char why[128];

	(void)state;
	c = ci(VENDOR_INTEL, 6, 0x55);		/* Skylake-SP: all four bits */
	r = prefetch_lookup(&c, why, sizeof(why));
	assert_non_null(r);
	assert_int_equal(r->msr, 0x1a4);
	assert_int_equal(r->bits, 0xf);
	c = ci(VENDOR_INTEL, 6, 0x5c);		/* Goldmont: L2 and DCU only */
	r = prefetch_lookup(&c, why, sizeof(why));
	assert_non_null(r);
	assert_int_equal(r->bits, 0x5);
	c = ci(VENDOR_INTEL, 6, 0x57);		/* Knights Landing: other bit numbers */
	assert_int_equal(prefetch_lookup(&c, why, sizeof(why))->bits, 0x3);
	c = ci(VENDOR_AMD, 0x19, 0x61);		/* Zen 4 */
	r = prefetch_lookup(&c, why, sizeof(why));
	assert_non_null(r);
	assert_int_equal(r->msr, 0xc0000108);
	assert_int_equal(r->bits, 0x2f);
	/* no row: QEMU's TCG CPU, Zen 2, Nehalem, an unknown family */
	c = ci(VENDOR_AMD, 0xf, 0x6b);
	assert_null(prefetch_lookup(&c, why, sizeof(why)));
	assert_non_null(strstr(why, "AuthenticAMD 0F_6BH"));
	c = ci(VENDOR_AMD, 0x17, 0x31);
	assert_null(prefetch_lookup(&c, why, sizeof(why)));
	c = ci(VENDOR_INTEL, 6, 0x1a);
	assert_null(prefetch_lookup(&c, why, sizeof(why)));
	c = ci(VENDOR_OTHER, 6, 0x55);
	assert_null(prefetch_lookup(&c, why, sizeof(why)));
}

static const struct prefetch_row *skx(void)
{
	struct cpu_info c = ci(VENDOR_INTEL, 6, 0x55);
	char why[128];

	return prefetch_lookup(&c, why, sizeof(why));
}

static void skx_model(uint64_t firmware)
{
	pm_reset();
	pm.pf_msr = 0x1a4;
	pm.pf_rw = 0xf;			/* SDM Vol. 4: bits 63:4 reserved */
	pm.pf_val = firmware;
}

static void test_off_restore(void **state)
{
	const struct prefetch_row *r = skx();
	struct prefetch_cpu c;

	(void)state;
	skx_model(0x2);			/* firmware turned the adjacent-line prefetcher off */
	assert_int_equal(prefetch_set(r, true, &c), 0);
	assert_int_equal(pm.pf_val, 0xf);
	assert_true(c.changed);
	assert_int_equal(c.before, 0x2);
	assert_int_equal(prefetch_restore(r, &c), 0);
	assert_int_equal(pm.pf_val, 0x2);	/* what the CPU had, not 0 */
	assert_false(c.changed);
	/* on: clears the bits, restore sets them again */
	assert_int_equal(prefetch_set(r, false, &c), 0);
	assert_int_equal(pm.pf_val, 0x0);
	assert_int_equal(prefetch_restore(r, &c), 0);
	assert_int_equal(pm.pf_val, 0x2);
	assert_int_equal(pm.violations, 0);
	assert_int_equal(pm.gp, 0);
}

static void test_already(void **state)
{
	const struct prefetch_row *r = skx();
	struct prefetch_cpu c;
	unsigned w;

	(void)state;
	skx_model(0xf);
	w = pm.writes;
	assert_int_equal(prefetch_set(r, true, &c), 0);
	assert_false(c.changed);
	assert_int_equal(pm.writes, w);		/* nothing written, nothing to restore */
	assert_int_equal(prefetch_restore(r, &c), 0);
	assert_int_equal(pm.writes, w);
}

static void test_gp(void **state)
{
	const struct prefetch_row *r = skx();
	struct prefetch_cpu c;

	(void)state;
	pm_reset();			/* a CPU (a VM) without the MSR: #GP */
	assert_int_equal(prefetch_set(r, true, &c), -1);
	assert_non_null(strstr(c.why, "rdmsr MSR 1A4H: #GP (vector 13)"));
	assert_false(c.changed);
	assert_int_equal(prefetch_restore(r, &c), 0);
	assert_int_equal(pm.writes, 0);
}

static void test_dropped(void **state)
{
	const struct prefetch_row *r = skx();
	struct prefetch_cpu c;

	(void)state;
	pm_reset();
	pm.ignore_msrs = true;		/* KVM ignore_msrs / QEMU TCG: reads 0, writes vanish */
	assert_int_equal(prefetch_set(r, true, &c), -1);
	assert_non_null(strstr(c.why, "write dropped"));
	assert_false(c.changed);
	skx_model(0x0);
	pm.pf_drop = true;		/* the MSR exists, a hypervisor ignores writes */
	assert_int_equal(prefetch_set(r, true, &c), -1);
	assert_non_null(strstr(c.why, "wrote 0xf, reads back 0x0"));
	assert_false(c.changed);
	assert_int_equal(pm.pf_val, 0);
}

static void test_reserved(void **state)
{
	struct cpu_info cg = ci(VENDOR_INTEL, 6, 0x5c);
	char why[128];
	const struct prefetch_row *r = prefetch_lookup(&cg, why, sizeof(why));
	struct prefetch_cpu c;

	(void)state;
	/* Goldmont: bits 0 and 2 only; setting bit 1 or 3 would be a reserved-bit #GP */
	pm_reset();
	pm.pf_msr = 0x1a4;
	pm.pf_rw = 0x5;
	assert_int_equal(prefetch_set(r, true, &c), 0);
	assert_int_equal(pm.pf_val, 0x5);
	assert_int_equal(pm.violations, 0);
	assert_int_equal(prefetch_restore(r, &c), 0);
	assert_int_equal(pm.pf_val, 0);
	/* the Core row's bits on this CPU would #GP: the model says so */
	r = skx();
	assert_int_equal(prefetch_set(r, true, &c), -1);
	assert_non_null(strstr(c.why, "wrmsr MSR 1A4H: #GP"));
	assert_int_equal(pm.violations, 1);
}

static void test_parse(void **state)
{
	(void)state;
	assert_int_equal(prefetch_req_parse(NULL), PREFETCH_KEEP);
	assert_int_equal(prefetch_req_parse("off"), PREFETCH_OFF);
	assert_int_equal(prefetch_req_parse("on"), PREFETCH_ON);
	assert_int_equal(prefetch_req_parse("of"), PREFETCH_BAD);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_off_restore),
		cmocka_unit_test(test_already),
		cmocka_unit_test(test_gp),
		cmocka_unit_test(test_dropped),
		cmocka_unit_test(test_reserved),
		cmocka_unit_test(test_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
