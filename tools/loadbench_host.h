/*
 * loadbench_host.h: what tools/loadbench needs from Linux: CPUID for the shared probe, a
 * console for kprintf, the TSC frequency, a core-clock estimate, and a buffer backed by
 * 2 MiB pages (hugetlbfs first, then THP through MADV_HUGEPAGE, coverage read back from
 * /proc/self/smaps).
 */
#ifndef TOOLS_LOADBENCH_HOST_H
#define TOOLS_LOADBENCH_HOST_H

#include <stdint.h>
#include <stdio.h>

/* Where kprintf (geometry_print) writes. */
extern FILE *lb_console;
/* Registers the console backend that writes to lb_console (stdout while it is NULL). */
void lb_console_init(void);

/* TSC ticks per second, measured against CLOCK_MONOTONIC over `ms`. */
uint64_t lb_tsc_hz(unsigned ms);

/* Core cycles per TSC tick (tools/coreclk.h): perf's cycles counter where this process may
 * open it, else a dependent IMUL chain; judged against CPUID 16H (Intel) or the AMD rule. */
struct cc_result;
struct cpu_info;
void lb_core_per_tsc(const struct cpu_info *ci, uint64_t hz, struct cc_result *r);

struct lb_buf {
	void *base;
	uint64_t bytes;
	char pages[96];		/* "hugetlbfs 2M", "THP 2M (x of y MiB)", "4K (...)" */
};

/* Stay on the CPU we run on (a migration would start every level cold). */
void lb_pin_cpu(void);

/* Map `bytes` 2 MiB-aligned, prefault it, say which pages back it. 0 or -1. */
int lb_buf_map(struct lb_buf *b, uint64_t bytes, int allow_huge);

#endif
