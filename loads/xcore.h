/*
 * xcore.h: cross-core load kernels (SDM Vol. 3A 12.4 "Cache Control Protocol", MESI; Vol. 3B
 * table 18-24 and the later load-latency data-source tables: snoop-hit and HITM sources).
 * The measuring CPU (the boot CPU) loads lines that a helper CPU touched last: `load_snoop`
 * (the helper read the line: a clean hit in another core's cache) and `load_hitm` (the helper
 * wrote it: hit-modified). Per line: the measuring CPU flushes the line (CLFLUSH), bumps a
 * `go` flag, the helper touches the line and bumps `ack`, the measuring CPU times one load of
 * the line (TSC, and core cycles when the PMU driver registered a clock) and then a second
 * load of it (an L1 hit, the reference). The flags live on their own 128-byte-aligned lines,
 * away from the measured lines, so the handshake never touches a measured line. Every wait,
 * on either CPU, is bounded.
 */
#ifndef LOADS_XCORE_H
#define LOADS_XCORE_H

#include <stdbool.h>
#include <stdint.h>

#include "sample/aggregate.h"
#include "pebs/datasrc.h"

enum xcore_kind { XCORE_SNOOP, XCORE_HITM, XCORE_NONE };

#define XCORE_MAX_LOADS 1024u
#define XCORE_STEP_MS   200u	/* bound on each handshake wait */
#define XCORE_STEP_EMU_MS 5000u	/* the same under software emulation, where a vCPU thread of a
				 * loaded host can sleep for more than 200 ms (nothing is timed) */

struct xcore_run {
	const char *name;
	enum xcore_kind kind;
	unsigned helper;	/* CPU number of the helper (an online AP; xcore_run_pair: any) */
	unsigned measurer;	/* xcore_run_pair: the CPU that times the loads (0: boot CPU) */
	unsigned want;		/* loads to time (<= XCORE_MAX_LOADS) */
	uint32_t budget_ms;	/* stop early once the timed part took this long */
	/* results */
	unsigned loads;		/* loads timed */
	unsigned bad_values;	/* loads that did not return the value the last writer left */
	bool helper_sum_ok;	/* snoop: the helper read every line's value */
	uint64_t tsc_med, tsc_min, tsc_mean;	/* per cross-core load, overhead removed */
	uint64_t l1_med;	/* TSC ticks of the second (L1-hit) load, overhead removed */
	uint64_t core_med;	/* core cycles per cross-core load; 0: no core clock */
	uint64_t overhead;	/* TSC ticks of an empty timed pair (subtracted) */
	const char *core_name;
	const char *why;	/* xcore_run() != 0: what went wrong */
	char whybuf[96];
};

/* The helper for the measuring CPU: an online AP on another core of the boot CPU's package,
 * else on another package, else an SMT sibling; -1 when no AP is online. */
int xcore_pick_helper(void);
/* For xcore.c (xcore_cpus.c): a side's call that ended with rc (side 0 the measurer, 1 the
 * helper; SMP_CALL_TIMEOUT: still out), and a CPU still running its side of an earlier run
 * after forgetting those that have finished (0: none). */
void xcore_note_late(unsigned side, unsigned who, int rc);
unsigned xcore_still_late(void);
/* The bound of one handshake step: XCORE_STEP_MS on hardware; under software emulation, where
 * no timing is judged and the host schedules vCPUs as it likes, XCORE_STEP_EMU_MS. */
uint64_t xcore_step_ms(void);
/* Run r (kind, helper, want, budget_ms set). 0 done; -1 with r->why. */
int xcore_run(struct xcore_run *r);
/* The same between any two CPUs (load_c2c): r->measurer times the loads, r->helper touches
 * the lines; either may be the boot CPU, which runs its side itself and starts the other(s)
 * through smp_call_start. Timed with the TSC only (the registered core clock is the boot
 * CPU's counter). 0 done; -1 with r->why. */
int xcore_run_pair(struct xcore_run *r);
/* The same in parts (the PEBS step runs steps in chunks): begin allocates the lines and
 * starts the helper (0, or -1 with r->why); step times the next line (false: all done, or
 * the helper did not answer); end stops the helper and sums up (0, or -1 with r->why). */
int xcore_begin(struct xcore_run *r);
bool xcore_step(struct xcore_run *r);
int xcore_end(struct xcore_run *r);

/* The cross-core step samples through PEBS alone: where the run samples through another PMU
 * (IBS on AMD), pebs_source SKIPs with this and PEBS's own reason (pebs/caps.h). */
#define XCORE_PEBS_ONLY "the cross-core step samples through PEBS only (loads/xcore_pebs.c): "

/* The PEBS step (loads/xcore_pebs.c): the kernel again, under load-latency PEBS on the
 * measuring CPU; the verdict as a subtest `pebs_source`, or a SKIP with the reason. */
struct ktest;
void xcore_pebs_step(struct ktest *t, struct xcore_run *r);
/* The verdict on the aggregate (pure): the records served by another core's cache (L3 or
 * "any cache" levels) with the kernel's snoop result must be at least a quarter (snoop: the
 * handshake's flag line adds one HITM load per line) or half (HITM) of the cross-core
 * records, and at least XCORE_PEBS_MIN of them. 1 pass, 0 fail, -1 too few records; the
 * measured numbers in d. */
#define XCORE_PEBS_MIN 8u
/* The same for one cell of load_c2c, nothing printed: on the boot CPU (base->measurer 0, pc
 * NULL), or on the measuring AP itself through its own PEBS state pc (base->helper then an AP
 * too: the measuring side starts it). The cell's data-source label (loads/latmatrix.h) into
 * src; 1 the records are the kernel's snoop result, 0 not, 2 too few to judge, -1 not
 * measured (no PEBS, the helper stalled, the boot CPU is an AP's helper). */
struct pebs_cpu;
int xcore_pebs_cell(const struct xcore_run *base, struct pebs_cpu *pc, char *src, unsigned n);
int xcore_pebs_verdict(const struct pebs_agg *a, enum xcore_kind kind, char *d, unsigned n);

/* Whether a decoded load-latency data source is one kernel `kind` should produce: a local
 * cache row (L3 or any cache, not remote) with a clean snoop hit (Hit or Fwd) for
 * load_snoop, HitM for load_hitm. */
bool xcore_code_fits(enum xcore_kind kind, const struct pebs_dsrc *d);
/*
 * The load-latency data-source codes kernel `kind` should produce on a model (pure, from
 * pebs/datasrc_tables.c; loads/xcore_expect.c says which rows fit). Returns how many (at
 * most max) were stored in codes[].
 */
unsigned xcore_expected_codes(const struct pebs_model *m, enum xcore_kind kind,
			      uint16_t *codes, unsigned max);
/* "nhm 06H; snb 07H; ..." for every data-source table, one model row per table. */
void xcore_expected_text(enum xcore_kind kind, char *b, unsigned n);

#endif
