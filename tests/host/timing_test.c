/*
 * timing_test.c: the budget decision of loads/timing.c over every combination of platform
 * (bare metal or hardware virtualisation with and without an invariant TSC, software
 * emulation) and `timing=` option: a real machine or KVM with an invariant TSC keeps the full
 * budget and judges timing; emulation or no invariant TSC gets the brief budget and SKIPs its
 * verdicts with the reason; timing=brief shortens and SKIPs anywhere; timing=full restores the
 * budget but never makes emulated timing judgeable. Working sets are capped only where nothing
 * judges them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "loads/timing.h"

#define EMU "software emulation (hypervisor \"TCGTCGTCGTCG\"): no cache timing to judge"

static struct timing_plan decide(const char *emu, bool invtsc, enum timing_opt opt)
{
	struct timing_facts f = { .emulated = emu, .invariant_tsc = invtsc, .opt = opt };
	struct timing_plan p;

	memset(&p, 0xa5, sizeof(p));	/* every field must be written */
	timing_decide(&f, &p);
	return p;
}

static void parse(void **state)
{
	(void)state;
	assert_int_equal(timing_opt_parse(NULL), TIMING_AUTO);
	assert_int_equal(timing_opt_parse(""), TIMING_AUTO);
	assert_int_equal(timing_opt_parse("auto"), TIMING_AUTO);
	assert_int_equal(timing_opt_parse("brief"), TIMING_BRIEF);
	assert_int_equal(timing_opt_parse("full"), TIMING_FULL);
	assert_int_equal(timing_opt_parse("Brief"), TIMING_OPT_BAD);
	assert_int_equal(timing_opt_parse("briefer"), TIMING_OPT_BAD);
	assert_int_equal(timing_opt_parse("short"), TIMING_OPT_BAD);
}

static void real_machine_keeps_full_budget(void **state)
{
	struct timing_plan p = decide(NULL, true, TIMING_AUTO);

	(void)state;
	assert_false(p.brief);
	assert_int_equal(p.budget_ms, TIMING_FULL_MS);
	assert_null(p.unjudged);
	p = decide(NULL, true, TIMING_OPT_BAD);	/* a bad value: the platform decides */
	assert_false(p.brief);
	assert_null(p.unjudged);
	p = decide(NULL, true, TIMING_FULL);
	assert_false(p.brief);
	assert_null(p.unjudged);
}

static void emulation_is_brief_and_unjudged(void **state)
{
	struct timing_plan p = decide(EMU, false, TIMING_AUTO);

	(void)state;
	assert_true(p.brief);
	assert_int_equal(p.budget_ms, TIMING_BRIEF_MS);
	assert_string_equal(p.unjudged, EMU);	/* the platform's reason, not the budget's */
	p = decide(EMU, true, TIMING_AUTO);	/* an emulated invariant-TSC bit changes nothing */
	assert_true(p.brief);
	assert_string_equal(p.unjudged, EMU);
	p = decide(EMU, true, TIMING_FULL);	/* full budget, still never judged */
	assert_false(p.brief);
	assert_int_equal(p.budget_ms, TIMING_FULL_MS);
	assert_string_equal(p.unjudged, EMU);
}

static void no_invariant_tsc_is_brief_and_unjudged(void **state)
{
	struct timing_plan p = decide(NULL, false, TIMING_AUTO);

	(void)state;
	assert_true(p.brief);
	assert_int_equal(p.budget_ms, TIMING_BRIEF_MS);
	assert_non_null(strstr(p.unjudged, "invariant TSC"));
	p = decide(NULL, false, TIMING_FULL);
	assert_false(p.brief);
	assert_non_null(strstr(p.unjudged, "invariant TSC"));
}

static void brief_option_shortens_and_skips_anywhere(void **state)
{
	struct timing_plan p = decide(NULL, true, TIMING_BRIEF);

	(void)state;
	assert_true(p.brief);
	assert_int_equal(p.budget_ms, TIMING_BRIEF_MS);
	assert_non_null(strstr(p.unjudged, "timing=brief"));
	p = decide(EMU, false, TIMING_BRIEF);	/* the platform's reason wins */
	assert_true(p.brief);
	assert_string_equal(p.unjudged, EMU);
	assert_true(TIMING_BRIEF_MS < TIMING_FULL_MS);
}

static void working_set_capped_only_where_unjudged(void **state)
{
	struct timing_plan full = decide(NULL, true, TIMING_AUTO);
	struct timing_plan emu = decide(EMU, false, TIMING_AUTO);
	struct timing_plan emu_full = decide(EMU, false, TIMING_FULL);
	struct timing_plan brief = decide(NULL, true, TIMING_BRIEF);
	const uint64_t want = 64ull << 20, cap = 8ull << 20;

	(void)state;
	assert_int_equal(timing_ws(&full, false, want, cap), want);
	assert_int_equal(timing_ws(&full, true, want, cap), want);
	assert_int_equal(timing_ws(&emu, false, want, cap), cap);
	assert_int_equal(timing_ws(&emu_full, false, want, cap), cap);
	assert_int_equal(timing_ws(&brief, false, want, cap), cap);
	/* a PEBS step needs the real working set (its verdict is the data source) */
	assert_int_equal(timing_ws(&brief, true, want, cap), want);
	assert_int_equal(timing_ws(&emu, true, want, cap), want);
	/* never grown */
	assert_int_equal(timing_ws(&emu, false, cap / 2, cap), cap / 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse),
		cmocka_unit_test(real_machine_keeps_full_budget),
		cmocka_unit_test(emulation_is_brief_and_unjudged),
		cmocka_unit_test(no_invariant_tsc_is_brief_and_unjudged),
		cmocka_unit_test(brief_option_shortens_and_skips_anywhere),
		cmocka_unit_test(working_set_capped_only_where_unjudged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
