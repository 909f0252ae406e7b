/*
 * tsc.h: the TSC frequency the kernel determined at boot (SDM Vol. 3B 18.17; CPUID 0x15/0x16,
 * else calibrated against the PIT: kernel/tsc.c), conversions and a busy-wait. The counter
 * reads themselves are in the hardware seam (kernel/hw.h), so host tests run on a virtual
 * clock.
 */
#ifndef KERNEL_TSC_H
#define KERNEL_TSC_H

#include <stdint.h>

#include "kernel/hw.h"	/* rdtsc(), rdtsc_ordered(): the reads are part of the hardware seam */

/* TSC ticks per second (0 until tsc_init ran); how it was found, for the header. */
extern uint64_t tsc_hz;
extern const char *tsc_source;

void tsc_init(void);
/* Busy-wait; bounded by the TSC alone. */
void tsc_delay_us(uint64_t us);
uint64_t tsc_to_ns(uint64_t ticks);

/* A TSC reading taken later than this after reset is not read as time since reset. */
#define TSC_SINCE_RESET_MAX_MS (10ull * 60 * 1000)
/* Milliseconds from the processor's reset to the TSC reading `at`: the TSC is reset to zero
 * whenever the processor is reset (SDM Vol. 3B 18.17), so kmain's first reading is the time
 * firmware and the boot loader took. -1 where tsc_hz is unknown or `at` is beyond
 * TSC_SINCE_RESET_MAX_MS (firmware wrote the TSC, or a hypervisor offset it). */
int64_t tsc_ms_since_reset(uint64_t at);

#endif
