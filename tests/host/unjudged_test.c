/*
 * unjudged_test.c: why a test's timing verdicts SKIP (loads/unjudged.c timing_unjudged, what
 * loads/kload.c kload_timing_unjudgeable returns in the kernel), from CPUID through the timing
 * plan (kernel/cpu.c, kernel/hypervisor.c, loads/timing.c, glued as kload_timing glues them)
 * and the trust signals of the running test (kernel/trust.c over the platform model,
 * tests/model/platform_model.h: SMIs, throttle log bits, an APERF/MPERF drift, each at a
 * time on the virtual clock). Each reason alone gives its own text; the run's reasons
 * (software emulation, no invariant TSC, timing=brief) win over the test's and the trust MSRs
 * are then not read at all (the kernel's behaviour: a run under TCG never reads them per
 * test); nothing gives NULL. Without the trust hook every trust case fails.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cpu.h"
#include "kernel/msr_platform.h"
#include "kernel/trust.h"
#include "loads/timing.h"
#include "loads/unjudged.h"
#include "tests/host/fake_cpuid.h"
#include "tests/model/platform_model.h"
#include "tests/model/vclock.h"

#define WINDOW 1000000ull	/* trust_init's start window, TSC ticks */

static const char emu[] = "software emulation (hypervisor \"TCGTCGTCGTCG\"): no cache timing "
			  "to judge";
static const char noinv[] = "no invariant TSC (CPUID.80000007H:EDX[8] clear): TSC ticks are "
			    "not a fixed unit of time";
static const char brief[] = "timing=brief: short budgets, timing not judged";

/* What the platform model's CPU says beyond pm_cpuid's rows: CPUID.80000007H:EDX[8]
 * (invariant TSC, SDM Vol. 3B 18.17.1) and a hypervisor (CPUID.01H:ECX[31], the signature in
 * CPUID 40000000H EBX ECX EDX). */
static void cpu_is(bool invariant, const char *hv_sig12)
{
	struct cpuid_regs r;

	pm_cpuid();
	fake_cpuid_set(0x80000007, 0, 0, 0, 0, invariant ? 1u << 8 : 0);
	if (hv_sig12) {
		uint32_t s[3];

		cpuid_count(1, 0, &r);
		fake_cpuid_set(1, 0, r.eax, r.ebx, r.ecx | 1u << 31, r.edx);
		memcpy(s, hv_sig12, 12);
		fake_cpuid_set(0x40000000, 0, 0x40000001, s[0], s[1], s[2]);
	}
}

/* The boot (kernel/cpu.c, msr_platform, trust_init) and the plan as loads/kload.c
 * kload_timing makes it; then a test begins (trust_begin, as ktests/run.c does). */
static void boot(struct timing_plan *p, const char *timing_opt)
{
	struct msr_platform mp;
	struct timing_facts f;

	cpu_probe(&cpu);
	msr_platform_probe_into(&mp);
	msr_platform_set(&mp);
	trust_init(WINDOW);
	f = (struct timing_facts){ .emulated = cpu_timing_unjudgeable(&cpu),
				   .invariant_tsc = cpu.invariant_tsc,
				   .opt = timing_opt_parse(timing_opt) };
	timing_decide(&f, p);
	trust_begin();
}

/* timing_unjudged(p) is `want` (a failure, not a crash, when it is NULL). */
static void says(const struct timing_plan *p, const char *want)
{
	const char *got = timing_unjudged(p);

	assert_non_null(got);
	assert_string_equal(got, want);
}

static int setup(void **state)
{
	(void)state;
	pm_reset();
	return 0;
}

/* Nothing wrong: judged, NULL, and again after time passes. */
static void test_none(void **state)
{
	struct timing_plan p;

	(void)state;
	cpu_is(true, NULL);
	boot(&p, NULL);
	assert_null(timing_unjudged(&p));
	vclock_advance(10 * WINDOW);
	assert_null(timing_unjudged(&p));
	assert_int_equal(pm.violations, 0);
}

