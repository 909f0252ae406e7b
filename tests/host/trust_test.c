/*
 * trust_test.c: the unknown-MSR probe (kernel/msr_platform.c), the per-test trust signals
 * (kernel/trust.c, kernel/trust_report.c) and the `exceptions` test's #GP checks
 * (ktests/exceptions.c), over the platform model (tests/model/platform_model.h): a platform
 * that swallows unknown MSRs is named and the #GP checks SKIP with that reason; SMIs,
 * throttle log bits, an APERF/MPERF drift and a machine check that happen during a test are
 * reported and spoil its timing, what happened before it is not; absent or faulting signals
 * are left out; a seeded hostile schedule is reported exactly as the model scheduled it.
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
#include "kernel/extable.h"
#include "kernel/ktap.h"
#include "kernel/msr_platform.h"
#include "kernel/trust.h"
#include "ktests/tests.h"
#include "kernel/console.h"
#include "tests/model/platform_model.h"
#include "tests/stubs/console_tap.h"
#include "tests/model/vclock.h"

#define WINDOW 1000000ull	/* the start window, TSC ticks */

/* The CPU's other fault sources, as the SDM says they behave (for ktests/exceptions.c):
 * UD2 #UD, a non-canonical read #GP, a read of page 0 (unmapped) #PF, a division by 0 #DE. */
int ud2_safe(void) { return 6; }
int div0_safe(void) { return EXTABLE_DE; }
int read64_safe(uint64_t addr, uint64_t *val)
{
	*val = 0;
	return addr >> 47 ? 13 : addr < 4096 ? 14 : 0;
}


static void boot(void)
{
	struct msr_platform p;

	cpu_probe(&cpu);
	msr_platform_probe_into(&p);
	msr_platform_set(&p);
	trust_init(WINDOW);
}

static int setup(void **state)
{
	(void)state;
	pm_reset();
	console_tap_reset();
	return 0;
}

static void test_probe_faults(void **state)
{
	(void)state;
	boot();
	assert_int_equal(msr_platform_get()->mode, MSRP_FAULTS);
	assert_null(msr_platform_swallows());
	char b[200];

	assert_false(msr_platform_header_line(b, sizeof(b)));
}

static void test_probe_swallows(void **state)
{
	char b[200];

	(void)state;
	pm.ignore_msrs = true;
	boot();
	assert_int_equal(msr_platform_get()->mode, MSRP_SWALLOWS);
	assert_non_null(strstr(msr_platform_swallows(), "do not #GP"));
	assert_non_null(strstr(msr_platform_swallows(), "writes dropped"));
	assert_true(msr_platform_header_line(b, sizeof(b)));
	assert_non_null(strstr(b, "platform: unknown MSRs do not #GP"));
	trust_header_line(b, sizeof(b));
	assert_non_null(strstr(b, "; unverified (MSRs do not #GP)"));
}

static enum kt_result run_exceptions(char *out, size_t n)
{
	static const struct ktest_desc d = { .name = "exceptions" };
	struct ktest t = { .desc = &d };
	enum kt_result r;

	console_tap_reset();
	ktap_detail_reset();	/* each run states its SKIP reasons afresh */
	ktap_test_start(&t, 1);
	r = test_exceptions(&t);
	ktap_result(&t, 1, r, NULL);
	strncpy(out, console_tap_text(), n - 1);
	out[n - 1] = 0;
	return r;
}

static void test_exceptions_gp(void **state)
{
	char out[4096];

	(void)state;
	pm.ignore_msrs = true;	/* a platform that swallows: the #GP checks SKIP, named */
	boot();
	assert_int_not_equal(run_exceptions(out, sizeof(out)), KT_FAIL);
	assert_non_null(strstr(out, "ok 2 gp_from_rdmsr_safe # SKIP unknown MSRs do not #GP"));
	/* log=brief: the same reason again is a reference (kernel/ktap_detail.h) */
	assert_non_null(strstr(out, "ok 3 gp_from_wrmsr_safe # SKIP same as "
			       "exceptions.gp_from_rdmsr_safe"));
	pm_reset();		/* as the SDM says: judged, and pass */
	boot();
	assert_int_equal(run_exceptions(out, sizeof(out)), KT_PASS);
	assert_non_null(strstr(out, "ok 2 gp_from_rdmsr_safe # vector 13"));
	assert_non_null(strstr(out, "ok 3 gp_from_wrmsr_safe # vector 13"));
}

