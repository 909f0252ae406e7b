/*
 * apic_nmi_test.c: NMIs and the PMI's per-CPU state in apic/ (apic_pmi.c) with kernel/nmi.c,
 * on the local-APIC model and its hostile knobs (tests/model/lapic_model_nmi.c).
 * H16: with pmi=vector an NMI is not the PMU's: it is reported as an unknown NMI (counted,
 * where it landed), never an exception; with pmi=nmi an NMI is the PMU's only when LVTPC
 * was masked by the delivery, the PMI source's test says so, or GLOBAL_STATUS has a bit set
 * (Linux perf_event_nmi_handler(), unknown_nmi_error()). Platform NMIs at random register
 * accesses (seeded), and PMIs raised while LVTPC is masked latched or dropped (KVM
 * kvm_apic_local_deliver()): every PMI delivered reaches the handler once, every platform NMI
 * is counted as unknown, LVTPC ends unmasked and nothing stays in service.
 * H8: two CPUs' PMI dispatches interleaved: each keeps its own entry kind and re-arm state.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "apic/apic.h"
#include "apic/apic_enc.h"
#include "apic/apic_regs.h"
#include "kernel/nmi.h"
#include "model/lapic_model.h"
#include "stubs/apic_env.h"

static unsigned handler_calls;
static void (*inside)(void);	/* run once inside the next handler call */

static void handler(struct trap_frame *f)
{
	void (*fn)(void) = inside;

	(void)f;
	handler_calls++;
	inside = NULL;
	if (fn)
		fn();
}

static bool pending_yes(void) { return true; }

/* pmi=vector: an NMI (LINT1, QEMU's `nmi`) is unknown: counted, located, the code goes on */
static void test_nmi_unknown_vector_mode(void **state)
{
	struct nmi_landing l[2];
	char buf[160];

	(void)state;
	assert_true(env_boot(XB, true, 0, ""));
	apic_set_pmi_handler(handler);
	handler_calls = 0;
	nmi_set_context("load_l2");
	env_nmi();
	assert_int_equal(handler_calls, 0);
	assert_int_equal(nmi_count(), 1);
	assert_int_equal(nmi_count_cpu(0), 1);
	assert_int_equal(nmi_landings(0, l, 2), 1);
	assert_int_equal(l[0].rip, ENV_NMI_RIP);
	assert_string_equal(l[0].where, "load_l2");
	nmi_describe(0, NMI_LOG, buf, sizeof(buf));
	assert_string_equal(buf, "1 unknown NMI: cpu 0 at RIP 0x4242 in load_l2");
	assert_int_equal(apic_stats()->pmis, 0);
}

/* pmi=nmi: the PMU's NMI (LVTPC masked by the delivery) reaches the handler; a platform NMI
 * with LVTPC unmasked does not, and is unknown; the PMI source's own test decides too */
static void test_nmi_mode_classify(void **state)
{
	(void)state;
	assert_true(env_boot(XB, true, 0, "pmi=nmi"));
	apic_set_pmi_handler(handler);
	handler_calls = 0;
	assert_int_equal(lm_pmi(), 2);
	env_nmi();
	assert_int_equal(handler_calls, 1);
	assert_int_equal(nmi_count(), 0);
	assert_false(apic_lvt_masked(lm.regs[APIC_LVTPC >> 4]));
	env_nmi();		/* platform: LVTPC unmasked, GLOBAL_STATUS #GPs here (no PMU) */
	assert_int_equal(handler_calls, 1);
	assert_int_equal(nmi_count(), 1);
	assert_int_equal(lm.gp_unsafe, 0);
	apic_set_pmi_pending(pending_yes);	/* IBS: IbsOpVal set */
	env_nmi();
	assert_int_equal(handler_calls, 2);
	assert_int_equal(nmi_count(), 1);
	apic_set_pmi_pending(NULL);
	assert_int_equal(lm.eois, 0);	/* NMI entries take no EOI */
	env_no_illegal_access();
}

/* H8: CPU A (APIC id 0) is in a vector PMI's handler when CPU B (id 1) takes an NMI PMI;
 * while B's handler runs, A's handler re-arms (A's EOI is due: its entry is the vector).
 * Per-CPU state: A unmasks and EOIs once, B unmasks and takes no EOI. One global state: A
 * sees B's "NMI entry" (no EOI) and B sees A's "re-armed" (B's LVTPC stays masked). */
static void a_rearms(void)
{
	lm_select(0);
	apic_pmi_rearm();
	lm_select(1);
}

