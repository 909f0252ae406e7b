/*
 * rtc.c: reading and decoding the CMOS real-time clock (rtc.h). The registers and status
 * bits are the MC146818's, which every PC chipset keeps at ports 0x70 (index; bit 7 is the
 * NMI mask on old chipsets, left clear) and 0x71 (data).
 */
#include "kernel/rtc.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"

#define RTC_UIP		0x80	/* status A: update in progress */
#define RTC_24H		0x02	/* status B */
#define RTC_BINARY	0x04
#define RTC_PM		0x80	/* hours in 12-hour mode */
#define RTC_TRIES	100000u	/* bound on the update-in-progress wait (one update < 2 ms) */

static unsigned bcd(uint8_t v, bool binary)
{
	return binary ? v : (unsigned)(v >> 4) * 10 + (v & 0x0f);
}

bool rtc_decode(const uint8_t r[RTC_NREGS], struct rtc_time *t, const char **why)
{
	static const uint8_t mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	bool bin = r[RTC_STATUS_B] & RTC_BINARY;
	unsigned h = bcd(r[RTC_HOUR] & 0x7f, bin);

	if (!(r[RTC_STATUS_B] & RTC_24H)) {	/* 12-hour: 12 AM is 0, 12 PM is 12 */
		h %= 12;
		if (r[RTC_HOUR] & RTC_PM)
			h += 12;
	}
	*t = (struct rtc_time){ .sec = bcd(r[RTC_SEC], bin), .min = bcd(r[RTC_MIN], bin),
				.hour = h, .day = bcd(r[RTC_DAY], bin), .mon = bcd(r[RTC_MON], bin),
				.year = bcd(r[RTC_YEAR], bin) };
	if (t->year > 99 || t->mon < 1 || t->mon > 12 || t->day < 1 || t->day > mdays[t->mon - 1] ||
	    t->hour > 23 || t->min > 59 || t->sec > 59) {
		*why = "RTC fields out of range (no RTC, or not set)";
		return false;
	}
	t->year += t->year < 70 ? 2000 : 1900;
	return true;
}

int rtc_iso8601(const struct rtc_time *t, char *b, size_t n)
{
	return fmt_snprintf(b, n, "%04u-%02u-%02uT%02u:%02u:%02u", t->year, t->mon, t->day,
			    t->hour, t->min, t->sec);
}

static uint8_t reg(uint8_t i)
{
	outb(0x70, i);
	return inb(0x71);
}

static bool snapshot(uint8_t r[RTC_NREGS])
{
	unsigned n = 0;

	while (reg(RTC_STATUS_A) & RTC_UIP)
		if (++n == RTC_TRIES)
			return false;
	for (uint8_t i = 0; i < RTC_NREGS; i++)
		r[i] = reg(i);
	return true;
}

bool rtc_read(struct rtc_time *t, const char **why)
{
	uint8_t a[RTC_NREGS], b[RTC_NREGS];

	for (int tries = 0; tries < 5; tries++) {
		if (!snapshot(a) || !snapshot(b)) {
			*why = "RTC update-in-progress never cleared";
			return false;
		}
		if (a[RTC_SEC] == b[RTC_SEC] && a[RTC_MIN] == b[RTC_MIN] &&
		    a[RTC_HOUR] == b[RTC_HOUR] && a[RTC_DAY] == b[RTC_DAY] &&
		    a[RTC_MON] == b[RTC_MON] && a[RTC_YEAR] == b[RTC_YEAR])
			return rtc_decode(b, t, why);
	}
	*why = "RTC kept changing while read";
	return false;
}