static void test_clean(void **state)
{
	char b[200];

	(void)state;
	boot();
	trust_header_line(b, sizeof(b));
	assert_string_equal(b, "trust: SMI_COUNT 0, THERM 0x0, PKG_THERM 0x0, APERF/MPERF 1.00, "
			    "MCA 10 banks 0 VAL");
	trust_begin();
	vclock_advance(5 * WINDOW);
	assert_null(trust_spoiled());
	assert_false(trust_end(b, sizeof(b)));
	assert_false(trust_mce_final(b, sizeof(b)));
	assert_int_equal(pm.violations, 0);
}

static void test_smi(void **state)
{
	char b[200];

	(void)state;
	pm.smi_base = 1327;
	pm.smi_at[0] = 1;		/* before the run: part of the start count */
	pm.smi_at[1] = 10 * WINDOW;	/* during the test */
	pm.smi_at[2] = 10 * WINDOW + 5;
	pm.n_smi = 3;
	boot();
	trust_begin();
	assert_null(trust_spoiled());
	vclock_advance(10 * WINDOW);
	assert_string_equal(trust_spoiled(), "not trusted: 2 SMIs (MSR_SMI_COUNT) during this test");
	assert_true(trust_end(b, sizeof(b)));
	assert_string_equal(b, "trust: 2 SMIs (MSR_SMI_COUNT)");
	trust_begin();		/* the next test starts clean */
	assert_false(trust_end(b, sizeof(b)));
}

static void test_throttle(void **state)
{
	char b[200];

	(void)state;
	pm.therm_log = 1ull << 3;	/* logged before the run: cleared, not reported */
	pm.pkg_log = 1ull << 11;
	boot();
	trust_begin();
	assert_false(trust_end(b, sizeof(b)));
	pm.therm_at = vclock.now + WINDOW;
	pm.therm_bits = (1ull << 1) | (1ull << 7);	/* thermal log + a threshold crossing */
	pm.pkg_at = vclock.now + WINDOW;
	pm.pkg_bits = 1ull << 11;			/* power limitation */
	trust_begin();
	vclock_advance(2 * WINDOW);
	assert_true(trust_end(b, sizeof(b)));
	assert_string_equal(b, "trust: throttled (IA32_THERM_STATUS log 0x2); throttled "
			    "(IA32_PACKAGE_THERM_STATUS log 0x800)");
	trust_begin();		/* cleared at the start of the next test (R/WC0) */
	assert_false(trust_end(b, sizeof(b)));
	assert_int_equal(pm.violations, 0);
}

static void test_clock_drift(void **state)
{
	char b[200];

	(void)state;
	pm.ratio_pct = 120;	/* turbo at the start */
	boot();
	trust_header_line(b, sizeof(b));
	assert_non_null(strstr(b, "APERF/MPERF 1.20"));
	pm.drift_at = vclock.now;
	pm.drift_pct = 113;	/* 94% of the start: within the tolerance */
	trust_begin();
	vclock_advance(10 * WINDOW);
	assert_false(trust_end(b, sizeof(b)));
	pm.drift_at = vclock.now;
	pm.drift_pct = 84;	/* 70% of the start */
	trust_begin();
	vclock_advance(10 * WINDOW);
	assert_non_null(trust_spoiled());
	assert_true(trust_end(b, sizeof(b)));
	assert_string_equal(b, "trust: core clock 70% of the run's start (APERF/MPERF)");
}

static void test_mce(void **state)
{
	char b[200];

	(void)state;
	pm.mc_status[2] = MCI_STATUS_VAL | 0x0005;	/* firmware left it */
	pm.mce_at = 3 * WINDOW;
	pm.mce_bank = 7;
	pm.mce_status = MCI_STATUS_VAL | (1ull << 61) | 0x0150;
	boot();
	trust_header_line(b, sizeof(b));
	assert_non_null(strstr(b, "MCA 10 banks 1 VAL"));
	vclock_advance(3 * WINDOW);
	assert_true(trust_mce_final(b, sizeof(b)));
	assert_string_equal(b, "trust: machine check: IA32_MC2_STATUS 0x8000000000000005 (at "
			    "start), IA32_MC7_STATUS 0xa000000000000150 UC");
}