static void b_takes_nmi_pmi(void)
{
	struct trap_frame f = { .vector = VEC_NMI };

	lm_select(1);
	assert_int_equal(lm_pmi(), 2);
	inside = a_rearms;
	assert_true(env_nmi_hook(&f));
	lm_select(0);
}

static void test_pmi_state_per_cpu(void **state)
{
	struct trap_frame f = { .vector = APIC_VEC_PMI };
	unsigned eois_a;

	(void)state;
	assert_true(env_boot(XB, true, 0, "pmi=nmi"));
	lm_clone(1, 1);
	lm_select(1);
	lm.regs[APIC_LVTPC >> 4] = (APIC_DM_NMI << 8) | APIC_VEC_PMI;
	lm_select(0);
	apic_set_pmi_handler(handler);
	handler_calls = 0;
	/* A: a vector entry (a self-IPI on the PMI vector, as ktests/apic.c sends) */
	apic_self_ipi(APIC_VEC_PMI);
	assert_int_equal(lm_deliver(), APIC_VEC_PMI);
	eois_a = lm.eois;
	inside = b_takes_nmi_pmi;
	env_handlers[APIC_VEC_PMI](&f);
	assert_int_equal(handler_calls, 2);
	assert_int_equal(lm.eois, eois_a + 1);		/* A: exactly one EOI */
	assert_false(lm_isr_set(APIC_VEC_PMI));
	assert_false(apic_lvt_masked(lm.regs[APIC_LVTPC >> 4]));
	lm_select(1);
	assert_int_equal(lm.eois, 0);			/* B: NMI, no EOI */
	assert_false(apic_lvt_masked(lm.regs[APIC_LVTPC >> 4]));	/* B re-armed */
	lm_select(0);
	assert_int_equal(apic_stats()->pmis, 2);
}

/* Seeded platform NMIs at register accesses, PMIs raised inside handlers (LVTPC masked)
 * latched or dropped, both delivery modes. */
static void nested_pmi(void)
{
	(void)lm_pmi();		/* LVTPC is masked here: latched or dropped */
}

static void run_hostile(const char *cl, bool latch, uint64_t seed)
{
	struct trap_frame f = { .vector = APIC_VEC_PMI };
	unsigned vec_deliveries = 0, eois;

	assert_true(env_boot(XB, true, 0, cl));
	apic_set_pmi_handler(handler);
	handler_calls = 0;
	lm.on_nmi = env_nmi;
	lm.pmi_latch_masked = latch;
	lm.nmi_seed = seed;
	lm.nmi_per_mille = 60;
	eois = lm.eois;
	for (unsigned i = 0; i < 300; i++) {
		int d;

		if (i % 3 == 0)
			inside = nested_pmi;
		if (lm_pmi() == 2)
			lm_nmi();
		while ((d = lm_deliver()) >= 0) {
			assert_int_equal(d, APIC_VEC_PMI);
			vec_deliveries++;
			env_handlers[APIC_VEC_PMI](&f);
		}
		inside = NULL;
	}
	assert_int_equal(handler_calls, lm.pmis_delivered);
	assert_int_equal(handler_calls, 300 + (latch ? lm.pmis_latched : 0));
	assert_int_equal(lm.pmis_dropped, latch ? 0 : 100);
	assert_true(lm.platform_nmis > 20);
	/* each one reported, but for those that met an NMI already latched (SDM 6.7.1: one
	 * latch): the one NMI that runs is the PMU's when LVTPC is masked */
	assert_int_equal(nmi_count() + lm.nmis_merged, lm.platform_nmis);
	assert_int_equal(lm.eois, eois + vec_deliveries);
	assert_false(apic_lvt_masked(lm.regs[APIC_LVTPC >> 4]));
	for (unsigned v = 0; v < 256; v++)
		assert_false(lm_isr_set((uint8_t)v));
	assert_int_equal(apic_stats()->pmis, handler_calls);
}

static void test_hostile_nmis(void **state)
{
	static const uint64_t seeds[] = { 1, 16, 0x2545f4914f6cdd1dull, 28 };

	(void)state;
	for (unsigned s = 0; s < 4; s++)
		for (unsigned latch = 0; latch < 2; latch++) {
			run_hostile("", latch, seeds[s]);
			run_hostile("pmi=nmi", latch, seeds[s]);
			run_hostile("apic=x2apic pmi=nmi", latch, seeds[s]);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nmi_unknown_vector_mode),
		cmocka_unit_test(test_nmi_mode_classify),
		cmocka_unit_test(test_pmi_state_per_cpu),
		cmocka_unit_test(test_hostile_nmis),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
