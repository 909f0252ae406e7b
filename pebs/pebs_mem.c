/*
 * pebs_mem.c: the DS save area and PEBS buffer a session keeps from one measurement to the
 * next (SDM Vol. 3B 18.4.9 "Debug Store (DS) Mechanism": one DS area per logical processor,
 * the buffer in memory that stays mapped). Linux allocates them once per CPU
 * (arch/x86/events/intel/ds.c alloc_ds_buffer, alloc_pebs_buffer) and reuses them for every
 * event; so does this: a session takes new memory only the first time, when it needs a larger
 * buffer (then twice the old size, so a run of growing requests takes at most twice the
 * largest), or when the test runner gave the memory back since (kernel/mm.h mm_generation).
 * Memory per CPU stays bounded whatever the number of measurements.
 */
#include "pebs/pebs.h"
#include "kernel/mm.h"

int pebs_mem_get(struct pebs_session *s, uint64_t bytes, bool ds)
{
	if (s->mem_gen != mm_generation()) {	/* released since: not ours any more */
		s->ds = NULL;
		s->buf = NULL;
		s->buf_alloc = 0;
		s->mem_gen = mm_generation();
	}
	if (ds && !s->ds)
		s->ds = kalloc(4096, 4096);
	if (s->buf && s->buf_alloc < bytes) {
		if (bytes < 2 * s->buf_alloc && 2 * s->buf_alloc <= PEBS_BUF_MAX)
			bytes = 2 * s->buf_alloc;
		s->buf = NULL;	/* no kfree: the smaller block stays until the release */
	}
	if (!s->buf) {
		s->buf = kalloc(bytes, 4096);
		s->buf_alloc = s->buf ? bytes : 0;
	}
	return (ds && !s->ds) || !s->buf ? -1 : 0;
}