static void test_absent_and_faulting(void **state)
{
	char b[200];

	(void)state;
	pm.has_aperf = pm.has_mca = false;	/* CPUID says they are not there */
	pm_cpuid();
	pm.has_smi = false;	/* 06_5EH is in the SMI_COUNT table, but the MSR #GPs */
	pm.has_pkg_therm = false;		/* CPUID.06H:EAX[6] set, the MSR #GPs */
	boot();
	trust_header_line(b, sizeof(b));
	assert_string_equal(b, "trust: SMI_COUNT #GP, THERM 0x0, PKG_THERM #GP, APERF/MPERF n/a, "
			    "MCA 0 banks 0 VAL");
	pm.smi_at[0] = vclock.now + 1;
	pm.n_smi = 1;
	pm.pkg_at = vclock.now + 1;
	pm.pkg_bits = 2;
	trust_begin();
	vclock_advance(WINDOW);
	assert_false(trust_end(b, sizeof(b)));	/* a faulting signal is never read again */
}

static void test_other_cpu(void **state)
{
	char b[200];

	(void)state;
	boot();
	trust_begin();
	pm.apic_id = 3;		/* the check runs on another CPU: its counters are not ours */
	pm_cpuid();
	pm.smi_at[0] = vclock.now + 1;
	pm.n_smi = 1;
	vclock_advance(WINDOW);
	assert_null(trust_spoiled());
	assert_false(trust_end(b, sizeof(b)));
}

/* A seeded hostile schedule inside one test's window: the `trust:` line says exactly what the
 * model scheduled (every SMI, the throttle bits, a clock well outside the tolerance), and the
 * end-of-run scan finds the machine check. */
/* 200 seeds with PMI_SWEEP_ALL=1 (make test, make soak), 48 without */
static void test_seeded(void **state)
{
	const char *all = getenv("PMI_SWEEP_ALL");
	uint64_t last = all && *all == '1' ? 200 : 48;

	(void)state;
	for (uint64_t seed = 1; seed <= last; seed++) {
		char b[200], want[200] = "trust: ";
		uint64_t t0, t1, span, pct;

		pm_reset();
		boot();
		trust_begin();
		t0 = vclock.now + 1000;
		t1 = t0 + 20 * WINDOW;
		span = t1 - t0;
		pm_seed(seed, t0, t1);
		vclock.now = t1;
		bool moved = trust_end(b, sizeof(b));

		if (pm.n_smi)
			snprintf(want + strlen(want), sizeof(want) - strlen(want), "%u SMI%s "
				 "(MSR_SMI_COUNT)", pm.n_smi, pm.n_smi == 1 ? "" : "s");
		if (pm.therm_bits)
			snprintf(want + strlen(want), sizeof(want) - strlen(want), "%sthrottled "
				 "(IA32_THERM_STATUS log 0x%llx)", pm.n_smi ? "; " : "",
				 (unsigned long long)pm.therm_bits);
		pct = pm.drift_at ? ((pm.drift_at - t0) * 100 + (t1 - pm.drift_at) *
				     pm.drift_pct) / span : 100;
		if (pct < 88 || pct > 92) {	/* away from the tolerance's edge */
			if (pct < 90)
				assert_non_null(strstr(b, "core clock"));
			else
				assert_null(strstr(b, "core clock"));
		}
		assert_int_equal(strncmp(b, want, strlen(want)), 0);
		assert_true(moved == (pm.n_smi || pm.therm_bits || strstr(b, "core clock")));
		assert_int_equal(pm.violations, 0);
		assert_int_equal(trust_mce_final(b, sizeof(b)), pm.mce_at != 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_probe_faults, setup),
		cmocka_unit_test_setup(test_probe_swallows, setup),
		cmocka_unit_test_setup(test_exceptions_gp, setup),
		cmocka_unit_test_setup(test_clean, setup),
		cmocka_unit_test_setup(test_smi, setup),
		cmocka_unit_test_setup(test_throttle, setup),
		cmocka_unit_test_setup(test_clock_drift, setup),
		cmocka_unit_test_setup(test_mce, setup),
		cmocka_unit_test_setup(test_absent_and_faulting, setup),
		cmocka_unit_test_setup(test_other_cpu, setup),
		cmocka_unit_test_setup(test_seeded, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
