/*
 * bw_cpus.h: one bandwidth mode on every CPU of the run at once (ktests/bandwidth.c): the
 * application processors run bw_worker_run (loads/bw.h) through smp_call_start (smp/smp.h;
 * SDM Vol. 3A 9.4), the boot CPU leads. What a late CPU (its call not finished within the
 * bound) may still touch stays its own: the sync block it was handed is never reused by a
 * later run, and its job's sync pointer is never cleared under it (it reads it only when it
 * starts). The answers are waited for with one deadline for all, so k silent CPUs cost one
 * bound, not k. While workers may run, their stop is registered with the runner
 * (kernel/ktap_undo.h): a test abandoned mid-run stops them before its memory is released.
 */
#ifndef LOADS_BW_CPUS_H
#define LOADS_BW_CPUS_H

#include <stdbool.h>
#include <stdint.h>

#include "loads/bw.h"

struct bw_ap {
	struct bw_worker w;
	struct bw_sync *s;	/* the run it was handed (read by the AP when it starts) */
	uint8_t *buf;		/* NULL: not in the run */
	bool posted;		/* its call of this run was posted */
	bool bad;		/* its call failed once: left out from then on */
};

struct bw_all {
	uint64_t gbps_x100, bytes;
	unsigned cpus, done;
	bool counted;
};

/* Every CPU with a buffer in aps[1..n) and the boot CPU (bsp_buf) in mode m over ws bytes;
 * budget: the lead's run, wait: every bound (TSC ticks). */
void bw_run_all(struct bw_ap *aps, unsigned n, enum bw_mode m, uint64_t ws, uint8_t *bsp_buf,
		uint64_t budget, uint64_t wait, struct bw_all *o);
/* The test is done with its workers: the undo dropped. */
void bw_cpus_done(void);

#endif
