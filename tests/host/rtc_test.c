/*
 * rtc_test.c: decoding the CMOS RTC's registers (kernel/rtc.h): BCD and binary, 24- and
 * 12-hour (12 AM, 12 PM, PM bit), the century, the ISO 8601 form, and an absent RTC (0xff
 * everywhere) or impossible dates refused with the reason.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/rtc.h"

static void regs(uint8_t r[RTC_NREGS], uint8_t y, uint8_t mo, uint8_t d, uint8_t h, uint8_t mi,
		 uint8_t s, uint8_t b)
{
	memset(r, 0, RTC_NREGS);
	r[RTC_YEAR] = y, r[RTC_MON] = mo, r[RTC_DAY] = d, r[RTC_HOUR] = h, r[RTC_MIN] = mi;
	r[RTC_SEC] = s, r[RTC_STATUS_B] = b;
}

static void test_decode(void **state)
{
	uint8_t r[RTC_NREGS];
	struct rtc_time t;
	const char *why = NULL;
	char b[24];

	(void)state;
	regs(r, 0x26, 0x11, 0x26, 0x02, 0x55, 0x01, 0x02);	/* BCD, 24 h */
	assert_true(rtc_decode(r, &t, &why));
	rtc_iso8601(&t, b, sizeof(b));
	assert_string_equal(b, "2026-11-26T02:55:01");
	regs(r, 26, 11, 26, 14, 5, 9, 0x06);			/* binary, 24 h */
	assert_true(rtc_decode(r, &t, &why));
	rtc_iso8601(&t, b, sizeof(b));
	assert_string_equal(b, "2026-11-26T14:05:09");
	regs(r, 0x99, 0x12, 0x31, 0x12, 0, 0, 0x00);		/* BCD, 12 h: 12 AM */
	assert_true(rtc_decode(r, &t, &why));
	assert_int_equal(t.hour, 0);
	assert_int_equal(t.year, 1999);
	regs(r, 0x26, 0x01, 0x01, 0x80 | 0x12, 0, 0, 0x00);	/* 12 PM */
	assert_true(rtc_decode(r, &t, &why));
	assert_int_equal(t.hour, 12);
	regs(r, 0x26, 0x01, 0x01, 0x80 | 0x03, 0, 0, 0x00);	/* 3 PM */
	assert_true(rtc_decode(r, &t, &why));
	assert_int_equal(t.hour, 15);
}

static void test_refused(void **state)
{
	uint8_t r[RTC_NREGS];
	struct rtc_time t;
	const char *why = NULL;

	(void)state;
	memset(r, 0xff, sizeof(r));				/* nothing at 0x70/0x71 */
	assert_false(rtc_decode(r, &t, &why));
	assert_non_null(strstr(why, "out of range"));
	regs(r, 0x26, 0x02, 0x30, 0x10, 0, 0, 0x02);		/* 30 February */
	assert_false(rtc_decode(r, &t, &why));
	regs(r, 0x26, 0x13, 0x01, 0x10, 0, 0, 0x02);		/* month 13 */
	assert_false(rtc_decode(r, &t, &why));
	regs(r, 0x26, 0x01, 0x01, 0x24, 0, 0, 0x02);		/* hour 24 */
	assert_false(rtc_decode(r, &t, &why));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests_name("rtc", tests, NULL, NULL);
}
