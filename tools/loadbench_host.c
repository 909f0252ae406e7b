/*
 * loadbench_host.c: the Linux side of tools/loadbench (see loadbench_host.h). Hosted code:
 * the only place in the project where the load kernels meet mmap and clock_gettime.
 */
#define _GNU_SOURCE
#include "tools/loadbench_host.h"
#include "kernel/cpu.h"
#include "tools/coreclk.h"
#include "kernel/console.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"
#include "kernel/tsc.h"

#include <cpuid.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
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

/* n dependent IMUL r64 (tools/coreclk.h: 3 core cycles each on the documented cores). */
static void imul_chain(void *ctx, uint64_t n)
{
	uint64_t x = 3, one = 1;

	(void)ctx;
	for (uint64_t i = 0; i < n; i += 64)
		__asm__ volatile(".rept 64\n\timul %1, %0\n\t.endr" : "+r"(x) : "r"(one));
}

static int cycles_fd = -1;

/* perf_event_open(2): PERF_TYPE_HARDWARE / PERF_COUNT_HW_CPU_CYCLES on this thread, user
 * space only (what perf_event_paranoid 2 allows), counting from now. */
static int cycles_open(void *ctx, char *why, size_t n)
{
	struct perf_event_attr a = { .type = PERF_TYPE_HARDWARE, .size = sizeof(a),
				     .config = PERF_COUNT_HW_CPU_CYCLES, .exclude_kernel = 1,
				     .exclude_hv = 1 };

	(void)ctx;
	cycles_fd = (int)syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);
	if (cycles_fd < 0) {
		snprintf(why, n, "perf_event_open(cycles): %s%s", strerror(errno),
			 errno == ENOENT || errno == EOPNOTSUPP ? " (no PMU: a VM without a vPMU?)" :
			 errno == EACCES || errno == EPERM ? " (perf_event_paranoid)" : "");
		return -1;
	}
	return 0;
}

static uint64_t cycles_read(void *ctx)
{
	uint64_t v = 0;

	(void)ctx;
	if (read(cycles_fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		return 0;
	return v;
}

void lb_core_per_tsc(const struct cpu_info *ci, uint64_t hz, struct cc_result *r)
{
	const struct cc_ops ops = { .imul_chain = imul_chain, .cycles_open = cycles_open,
				    .cycles_read = cycles_read };
	struct cc_cpu c = { .intel = ci->vendor == VENDOR_INTEL, .amd = ci->vendor == VENDOR_AMD,
			    .family = ci->family, .model = ci->model, .tsc_hz = hz };
	struct cpuid_regs q;

	if (ci->max_leaf >= 0x16) {	/* some AMD VMs list the leaf, all zero: absent */
		cpuid_count(0x16, 0, &q);	/* SDM Vol. 2A: EAX base, EBX max MHz; 0 = absent */
		c.base_mhz = q.eax & 0xffff;
		c.max_mhz = q.ebx & 0xffff;
	}
	cc_estimate(&ops, &c, r);
	if (cycles_fd >= 0)
		close(cycles_fd);
	cycles_fd = -1;
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
