/*
 * pmi_slots.c: the per-CPU session table of the shared PMI vector (pmi_slots.h; SDM Vol. 3B
 * 18.4.9: the DS area and its PMI are per logical processor). Lock-free: a claim is one
 * compare-and-swap of the owner word, so two CPUs installing sessions at once never take one
 * slot; a lookup (the PMI handler) only reads, so a PMI on a CPU without a session cannot
 * rename a slot another CPU is taking; a session pointer is published with release order
 * after its owner is set and read with acquire order.
 */
#include "pebs/pmi_slots.h"

#include <stdbool.h>
#include <stddef.h>

struct pebs_session **pmi_slot_claim(struct pmi_slots *p, uint32_t id)
{
	for (unsigned i = 0; i < p->n; i++)
		if (__atomic_load_n(&p->t[i].owner, __ATOMIC_ACQUIRE) == id + 1)
			return &p->t[i].s;
	for (unsigned i = 0; i < p->n; i++) {
		uint32_t free_ = 0;

		if (__atomic_compare_exchange_n(&p->t[i].owner, &free_, id + 1, false,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return &p->t[i].s;
	}
	return NULL;
}

struct pebs_session *pmi_slot_find(const struct pmi_slots *p, uint32_t id)
{
	for (unsigned i = 0; i < p->n; i++)
		if (__atomic_load_n(&p->t[i].owner, __ATOMIC_ACQUIRE) == id + 1)
			return __atomic_load_n(&p->t[i].s, __ATOMIC_ACQUIRE);
	return NULL;
}

struct pmi_armed *pmi_slot_armed(struct pmi_slots *p, uint32_t id)
{
	for (unsigned i = 0; i < p->n; i++)
		if (__atomic_load_n(&p->t[i].owner, __ATOMIC_ACQUIRE) == id + 1)
			return &p->t[i].armed;
	return NULL;
}

void pmi_slot_publish(struct pebs_session **slot, struct pebs_session *s)
{
	__atomic_store_n(slot, s, __ATOMIC_RELEASE);
}

void pmi_slot_release(struct pmi_slots *p, uint32_t id)
{
	for (unsigned i = 0; i < p->n; i++) {
		if (__atomic_load_n(&p->t[i].owner, __ATOMIC_ACQUIRE) != id + 1)
			continue;
		__atomic_store_n(&p->t[i].s, NULL, __ATOMIC_RELEASE);
		__atomic_store_n(&p->t[i].owner, 0, __ATOMIC_RELEASE);
	}
}
