/*
 * pmi_slots_test.c: the per-CPU session table of the shared PMI vector (pebs/pmi_slots.h)
 * with two CPUs in the same lines at once, one step at a time: CPU A has claimed a slot and
 * not yet published its session when CPU B installs, or takes a PMI. Before the claim was one
 * compare-and-swap, both CPUs took the first free slot and one session was lost (its CPU's
 * PMIs then found nothing, or the other CPU's buffer).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pebs/pmi_slots.h"

static struct pmi_slot tab[4];
static struct pmi_slots p = { tab, 4 };
/* stand-ins for two CPUs' sessions: only their addresses matter */
static char sa, sb;
#define SA ((struct pebs_session *)&sa)
#define SB ((struct pebs_session *)&sb)

static int reset(void **st)
{
	(void)st;
	memset(tab, 0, sizeof(tab));
	return 0;
}

/* A claims; before A publishes, B claims: they must hold different slots, and both
 * sessions are found afterwards. */
static void two_claims_interleaved(void **st)
{
	struct pebs_session **a, **b;

	(void)st;
	a = pmi_slot_claim(&p, 0);
	b = pmi_slot_claim(&p, 1);
	assert_non_null(a);
	assert_non_null(b);
	assert_ptr_not_equal(a, b);
	pmi_slot_publish(a, SA);
	pmi_slot_publish(b, SB);
	assert_ptr_equal(pmi_slot_find(&p, 0), SA);
	assert_ptr_equal(pmi_slot_find(&p, 1), SB);
}

/* A PMI on B (no session) while A is between claim and publish: nothing found, nothing
 * written, and A's session is found once published. */
static void lookup_writes_nothing(void **st)
{
	struct pebs_session **a;
	struct pmi_slot before[4];

	(void)st;
	a = pmi_slot_claim(&p, 7);
	memcpy(before, tab, sizeof(tab));
	assert_null(pmi_slot_find(&p, 9));
	assert_null(pmi_slot_find(&p, 7));	/* claimed, not yet published */
	assert_memory_equal(before, tab, sizeof(tab));
	pmi_slot_publish(a, SA);
	assert_ptr_equal(pmi_slot_find(&p, 7), SA);
}

/* APIC id 0 is a real CPU (the BSP): an empty slot must not read as its session. */
static void id_zero_is_not_free(void **st)
{
	(void)st;
	assert_null(pmi_slot_find(&p, 0));
	pmi_slot_publish(pmi_slot_claim(&p, 0), SA);
	assert_ptr_equal(pmi_slot_find(&p, 0), SA);
	assert_null(pmi_slot_find(&p, 1));
}

/* A second claim by the same CPU returns its own slot; release frees it for another CPU;
 * a full table refuses a fifth CPU without touching the others. */
static void reuse_release_full(void **st)
{
	struct pebs_session **s0 = pmi_slot_claim(&p, 0);

	(void)st;
	pmi_slot_publish(s0, SA);
	assert_ptr_equal(pmi_slot_claim(&p, 0), s0);
	for (uint32_t id = 1; id < 4; id++)
		pmi_slot_publish(pmi_slot_claim(&p, id), SB);
	assert_null(pmi_slot_claim(&p, 4));
	assert_ptr_equal(pmi_slot_find(&p, 0), SA);
	pmi_slot_release(&p, 0);
	assert_null(pmi_slot_find(&p, 0));
	assert_ptr_equal(pmi_slot_claim(&p, 4), s0);
	assert_null(*s0);
	for (uint32_t id = 1; id < 4; id++)
		assert_ptr_equal(pmi_slot_find(&p, id), SB);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(two_claims_interleaved, reset),
		cmocka_unit_test_setup(lookup_writes_nothing, reset),
		cmocka_unit_test_setup(id_zero_is_not_free, reset),
		cmocka_unit_test_setup(reuse_release_full, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
