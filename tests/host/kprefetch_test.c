/*
 * kprefetch_test.c: `prefetch=off` for one test on every CPU it uses (loads/kprefetch.c) and
 * the runner's undo (kernel/ktap_undo.c) on the platform model's MSR 1A4H
 * (tests/model/platform_model.c), one value per CPU: MSR_MISC_FEATURE_CONTROL is per core
 * (Intel's "Disclosure of H/W prefetcher control on some Intel processors"), so this file's
 * smp_call swaps each CPU's value into the model around the function it runs there. Hostile
 * knob: `gone` - a CPU that stops answering (smp_call times out, nothing runs there; SDM
 * Vol. 3A 9.4: an AP may not answer). Checked: a test abandoned between kprefetch_begin and
 * kprefetch_end (the watchdog's or an exception's jump back to ktests/run.c) still has every
 * CPU's MSR put back by the runner, with one line saying so; a test that ends normally is
 * restored once, not twice; a CPU gone mid-test is counted as not restored and nothing waits
 * without a bound.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cmdline.h"
#include "tests/stubs/console_tap.h"
#include "kernel/cpu.h"
#include "kernel/ktap.h"
#include "kernel/ktap_undo.h"
#include "kernel/mm.h"
#include "loads/kprefetch.h"
#include "smp/smp.h"
#include "tests/model/platform_model.h"
#include "tests/stubs/kalloc_arena.h"

#define NCPU 4

struct cpu_info cpu = { .vendor = VENDOR_INTEL, .family = 6, .model = 0x55 };
struct cmdline kcmdline;
static struct percpu pcs[NCPU];
static uint64_t msr[NCPU];		/* each CPU's MSR 1A4H */
static bool gone[NCPU];			/* hostile knob: this CPU stops answering */
static unsigned calls;

/* --- the seams kprefetch.c uses: memory, the CPUs, cross-CPU calls --- */
unsigned smp_cpu_count(void)
{
	return NCPU;
}

struct percpu *smp_cpu(unsigned i)
{
	return i < NCPU ? &pcs[i] : NULL;
}

/* fn on "CPU i": that CPU's MSR in the model while it runs (the boot CPU's otherwise). */
static void on(unsigned i, smp_fn fn, void *arg)
{
	uint64_t boot = pm.pf_val;

	pm.pf_val = msr[i];
	fn(arg);
	msr[i] = pm.pf_val;
	pm.pf_val = boot;
}

int smp_call(unsigned i, smp_fn fn, void *arg, uint32_t timeout_ms)
{
	assert_true(i > 0 && i < NCPU);
	assert_true(timeout_ms > 0 && timeout_ms <= 10000);	/* every wait bounded */
	calls++;
	if (gone[i])
		return SMP_CALL_TIMEOUT;
	on(i, fn, arg);
	return SMP_CALL_DONE;
}

static const struct ktest_desc desc = { .name = "load_loaded", .needs = NEED_NONE };

static bool every(unsigned i)
{
	(void)i;
	return true;
}

static int setup(void **state)
{
	static const char line[] = "prefetch=off";

	(void)state;
	console_tap_reset();
	log_set_full(true);
	kcmdline = (struct cmdline){ 0 };
	cmdline_parse(&kcmdline, line, sizeof(line) - 1, NULL, NULL);
	pm_reset();
	pm.pf_msr = 0x1a4;
	pm.pf_rw = 0xf;			/* SDM Vol. 4 MSR 1A4H: bits 63:4 reserved */
	for (unsigned i = 0; i < NCPU; i++) {
		pcs[i] = (struct percpu){ .state = CPU_ONLINE };
		msr[i] = i == 2 ? 0x2 : 0;	/* firmware left cpu2's adjacent-line one off */
		gone[i] = false;
	}
	pm.pf_val = msr[0];
	calls = 0;
	kt_undo_run();			/* nothing left from a test before */
	return 0;
}

/* The CPUs' MSRs (the boot CPU's is the model's own). */
static uint64_t val(unsigned i)
{
	return i ? msr[i] : pm.pf_val;
}

static void test_abandoned(void **state)
{
	struct ktest t = { .desc = &desc };

	(void)state;
	ktap_test_start(&t, 1);
	kprefetch_begin(&t, "load_loaded", every);
	for (unsigned i = 0; i < NCPU; i++)
		assert_int_equal(val(i), 0xf);
	/* the watchdog fires here: the test never reaches kprefetch_end; the runner undoes */
	assert_int_equal(kt_undo_run(), 1);
	assert_int_equal(val(0), 0);
	assert_int_equal(val(1), 0);
	assert_int_equal(val(2), 0x2);		/* what the CPU had, not 0 */
	assert_int_equal(val(3), 0);
	ktap_result(&t, 1, KT_FAIL, "TIMEOUT");	/* the held block out */
	assert_non_null(strstr(console_tap_text(), "load_loaded: prefetch restored by the runner (the test did "
				    "not): 4 of 4 CPUs back to what they had"));
	assert_int_equal(pm.gp, 0);
	assert_int_equal(pm.violations, 0);
}

static void test_normal_end(void **state)
{
	struct ktest t = { .desc = &desc };
	unsigned w;

	(void)state;
	ktap_test_start(&t, 1);
	kprefetch_begin(&t, "load_loaded", every);
	kprefetch_end(&t, "load_loaded");
	assert_int_equal(val(0), 0);
	assert_int_equal(val(2), 0x2);
	assert_false(t.failed);
	w = pm.writes;
	assert_int_equal(kt_undo_run(), 0);	/* restored once, not twice */
	assert_int_equal(pm.writes, w);
	ktap_result(&t, 1, KT_PASS, NULL);
	assert_null(strstr(console_tap_text(), "by the runner"));
}

static void test_cpu_gone(void **state)
{
	struct ktest t = { .desc = &desc };

	(void)state;
	ktap_test_start(&t, 1);
	kprefetch_begin(&t, "load_loaded", every);
	gone[3] = true;				/* stops answering mid-test */
	kprefetch_end(&t, "load_loaded");
	assert_true(t.failed);
	ktap_result(&t, 1, KT_FAIL, NULL);
	assert_non_null(strstr(console_tap_text(), "prefetch_restored # load_loaded: 3 of 4 CPUs back"));
	assert_int_equal(val(1), 0);
	assert_int_equal(msr[3], 0xf);		/* cannot be reached: said, not hidden */
	assert_int_equal(calls, 3 + 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_abandoned, setup),
		cmocka_unit_test_setup(test_normal_end, setup),
		cmocka_unit_test_setup(test_cpu_gone, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
