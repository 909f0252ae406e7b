/*
 * tsc_test.c: the TSC frequency source order of kernel/tsc.c against a port model of the
 * 8254 channel 2 behind port 0x61 (OUT2 in bit 5) on the virtual TSC (tests/model/vclock.h):
 * a board without an 8254 (port 0x61 reads 0xff, as on UEFI-only boards and QEMU -machine
 * pit=off) and one whose 8254 is gated (OUT2 never rises) must fall back to CPUID 16H or the
 * assumed 1 GHz, never report a "PIT calibration" of a few kHz, and give up on the bound the
 * code states; a working PIT gives the model's TSC frequency exactly (plus the cost of one
 * read), also when an interruption lengthens one window (the shortest of five is kept).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cpu.h"
#include "kernel/tsc.h"
#include "model/vclock.h"
#include "tests/host/fake_cpuid.h"

/* The modelled TSC runs at 2000 ticks per PIT tick (PIT: 1193182 Hz), and a TSC read takes
 * STEP ticks. A window of 11931 PIT ticks (the code's 10 ms count) is WINDOW TSC ticks. */
#define PIT_HZ   1193182ull
#define TSC_HZ   (2000 * PIT_HZ)
#define STEP     1000ull
#define WINDOW   (11931 * 2000ull)

enum pit_kind { PIT_ABSENT, PIT_GATED, PIT_WORKS };
static enum pit_kind pit;
static unsigned ch2_bytes;	/* count bytes written since the control word (lo, then hi) */
static uint64_t armed_at;	/* virtual TSC when the high byte started the count */
static uint64_t late_poll;	/* ticks between the first OUT2-high poll and the next TSC read */
static uint64_t late_start;	/* ticks between the start read and the high-byte write */

uint8_t inb(uint16_t port)
{
	if (port != 0x61 || pit == PIT_ABSENT)
		return 0xff;
	if (pit == PIT_WORKS && ch2_bytes == 2 && vclock.now - armed_at >= WINDOW) {
		if (late_poll) {
			vclock_script(&late_poll, 1);
			late_poll = 0;
		}
		return 0x21;
	}
	return 0x01;	/* mode 0: OUT2 low from the control word until terminal count */
}

void outb(uint16_t port, uint8_t v)
{
	(void)v;
	if (port == 0x43)
		ch2_bytes = 0;
	if (port == 0x42 && ++ch2_bytes == 2) {
		vclock_advance(late_start);
		late_start = 0;
		armed_at = vclock.now;
	}
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
	vclock_reset(0, STEP);
	late_poll = late_start = 0;
	ch2_bytes = 0;
}

static void test_no_pit_uses_16h(void **state)
{
	(void)state;
	intel_with_16h(true);
	pit = PIT_ABSENT;
	tsc_init();
	assert_string_equal(tsc_source, "CPUID.16H base frequency");
	assert_int_equal(tsc_hz, 3600000000ull);
	assert_int_equal(vclock.reads, 1);	/* OUT2 high at once: no 8254, no waiting */
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

/* OUT2 never rises: the wait ends on the first read more than 2^30 ticks after the start,
 * 1073742 reads of 1000 ticks later (plus the start read). */
static void test_gated_pit_gives_up(void **state)
{
	(void)state;
	intel_with_16h(true);
	pit = PIT_GATED;
	tsc_init();
	assert_string_equal(tsc_source, "CPUID.16H base frequency");
	assert_int_equal(vclock.reads, 1 + 1073742);
}

/* A TSC that does not move cannot hang the wait either: it ends on the poll count, 2e7
 * polls, with a read after every poll but the last. */
static void test_gated_pit_stopped_tsc(void **state)
{
	(void)state;
	intel_with_16h(true);
	vclock_reset(0, 0);
	pit = PIT_GATED;
	tsc_init();
	assert_string_equal(tsc_source, "CPUID.16H base frequency");
	assert_int_equal(vclock.reads, 20000000);
}

/* Each window: the start read, the high byte at that time, OUT2 seen high at the first poll
 * WINDOW ticks later and the end read one step after that: WINDOW + STEP ticks (the end
 * read's own cost is measured too, as on hardware) over 11931 PIT ticks. Five windows of
 * 1 + WINDOW / STEP + 1 reads. */
#define MEASURED_HZ ((WINDOW + STEP) * PIT_HZ / 11931)

static void test_working_pit_used(void **state)
{
	(void)state;
	intel_with_16h(true);
	pit = PIT_WORKS;
	tsc_init();
	assert_string_equal(tsc_source, "PIT calibration");
	assert_int_equal(tsc_hz, MEASURED_HZ);
	assert_int_equal(tsc_hz, 2386464006ull);	/* TSC_HZ + 42 ppm, the read's step */
	assert_int_equal(vclock.reads, 5 * (WINDOW / STEP + 2));
}

/* One interruption of 5e6 ticks at `where` (it fires once, then reads 0) lengthens the first
 * window only; the shortest window wins. */
static void one_window_lengthened(uint64_t *where)
{
	intel_with_16h(true);
	pit = PIT_WORKS;
	*where = 5000000;
	tsc_init();
	assert_string_equal(tsc_source, "PIT calibration");
	assert_int_equal(*where, 0);		/* it happened */
	assert_int_equal(tsc_hz, MEASURED_HZ);
}

/* after OUT2 rose and before the end read */
static void test_working_pit_late_poll(void **state)
{
	(void)state;
	one_window_lengthened(&late_poll);
}

/* between the start read and the high-byte write (this one would shorten the window if the
 * start were read after the write) */
static void test_working_pit_late_start(void **state)
{
	(void)state;
	one_window_lengthened(&late_start);
}

/* kmain's first TSC reading as time since reset: exact ms, the bound, no rate. */
static void test_ms_since_reset(void **state)
{
	(void)state;
	tsc_hz = 0;
	assert_int_equal(tsc_ms_since_reset(12345), -1);
	tsc_hz = 2400000000ull;
	assert_int_equal(tsc_ms_since_reset(0), 0);
	assert_int_equal(tsc_ms_since_reset(1761600000ull), 734);	/* SeaBIOS + GRUB, TCG */
	assert_int_equal(tsc_ms_since_reset(2399999ull), 0);
	assert_int_equal(tsc_ms_since_reset(2400000ull), 1);
	assert_int_equal(tsc_ms_since_reset(TSC_SINCE_RESET_MAX_MS * 2400000ull),
			 (int64_t)TSC_SINCE_RESET_MAX_MS);
	assert_int_equal(tsc_ms_since_reset((TSC_SINCE_RESET_MAX_MS + 1) * 2400000ull), -1);
	assert_int_equal(tsc_ms_since_reset(UINT64_MAX), -1);	/* no overflow into a small value */
	tsc_hz = 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_pit_uses_16h),
		cmocka_unit_test(test_no_pit_no_16h_assumes),
		cmocka_unit_test(test_gated_pit_gives_up),
		cmocka_unit_test(test_gated_pit_stopped_tsc),
		cmocka_unit_test(test_working_pit_used),
		cmocka_unit_test(test_working_pit_late_poll),
		cmocka_unit_test(test_working_pit_late_start),
		cmocka_unit_test(test_ms_since_reset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
