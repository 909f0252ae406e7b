/*
 * ap_slot.h: one job block (and an optional second block, e.g. a CPU's own PEBS state, ~30 KiB)
 * handed to one application processor after another through smp_call (smp/smp.h; SDM Vol.
 * 3A 9.4), as load_matrix and load_c2c do for their rows. A call that does not finish within
 * its bound leaves its CPU still running on the blocks: the blocks are that CPU's from then
 * on (its PMU may still point into them, SDM Vol. 3B 20.3 IA32_DS_AREA per logical
 * processor), and the next call gets fresh ones. Reusing them would let the next CPU
 * re-initialise a PEBS state another CPU still measures with, and that CPU's late stores
 * land in the next CPU's job.
 */
#ifndef LOADS_AP_SLOT_H
#define LOADS_AP_SLOT_H

#include <stdbool.h>
#include <stdint.h>

#include "smp/smp.h"

struct ap_slot {
	void *job;		/* NULL: out of memory, no call is made */
	void *aux;		/* NULL: none (the caller does without, e.g. unsampled) */
	uint64_t job_size, aux_size;
	unsigned lost;		/* calls that did not finish: their blocks left to their CPU */
};

/* Both blocks allocated (kalloc, 64-byte aligned); false when the job block is not. */
bool ap_slot_init(struct ap_slot *s, uint64_t job_size, uint64_t aux_size);
/* fn(s->job) on CPU i, bounded by ms (smp_call's result). Not SMP_CALL_DONE and the call
 * was made: s->job and s->aux are replaced (s->lost counts it); the caller reads s->job again
 * before its next call. SMP_CALL_NOT_ONLINE without a job block. */
int ap_slot_call(struct ap_slot *s, unsigned i, smp_fn fn, uint32_t ms);

#endif
