/*
 * tsc_test.c: the TSC frequency source order of kernel/tsc.c against a port model of the
 * 8254 channel 2 behind port 0x61 (OUT2 in bit 5): a board without an 8254 (port 0x61
 * reads 0xff, as on UEFI-only boards and QEMU -machine pit=off) and one whose 8254 is
 * gated (OUT2 never rises) must fall back to CPUID 16H or the assumed 1 GHz, never report
 * a "PIT calibration" of a few kHz; a working PIT is still used. The host's own TSC runs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cpu.h"
#include "kernel/tsc.h"
#include "tests/host/fake_cpuid.h"

enum pit_kind { PIT_ABSENT, PIT_GATED, PIT_WORKS };
static enum pit_kind pit;
static uint64_t armed_at;	/* TSC when the count was written */

uint8_t inb(uint16_t port)
{
	if (port != 0x61 || pit == PIT_ABSENT)
		return 0xff;
	if (pit == PIT_WORKS && rdtsc() - armed_at > 10000000)	/* ~10 ms at a few GHz */
		return 0x21;
	return 0x01;
}

void outb(uint16_t port, uint8_t v)
{
	(void)v;
	if (port == 0x42)
		armed_at = rdtsc();
}

static void intel_with_16h(bool leaf16)
{
	fake_cpuid_clear();
	fake_cpuid_set(0, 0, leaf16 ? 0x16 : 0x15, 0x756e6547, 0x6c65746e, 0x49656e69);
	fake_cpuid_set(1, 0, 0x000906ea, 0, 0, 0);
	fake_cpuid_set(0x15, 0, 2, 200, 0, 0);		/* crystal frequency not given */
	if (leaf16)
		fake_cpuid_set(0x16, 0, 3600, 4700, 100, 0);
	cpu_probe(&cpu);
	tsc_hz = 0;
}

static void test_no_pit_uses_16h(void **state)
{
	(void)state;
	intel_with_16h(true);
	pit = PIT_ABSENT;
	tsc_init();
	assert_string_equal(tsc_source, "CPUID.16H base frequency");
	assert_int_equal(tsc_hz, 3600000000ull);
}

static void test_no_pit_no_16h_assumes(void **state)
{
	(void)state;
	intel_with_16h(false);
	pit = PIT_ABSENT;
	tsc_init();
	assert_int_equal(tsc_hz, 1000000000ull);
	assert_non_null(strstr(tsc_source, "assumed"));
}

static void test_gated_pit_gives_up(void **state)
{
	(void)state;
	intel_with_16h(true);
	pit = PIT_GATED;
	tsc_init();
	assert_string_equal(tsc_source, "CPUID.16H base frequency");
}

static void test_working_pit_used(void **state)
{
	(void)state;
	intel_with_16h(true);
	pit = PIT_WORKS;
	tsc_init();
	assert_string_equal(tsc_source, "PIT calibration");
	assert_true(tsc_hz > 100000000ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_pit_uses_16h),
		cmocka_unit_test(test_no_pit_no_16h_assumes),
		cmocka_unit_test(test_gated_pit_gives_up),
		cmocka_unit_test(test_working_pit_used),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
