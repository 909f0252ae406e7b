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

#include <stdbool.h>
#include <stdint.h>

struct pebs_session;

/* What the owner armed, kept in the slot (memory of the driver, never a test's) so that
 * pebs/disarm.c can turn it off without the session, which an abandoned test may have left on
 * a dead stack frame or in memory about to be released. Written by the owner only. */
struct pmi_armed {
	uint64_t ctrl;		/* IA32_PERF_GLOBAL_CTRL bits the session enabled */
	uint32_t gp;		/* GP counters whose IA32_PERFEVTSELx it programmed */
	bool arch;		/* architectural PEBS (IA32_PEBS_BASE/INDEX, CFG_C) */
	bool adaptive;		/* MSR_PEBS_DATA_CFG programmed */
	bool fixed1;		/* IA32_FIXED_CTR_CTRL changed (pebs_counters=on): restore */
	uint64_t fixed_ctrl;	/* IA32_FIXED_CTR_CTRL as found */
};

struct pmi_slot {
	uint32_t owner;			/* 0: free; else the owner's APIC id + 1 */
	struct pebs_session *s;		/* published by the owner; NULL until then */
	struct pmi_armed armed;
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
/* The armed record of the slot `id` owns; NULL when it owns none. */
struct pmi_armed *pmi_slot_armed(struct pmi_slots *p, uint32_t id);
/* Publish s in a claimed slot (after s is complete: release order). */
void pmi_slot_publish(struct pebs_session **slot, struct pebs_session *s);

#endif
