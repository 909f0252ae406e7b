/*
 * loadbench_host.c: the Linux side of tools/loadbench (see loadbench_host.h). Hosted code:
 * the only place in the project where the load kernels meet mmap and clock_gettime.
 */
#define _GNU_SOURCE
#include "tools/loadbench_host.h"
#include "kernel/console.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"
#include "kernel/tsc.h"

#include <cpuid.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <x86intrin.h>

#define HUGE_2M (2ull << 20)

FILE *lb_console;

void cpuid_count(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	__cpuid_count(leaf, subleaf, r->eax, r->ebx, r->ecx, r->edx);
}

/* The TSC reads of kernel/hw.h, real ones: this tool measures real time on purpose. */
uint64_t rdtsc(void)
{
	return __rdtsc();
}

uint64_t rdtsc_ordered(void)
{
	uint64_t t;

	_mm_lfence();
	t = __rdtsc();
	_mm_lfence();
	return t;
}

/* The one console backend (kernel/console.c fans kprintf out to it): lb_console or stdout. */
static void lb_write(struct console_backend *be, const char *s, size_t n)
{
	(void)be;
	fwrite(s, 1, n, lb_console ? lb_console : stdout);
}

void lb_console_init(void)
{
	static struct console_backend be = { .name = "stdout", .write = lb_write };

	console_register(&be);
}


static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t lb_tsc_hz(unsigned ms)
{
	uint64_t n0 = now_ns(), t0 = rdtsc_ordered(), n1, t1;

	do {
		n1 = now_ns();
	} while (n1 - n0 < (uint64_t)ms * 1000000ull);
	t1 = rdtsc_ordered();
	return (uint64_t)((unsigned __int128)(t1 - t0) * 1000000000ull / (n1 - n0));
}

uint64_t lb_core_per_tsc_x1000(void)
{
	uint64_t best = 0;

	/* Best of 5 (a preempted run only reads slower): 2 M dependent ADDs each. */
	for (int rep = 0; rep < 5; rep++) {
		uint64_t x = 0, t0 = rdtsc_ordered(), t1;

		for (int i = 0; i < 62500; i++)
			__asm__ volatile(
				".rept 32\n\tadd $1, %0\n\t.endr" : "+r"(x));
		t1 = rdtsc_ordered();
		if (t1 > t0 && 2000000ull * 1000 / (t1 - t0) > best)
			best = 2000000ull * 1000 / (t1 - t0);
	}
	return best;
}

void lb_pin_cpu(void)
{
	cpu_set_t set;
	int c = sched_getcpu();

	if (c < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(c, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* AnonHugePages of the smaps entry that contains `addr`, in KiB (-1: unknown). */
static long smaps_huge_kb(void *addr)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[256];
	int inside = 0;
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
			inside = (uintptr_t)addr >= lo && (uintptr_t)addr < hi;
		else if (inside && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

int lb_buf_map(struct lb_buf *b, uint64_t bytes, int allow_huge)
{
	uint64_t len = (bytes + HUGE_2M - 1) & ~(HUGE_2M - 1);
	uint8_t *raw, *al;
	long kb;

	memset(b, 0, sizeof(*b));
	b->bytes = len;
	if (allow_huge) {
		raw = mmap(NULL, len, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | (21 << MAP_HUGE_SHIFT), -1, 0);
		if (raw != MAP_FAILED) {
			memset(raw, 0, len);
			b->base = raw;
			snprintf(b->pages, sizeof(b->pages), "hugetlbfs 2M");
			return 0;
		}
	}
	raw = mmap(NULL, len + HUGE_2M, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		return -1;
	al = (uint8_t *)(((uintptr_t)raw + HUGE_2M - 1) & ~(uintptr_t)(HUGE_2M - 1));
	madvise(al, len, allow_huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	memset(al, 0, len);		/* fault it in now, not inside a measurement */
	b->base = al;
	kb = smaps_huge_kb(al);
	if (!allow_huge)
		snprintf(b->pages, sizeof(b->pages), "4K (MADV_NOHUGEPAGE)");
	else if (kb < 0)
		snprintf(b->pages, sizeof(b->pages), "THP requested (coverage unknown)");
	else
		snprintf(b->pages, sizeof(b->pages), "%s (MADV_HUGEPAGE: %ld of %llu MiB in 2M pages)",
			 kb * 1024 >= (long)len ? "THP 2M" : "mixed 2M/4K", kb >> 10,
			 (unsigned long long)(len >> 20));
	return 0;
}
