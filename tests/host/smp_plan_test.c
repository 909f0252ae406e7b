/*
 * smp_plan_test.c: the pure parts of AP start-up (smp/boot_plan.c): trampoline placement
 * from memory maps as SeaBIOS and OVMF report them, with the boot information and page 0 in
 * the way; the INIT/SIPI delays per vendor and family; cpus= parsing (good and bad values);
 * the per-CPU selection for bsp, types (a modelled hybrid part), all and lists; and the
 * layout of an AP's area (no overlaps, alignment).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/idt.h"
#include "smp/boot_plan.h"
#include "smp/percpu.h"

#define AV MB2_MEM_AVAILABLE
#define RS MB2_MEM_RESERVED

static void test_place_seabios(void **state)
{
	/* SeaBIOS e820: 0-9fc00 RAM, 9fc00-a0000 EBDA, f0000-100000 BIOS, 1 MiB up RAM */
	const struct mb2_mmap_entry map[] = {
		{ .base = 0, .len = 0x9fc00, .type = AV },
		{ .base = 0x9fc00, .len = 0x400, .type = RS },
		{ .base = 0xf0000, .len = 0x10000, .type = RS },
		{ .base = 0x100000, .len = 0x7ee0000, .type = AV },
	};
	struct smp_range avoid[] = { { .base = 0x9e800, .len = 0x1000 } };
	struct smp_range avoid2[] = { { .base = 0x9e0ff, .len = 0x1702 } };
	const char *why;

	(void)state;
	/* the highest page whose first 100H bytes lie below the EBDA */
	assert_int_equal(smp_tramp_place(map, 4, 0x100, NULL, 0, &why), 0x9f000);
	assert_null(why);
	/* the boot information over 9e800-9f800: the page below the one it starts in */
	assert_int_equal(smp_tramp_place(map, 4, 0x100, avoid, 1, &why), 0x9e000);
	/* one byte of overlap at either end is enough to move it down a page */
	assert_int_equal(smp_tramp_place(map, 4, 0x100, avoid2, 1, &why), 0x9d000);
	/* a trampoline longer than a page still ends below the EBDA */
	assert_int_equal(smp_tramp_place(map, 4, 0x1800, NULL, 0, &why), 0x9e000);
}

static void test_place_edges(void **state)
{
	const struct mb2_mmap_entry low_only[] = {
		{ .base = 0, .len = 0x1000, .type = AV },	/* page 0 only: never used */
		{ .base = 0x100000, .len = 0x1000000, .type = AV },
	};
	const struct mb2_mmap_entry across[] = {
		{ .base = 0x80000, .len = 0x100000, .type = AV },	/* runs past A0000H */
	};
	const struct mb2_mmap_entry ragged[] = {
		{ .base = 0x2100, .len = 0xe00, .type = AV },	/* no page start inside */
		{ .base = 0x5000, .len = 0x2000, .type = RS },
	};
	struct smp_range all[] = { { .base = 0, .len = 0x100000 } };
	const char *why;

	(void)state;
	assert_int_equal(smp_tramp_place(low_only, 2, 0x100, NULL, 0, &why), 0);
	assert_non_null(why);
	assert_int_equal(smp_tramp_place(across, 1, 0x100, NULL, 0, &why), 0x9f000);
	assert_int_equal(smp_tramp_place(across, 1, 0x100, all, 1, &why), 0);
	assert_int_equal(smp_tramp_place(ragged, 2, 0x100, NULL, 0, &why), 0);
	assert_int_equal(smp_tramp_place(across, 1, 0, NULL, 0, &why), 0);
	assert_int_equal(smp_tramp_place(across, 1, 0x200000, NULL, 0, &why), 0);
	assert_int_equal(smp_tramp_place(NULL, 0, 0x100, NULL, 0, &why), 0);
}

static void test_delays(void **state)
{
	struct cpu_info ci = { .vendor = VENDOR_INTEL, .family = 6 };
	struct smp_delays d;

	(void)state;
	smp_delays_for(&ci, &d);
	assert_true(d.fast);
	assert_int_equal(d.init_us, 10);
	/* H20: every Intel family >= 6 (Linux smp_quirk_init_udelay, x86_vfm >=
	 * INTEL_PENTIUM_PRO): Pentium 4 (0FH) and the 12H/13H parts take the short path */
	for (uint32_t fam = 0xf; fam <= 0x13; fam++) {
		ci.family = fam;
		smp_delays_for(&ci, &d);
		assert_true(d.fast);
		assert_int_equal(d.init_us, 10);
	}
	ci.family = 5;		/* Pentium: the SDM's 10 ms and 200 us */
	smp_delays_for(&ci, &d);
	assert_false(d.fast);
	assert_int_equal(d.init_us, 10000);
	assert_int_equal(d.sipi_us, 200);
	ci = (struct cpu_info){ .vendor = VENDOR_AMD, .family = 0x19 };
	smp_delays_for(&ci, &d);
	assert_true(d.fast);
	ci.vendor = VENDOR_OTHER;
	smp_delays_for(&ci, &d);
	assert_false(d.fast);
}

