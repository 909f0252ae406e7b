/*
 * tsc.c: the TSC frequency (SDM Vol. 3B 18.17; CPUID leaf 15H "Time Stamp Counter and Nominal
 * Core Crystal Clock", leaf 16H). Order: CPUID 15H when it gives the crystal frequency, else
 * a calibration against PIT channel 2 (8254: 1.193182 MHz, gated through port 0x61), else the
 * CPUID 16H base frequency, else an assumed 1 GHz that the header says is assumed.
 */
#include "kernel/tsc.h"
#include "kernel/cpu.h"
#include "kernel/hw.h"

uint64_t tsc_hz;
const char *tsc_source = "none";

#define PIT_HZ        1193182ull
#define PIT_MS        10ull
#define PIT_CH2       0x42
#define PIT_CMD       0x43
#define PORT_B        0x61
#define PIT_SPIN_MAX  20000000u	/* bounded wait: a board without a gated PIT cannot hang */
#define PIT_TSC_MAX   (1ull << 30)	/* and bounded in time: 10 ms is < 2^27 ticks below 13 GHz */
#define TSC_HZ_MIN    100000000ull	/* a PIT window that says < 100 MHz measured no PIT */

static uint64_t pit_calibrate_once(void)
{
	uint64_t count = PIT_HZ * PIT_MS / 1000, t0, t1, hz;
	unsigned spin = 0;

	outb(PORT_B, (inb(PORT_B) & ~0x02) | 0x01);	/* gate high, speaker off */
	outb(PIT_CMD, 0xb0);				/* ch 2, lo/hi byte, mode 0 */
	outb(PIT_CH2, count & 0xff);
	/* mode 0 loads the count at the first CLK edge after the high byte (8254 data sheet,
	 * "Mode 0: interrupt on terminal count"): start the TSC window just before that write,
	 * so a delay anywhere (an SMI, a late poll) can only lengthen a window, never shorten it */
	t0 = rdtsc_ordered();
	outb(PIT_CH2, (count >> 8) & 0xff);
	/* mode 0 drives OUT2 low once the count is written: high now means no 8254 behind
	 * port 0x61 (an absent port reads 0xff) */
	if (inb(PORT_B) & 0x20)
		return 0;
	while (!(inb(PORT_B) & 0x20)) {			/* OUT2 goes high at terminal count */
		if (++spin == PIT_SPIN_MAX || rdtsc_ordered() - t0 > PIT_TSC_MAX)
			return 0;	/* gated or stopped 8254 */
	}
	t1 = rdtsc_ordered();
	/* OUT2 rises `count` ticks after that first edge (11931 ticks: 9.9993 ms, not 10), so
	 * scale by those; the part of a tick before the edge adds at most 1/11931 (84 ppm).
	 * No overflow: t1 - t0 is about PIT_TSC_MAX (2^30) at most, PIT_HZ < 2^21. */
	hz = (t1 - t0) * PIT_HZ / count;
	return hz < TSC_HZ_MIN ? 0 : hz;
}

static uint64_t pit_calibrate(void)
{
	uint64_t best = 0;

	/* the smallest of five: an SMI, a late poll or an emulator hiccup only ever lengthens a
	 * window, so the shortest is the truest (50 ms in all) */
	for (int i = 0; i < 5; i++) {
		uint64_t hz = pit_calibrate_once();

		if (!hz)
			return 0;
		if (!best || hz < best)
			best = hz;
	}
	return best;
}

void tsc_init(void)
{
	struct cpuid_regs r;

	if (cpu.vendor == VENDOR_INTEL && cpu.max_leaf >= 0x15) {
		cpuid_count(0x15, 0, &r);
		if (r.eax && r.ebx && r.ecx) {
			tsc_hz = (uint64_t)r.ecx * r.ebx / r.eax;
			tsc_source = "CPUID.15H";
			return;
		}
	}
	tsc_hz = pit_calibrate();
	if (tsc_hz) {
		tsc_source = "PIT calibration";
		return;
	}
	if (cpu.vendor == VENDOR_INTEL && cpu.max_leaf >= 0x16) {
		cpuid_count(0x16, 0, &r);
		if (r.eax & 0xffff) {
			tsc_hz = (uint64_t)(r.eax & 0xffff) * 1000000;
			tsc_source = "CPUID.16H base frequency";
			return;
		}
	}
	tsc_hz = 1000000000;
	tsc_source = "assumed 1 GHz (no CPUID.15H, no PIT)";
}

uint64_t tsc_to_ns(uint64_t ticks)
{
	if (!tsc_hz)
		return 0;
	/* split so that nothing overflows for any tsc_hz below 18 GHz */
	return ticks / tsc_hz * 1000000000ull + (ticks % tsc_hz) * 1000000000ull / tsc_hz;
}

int64_t tsc_ms_since_reset(uint64_t at)
{
	uint64_t ms;

	if (!tsc_hz)
		return -1;
	ms = at / tsc_hz * 1000 + at % tsc_hz * 1000 / tsc_hz;
	return ms > TSC_SINCE_RESET_MAX_MS ? -1 : (int64_t)ms;
}

void tsc_delay_us(uint64_t us)
{
	uint64_t end = rdtsc() + us * (tsc_hz / 1000000);

	while (rdtsc() < end)
		__asm__ volatile("pause");
}
