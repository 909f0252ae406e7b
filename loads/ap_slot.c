/*
 * ap_slot.c: job blocks handed to one AP after another (loads/ap_slot.h). A timed-out call
 * (smp/smp.h SMP_CALL_TIMEOUT: the AP still runs fn) or one whose fn faulted part-way (its
 * PMU may be left armed) leaves its blocks with that CPU; a call refused because the AP's
 * last one is still out hands nothing over and keeps them; kalloc'ed memory lives until the test
 * ends (kernel/mm.h), which is as long as a late CPU can need it within the test.
 */
#include "loads/ap_slot.h"
#include "kernel/mm.h"

bool ap_slot_init(struct ap_slot *s, uint64_t job_size, uint64_t aux_size)
{
	*s = (struct ap_slot){ .job_size = job_size, .aux_size = aux_size };
	s->job = kalloc(job_size, 64);
	s->aux = aux_size ? kalloc(aux_size, 64) : NULL;
	return s->job != NULL;
}

int ap_slot_call(struct ap_slot *s, unsigned i, smp_fn fn, uint32_t ms)
{
	int rc;

	if (!s->job)
		return SMP_CALL_NOT_ONLINE;
	if (!smp_call_start(i, fn, s->job))	/* not handed over: the blocks stay */
		return smp_cpu(i) && smp_cpu(i)->state == CPU_ONLINE ? SMP_CALL_TIMEOUT
									 : SMP_CALL_NOT_ONLINE;
	rc = smp_call_wait(i, ms);
	if (rc != SMP_CALL_DONE) {	/* still running, or faulted mid-way: its blocks now */
		s->lost++;
		s->job = kalloc(s->job_size, 64);
		s->aux = s->aux_size ? kalloc(s->aux_size, 64) : NULL;
	}
	return rc;
}