static void test_cpus_parse(void **state)
{
	static const char *const bad[] = { "x", "2-1", "1048576", "1,", ",1", "0-", "1-2-3",
					   "types,1", "-1", "1 2", "99999999999",
					   "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17" };
	struct smp_cpus_req r;
	const char *why;

	(void)state;
	assert_true(smp_cpus_parse(NULL, &r, &why));
	assert_int_equal(r.mode, SMP_CPUS_TYPES);
	assert_true(smp_cpus_parse("", &r, &why));
	assert_int_equal(r.mode, SMP_CPUS_TYPES);
	assert_true(smp_cpus_parse("bsp", &r, &why));
	assert_int_equal(r.mode, SMP_CPUS_BSP);
	assert_true(smp_cpus_parse("all", &r, &why));
	assert_int_equal(r.mode, SMP_CPUS_ALL);
	assert_true(smp_cpus_parse("0,2-3,63", &r, &why));
	assert_int_equal(r.mode, SMP_CPUS_LIST);
	assert_int_equal(r.nranges, 3);
	assert_true(smp_cpus_named(&r, 0) && smp_cpus_named(&r, 2) && smp_cpus_named(&r, 3) &&
		    smp_cpus_named(&r, 63));
	assert_false(smp_cpus_named(&r, 1) || smp_cpus_named(&r, 4) || smp_cpus_named(&r, 64));
	/* CPU numbers past 64: a 512-CPU machine's */
	assert_true(smp_cpus_parse("1,300-511,4095", &r, &why));
	assert_true(smp_cpus_named(&r, 300) && smp_cpus_named(&r, 511) &&
		    smp_cpus_named(&r, 4095));
	assert_false(smp_cpus_named(&r, 299) || smp_cpus_named(&r, 512));
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_false(smp_cpus_parse(bad[i], &r, &why));
		assert_int_equal(r.mode, SMP_CPUS_TYPES);
		assert_non_null(why);
	}
	assert_string_equal(smp_cpus_mode_name(SMP_CPUS_LIST), "list");
	/* CPUs named that the machine does not have: the lowest one (a range cut at n) */
	assert_true(smp_cpus_parse("9", &r, &why));
	assert_int_equal(smp_cpus_missing(&r, 1), 9);
	assert_int_equal(smp_cpus_missing(&r, 10), -1);
	assert_true(smp_cpus_parse("12,2-7,0", &r, &why));
	assert_int_equal(smp_cpus_missing(&r, 4), 4);
	assert_int_equal(smp_cpus_missing(&r, 8), 12);
	assert_int_equal(smp_cpus_missing(&r, 13), -1);
	assert_true(smp_cpus_parse("all", &r, &why));
	assert_int_equal(smp_cpus_missing(&r, 1), -1);
}

static void test_select(void **state)
{
	/* a modelled hybrid part: P-core boot CPU, P, E, E (offline), E, and an offline P */
	const struct smp_cpu_view v[] = {
		{ .online = true, .core_type = 0x40 }, { .online = true, .core_type = 0x40 },
		{ .online = false, .core_type = 0x20 }, { .online = true, .core_type = 0x20 },
		{ .online = true, .core_type = 0x20 }, { .online = false, .core_type = 0x40 },
	};
	struct smp_cpus_req r = { .mode = SMP_CPUS_TYPES };
	bool sel[6];

	(void)state;
	assert_int_equal(smp_select(v, 6, &r, sel), 2);
	assert_true(sel[0] && sel[3]);
	assert_false(sel[1] || sel[2] || sel[4] || sel[5]);
	r.mode = SMP_CPUS_ALL;
	assert_int_equal(smp_select(v, 6, &r, sel), 4);
	r.mode = SMP_CPUS_BSP;
	assert_int_equal(smp_select(v, 6, &r, sel), 1);
	r = (struct smp_cpus_req){ .mode = SMP_CPUS_LIST, .nranges = 2,
				   .range = { { .lo = 2, .hi = 2 }, { .lo = 4, .hi = 4 } } };
	assert_int_equal(smp_select(v, 6, &r, sel), 2);	/* 2 is offline; 0 always */
	assert_true(sel[0] && sel[4] && !sel[2]);
}

static void test_layout(void **state)
{
	struct percpu_layout l;
	size_t lo[5], hi[5];

	(void)state;
	percpu_layout(sizeof(struct percpu), sizeof(struct gdt_cpu), &l);
	assert_int_equal(l.gdt_off % 16, 0);
	assert_true(l.gdt_off >= sizeof(struct percpu));
	assert_int_equal(l.idt_off % 4096, 0);
	assert_true(l.idt_off >= l.gdt_off + sizeof(struct gdt_cpu));
	assert_int_equal(l.total % 4096, 0);
	lo[0] = l.idt_off; hi[0] = l.idt_off + IDT_BYTES;
	lo[1] = l.stack_off; hi[1] = l.stack_off + PERCPU_STACK;
	for (unsigned i = 0; i < 3; i++) {
		lo[2 + i] = l.ist_off[i];
		hi[2 + i] = l.ist_off[i] + PERCPU_IST;
	}
	/* a guard page right below each stack, overlapping nothing else */
	assert_int_equal(l.guard_off[0] + 4096, l.stack_off);
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(l.guard_off[1 + i] + 4096, l.ist_off[i]);
	for (unsigned g = 0; g < 4; g++) {
		assert_int_equal(l.guard_off[g] % 4096, 0);
		assert_true(l.guard_off[g] >= l.idt_off + IDT_BYTES);
		for (unsigned i = 0; i < 5; i++)
			assert_true(l.guard_off[g] + 4096 <= lo[i] || hi[i] <= l.guard_off[g]);
	}
	for (unsigned i = 0; i < 5; i++) {
		assert_int_equal(lo[i] % 4096, 0);
		assert_int_equal(hi[i] % 16, 0);
		assert_true(hi[i] <= l.total);
		for (unsigned j = 0; j < i; j++)
			assert_true(hi[i] <= lo[j] || hi[j] <= lo[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_place_seabios),
		cmocka_unit_test(test_place_edges),
		cmocka_unit_test(test_delays),
		cmocka_unit_test(test_cpus_parse),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_layout),
	};

	return cmocka_run_group_tests_name("smp_plan", tests, NULL, NULL);
}
