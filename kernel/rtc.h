/*
 * rtc.h: the date and time from the PC's real-time clock (the MC146818-compatible CMOS RTC
 * behind I/O ports 0x70/0x71: registers 0x00 seconds, 0x02 minutes, 0x04 hours, 0x07 day,
 * 0x08 month, 0x09 year, status A 0x0A bit 7 "update in progress", status B 0x0B bit 1
 * 24-hour mode, bit 2 binary (else BCD); 12-hour mode sets bit 7 of the hours for PM). The
 * clock may hold local time or UTC, as the machine's owner set it; the century comes from
 * the two-digit year (00-69: 20xx). Used for the run identity (`# run:`). Decoding is pure.
 */
#ifndef KERNEL_RTC_H
#define KERNEL_RTC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { RTC_SEC = 0, RTC_MIN = 2, RTC_HOUR = 4, RTC_DAY = 7, RTC_MON = 8, RTC_YEAR = 9,
       RTC_STATUS_A = 0x0a, RTC_STATUS_B = 0x0b, RTC_NREGS = 0x0c };

struct rtc_time {
	unsigned year, mon, day, hour, min, sec;
};

/* Registers 0..0x0b as read -> a checked date; false with *why when a field is out of range
 * (an absent RTC reads 0xff everywhere). */
bool rtc_decode(const uint8_t r[RTC_NREGS], struct rtc_time *t, const char **why);
/* "2026-11-26T02:55:01" into b. */
int rtc_iso8601(const struct rtc_time *t, char *b, size_t n);
/* Read the RTC (waits for no update in progress, bounded; reads until two reads agree). */
bool rtc_read(struct rtc_time *t, const char **why);

#endif
