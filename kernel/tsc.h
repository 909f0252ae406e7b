/*
 * tsc.h: time-stamp counter reads (SDM Vol. 3B 18.17) and the TSC frequency the kernel
 * determined at boot (CPUID 0x15/0x16, else calibrated against the PIT: kernel/tsc.c).
 * RDTSC/RDTSCP are unprivileged, so these also work in host programs (tools/loadbench).
 */
#ifndef KERNEL_TSC_H
#define KERNEL_TSC_H

#include <stdint.h>

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

/* Ordered read: earlier instructions have finished (LFENCE before RDTSC, SDM 18.17). */
static inline uint64_t rdtsc_ordered(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* TSC ticks per second (0 until tsc_init ran); how it was found, for the header. */
extern uint64_t tsc_hz;
extern const char *tsc_source;

void tsc_init(void);
/* Busy-wait; bounded by the TSC alone. */
void tsc_delay_us(uint64_t us);
uint64_t tsc_to_ns(uint64_t ticks);

#endif
