/*
 * prefetch.h: the hardware prefetchers on or off (the `prefetch=off|on` option), per CPU,
 * through the model-specific registers that document them: Intel MSR_MISC_FEATURE_CONTROL
 * (1A4H; Intel's "Disclosure of H/W prefetcher control on some Intel processors" and the SDM
 * Vol. 4 rows of MSR 1A4H: bit 0 L2 hardware prefetcher disable, 1 L2 adjacent cache line
 * prefetcher disable, 2 DCU hardware prefetcher disable, 3 DCU IP prefetcher disable; Atom
 * and Xeon Phi cores have fewer, other bits), AMD PrefetchControl (MSRC000_0108, family 19h
 * PPR). The rows are a table (kernel/prefetch.c), each citing its source; every access goes
 * through rdmsr_safe/wrmsr_safe and every write is read back, so a #GP or a write a
 * hypervisor drops is a reason, never a fault or a silent no-op. What a CPU had is restored.
 */
#ifndef KERNEL_PREFETCH_H
#define KERNEL_PREFETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/cpu.h"

#define PREFETCH_MAX_MODELS 12

struct prefetch_row {
	const char *name;
	enum cpu_vendor vendor;
	uint32_t family;			/* DisplayFamily */
	uint8_t models[PREFETCH_MAX_MODELS];	/* DisplayModel; none listed: every model */
	uint32_t msr;
	uint64_t bits;				/* set = that prefetcher disabled */
	const char *bit_names;
	const char *src;
};

/* `prefetch=`: not given (nothing is touched), off, on; PREFETCH_BAD for anything else. */
enum prefetch_req { PREFETCH_KEEP, PREFETCH_OFF, PREFETCH_ON, PREFETCH_BAD };
enum prefetch_req prefetch_req_parse(const char *s);

/* The row for this CPU, or NULL with the reason in b. */
const struct prefetch_row *prefetch_lookup(const struct cpu_info *ci, char *b, size_t n);

/* One CPU's state: what the MSR held, whether it was changed (restore owes it), why not. */
struct prefetch_cpu {
	uint64_t before, after;
	bool changed;
	char why[96];
};
/* On the CPU this runs on: the row's bits set (off) or cleared (on), read back. 0, or -1 with
 * c->why (nothing changed then). */
int prefetch_set(const struct prefetch_row *r, bool off, struct prefetch_cpu *c);
/* Write back c->before where prefetch_set changed it, read back. 0, or -1 with c->why. */
int prefetch_restore(const struct prefetch_row *r, struct prefetch_cpu *c);

#endif
