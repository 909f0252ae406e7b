/*
 * pmi_slots.h: which PEBS session belongs to which CPU, for the one PMI vector all CPUs share
 * (pmi.c). IA32_DS_AREA, the counters and LVTPC are per logical processor (SDM Vol. 3B
 * 18.4.9 "Debug Store (DS) Mechanism", Vol. 3A 11.5.1 LVT), so each CPU's PMI must find its
 * own session by its local APIC id. Two CPUs may claim, look up and release slots at the same
 * time: a claim takes its slot with one compare-and-swap before anything else is written, a
 * lookup writes nothing, and a session is published only after its slot is owned.
 */
#ifndef PEBS_PMI_SLOTS_H
#define PEBS_PMI_SLOTS_H

#include <stdint.h>

struct pebs_session;

struct pmi_slot {
	uint32_t owner;			/* 0: free; else the owner's APIC id + 1 */
	struct pebs_session *s;		/* published by the owner; NULL until then */
};

struct pmi_slots {
	struct pmi_slot *t;
	unsigned n;
};

/* The slot of APIC id `id`: the one it already owns, else a free one taken atomically
 * (owner 0 -> id + 1); NULL when every slot is owned by another CPU. */
struct pebs_session **pmi_slot_claim(struct pmi_slots *p, uint32_t id);
/* The published session of `id` (NULL when it has none); reads only. */
struct pebs_session *pmi_slot_find(const struct pmi_slots *p, uint32_t id);
/* Withdraw `id`'s session, then give its slot back (in that order). */
void pmi_slot_release(struct pmi_slots *p, uint32_t id);
/* Publish s in a claimed slot (after s is complete: release order). */
void pmi_slot_publish(struct pebs_session **slot, struct pebs_session *s);

#endif
