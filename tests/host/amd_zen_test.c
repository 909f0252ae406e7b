/*
 * amd_zen_test.c: Zen generations by family/model (ibs/amd_zen.c) against Linux
 * arch/x86/kernel/cpu/amd.c bsp_init_amd (v6.12.117: X86_FEATURE_ZEN1..ZEN5; Zen 6 patches):
 * every range edge, the lab's fixtures (tests/fixtures/cpuid), parts no source places, and
 * the table's own shape (no overlapping ranges, a source on every row).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ibs/amd_zen.h"

static const struct {
	unsigned family, model;
	const char *name;	/* NULL: no generation */
} cases[] = {
	{ 0x17, 0x01, "Zen 1" },	/* tests/fixtures/cpuid/zen1.txt, this_vm_epyc_kvm.txt */
	{ 0x17, 0x08, "Zen 1" },	/* Zen+ is ZEN1 in Linux */
	{ 0x17, 0x2f, "Zen 1" }, { 0x17, 0x30, "Zen 2" }, { 0x17, 0x31, "Zen 2" },
	{ 0x17, 0x4f, "Zen 2" }, { 0x17, 0x50, "Zen 1" }, { 0x17, 0x5f, "Zen 1" },
	{ 0x17, 0x60, "Zen 2" }, { 0x17, 0x71, "Zen 2" }, { 0x17, 0x80, NULL },
	{ 0x17, 0x90, "Zen 2" }, { 0x17, 0x91, "Zen 2" }, { 0x17, 0x92, NULL },
	{ 0x17, 0xa0, "Zen 2" }, { 0x17, 0xb0, NULL },
	{ 0x19, 0x01, "Zen 3" }, { 0x19, 0x0f, "Zen 3" }, { 0x19, 0x10, "Zen 4" },
	{ 0x19, 0x11, "Zen 4" }, { 0x19, 0x1f, "Zen 4" }, { 0x19, 0x20, "Zen 3" },
	{ 0x19, 0x21, "Zen 3" },	/* zen3_vermeer.txt */
	{ 0x19, 0x5f, "Zen 3" }, { 0x19, 0x60, "Zen 4" },
	{ 0x19, 0x61, "Zen 4" },	/* zen4_raphael.txt */
	{ 0x19, 0xaf, "Zen 4" }, { 0x19, 0xb0, NULL },
	{ 0x1a, 0x02, "Zen 5" },	/* zen5_turin.txt (Turin, 1Ah model 02h) */
	{ 0x1a, 0x2f, "Zen 5" }, { 0x1a, 0x30, NULL }, { 0x1a, 0x40, "Zen 5" },
	{ 0x1a, 0x50, "Zen 6" }, { 0x1a, 0x5f, "Zen 6" }, { 0x1a, 0x60, "Zen 5" },
	{ 0x1a, 0x7f, "Zen 5" }, { 0x1a, 0x80, "Zen 6" }, { 0x1a, 0xaf, "Zen 6" },
	{ 0x1a, 0xb0, NULL }, { 0x1a, 0xc0, "Zen 6" }, { 0x1a, 0xd0, "Zen 5" },
	{ 0x1a, 0xd7, "Zen 5" }, { 0x1a, 0xd8, "Zen 6" }, { 0x1a, 0xef, "Zen 6" },
	{ 0x1a, 0xf0, NULL },
	{ 0x15, 0x02, NULL },	/* Bulldozer family: not Zen */
	{ 0x18, 0x00, NULL },	/* Hygon: not in bsp_init_amd's Zen switch */
	{ 0x06, 0x5e, NULL },
};

static void test_lookup(void **state)
{
	(void)state;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct amd_zen *z = amd_zen_lookup(cases[i].family, cases[i].model);

		if (!cases[i].name) {
			if (z)
				fail_msg("%02XH/%02XH: %s, expected none", cases[i].family,
					 cases[i].model, z->name);
			continue;
		}
		if (!z || strcmp(z->name, cases[i].name))
			fail_msg("%02XH/%02XH: %s, expected %s", cases[i].family, cases[i].model,
				 z ? z->name : "none", cases[i].name);
	}
}

/* Rows never overlap except where a narrower row is listed first on purpose (1Ah D0-D7). */
static void test_rows(void **state)
{
	const struct amd_zen *a, *b;
	unsigned overlaps = 0;

	(void)state;
	for (unsigned i = 0; (a = amd_zen_at(i)) != NULL; i++) {
		assert_non_null(a->source);
		assert_true(strstr(a->source, "amd.c") != NULL);
		assert_true(a->model_lo <= a->model_hi);
		for (unsigned j = i + 1; (b = amd_zen_at(j)) != NULL; j++)
			if (a->family == b->family && a->model_lo <= b->model_hi &&
			    b->model_lo <= a->model_hi) {
				overlaps++;
				assert_true(a->family == 0x1a && a->model_lo == 0xd0);
			}
	}
	assert_int_equal(overlaps, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