/* The run's reasons alone, each its own text. */
static void test_run_reasons(void **state)
{
	struct timing_plan p;

	(void)state;
	cpu_is(true, "TCGTCGTCGTCG");
	boot(&p, NULL);
	says(&p, emu);
	cpu_is(true, "TCGTCGTCGTCG");
	boot(&p, "full");		/* a full budget under TCG: still not judged */
	says(&p, emu);
	cpu_is(true, "KVMKVMKVM\0\0\0");	/* hardware virtualisation: judged */
	boot(&p, NULL);
	assert_null(timing_unjudged(&p));
	cpu_is(false, NULL);
	boot(&p, NULL);
	says(&p, noinv);
	cpu_is(true, NULL);
	boot(&p, "brief");
	says(&p, brief);
	cpu_is(false, "TCGTCGTCGTCG");	/* both: emulation is named */
	boot(&p, NULL);
	says(&p, emu);
}

/* Each trust signal alone during the test, on a judged run: its text. */
static void test_trust_reasons(void **state)
{
	struct timing_plan p;
	static const struct {
		const char *what;
		const char *want;
	} rows[] = {
		{ "smi1", "not trusted: 1 SMI (MSR_SMI_COUNT) during this test" },
		{ "smi2", "not trusted: 2 SMIs (MSR_SMI_COUNT) during this test" },
		{ "therm", "not trusted: throttled (IA32_THERM_STATUS log 0x8) during this test" },
		{ "pkg", "not trusted: throttled (IA32_PACKAGE_THERM_STATUS log 0x800) during this "
			 "test" },
		{ "clock", "not trusted: core clock 70% of the run's start (APERF/MPERF) during "
			   "this test" },
		{ "all", "not trusted: 1 SMI (MSR_SMI_COUNT); throttled (IA32_THERM_STATUS log "
			 "0x2); throttled (IA32_PACKAGE_THERM_STATUS log 0x2); core clock 50% of "
			 "the run's start (APERF/MPERF) during this test" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *w = rows[i].what;
		uint64_t at;

		pm_reset();
		cpu_is(true, NULL);
		boot(&p, NULL);
		assert_null(timing_unjudged(&p));	/* nothing yet */
		at = vclock.now + WINDOW;
		if (!strcmp(w, "smi1") || !strcmp(w, "all"))
			pm.smi_at[pm.n_smi++] = at;
		if (!strcmp(w, "smi2"))
			pm.smi_at[pm.n_smi++] = at, pm.smi_at[pm.n_smi++] = at + 5;
		if (!strcmp(w, "therm") || !strcmp(w, "all"))
			pm.therm_at = at, pm.therm_bits = !strcmp(w, "all") ? 1u << 1 : 1u << 3;
		if (!strcmp(w, "pkg") || !strcmp(w, "all"))
			pm.pkg_at = at, pm.pkg_bits = !strcmp(w, "all") ? 1u << 1 : 1u << 11;
		if (!strcmp(w, "clock") || !strcmp(w, "all"))
			pm.drift_at = vclock.now, pm.drift_pct = !strcmp(w, "all") ? 50 : 70;
		vclock_advance(10 * WINDOW);
		says(&p, rows[i].want);
		/* the next test starts clean (ktests/run.c: trust_end, trust_begin) */
		trust_begin();
		assert_null(timing_unjudged(&p));
	}
}

/* Both at once: the run's reason wins, and the trust MSRs are not read for it. */
static void test_priority(void **state)
{
	struct timing_plan p;
	const char *opts[] = { NULL, NULL, "brief" };
	const bool inv[] = { true, false, true };
	const char *hv[] = { "TCGTCGTCGTCG", NULL, NULL };
	const char *want[] = { emu, noinv, brief };

	(void)state;
	for (unsigned i = 0; i < 3; i++) {
		unsigned reads;

		pm_reset();
		cpu_is(inv[i], hv[i]);
		boot(&p, opts[i]);
		pm.smi_at[pm.n_smi++] = vclock.now + 1;
		pm.therm_at = vclock.now + 1;
		pm.therm_bits = 1u << 1;
		vclock_advance(WINDOW);
		reads = pm.reads;
		says(&p, want[i]);
		assert_int_equal(pm.reads, reads);
		assert_non_null(trust_spoiled());	/* the test was spoiled: not named */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_none, setup),
		cmocka_unit_test_setup(test_run_reasons, setup),
		cmocka_unit_test_setup(test_trust_reasons, setup),
		cmocka_unit_test_setup(test_priority, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
