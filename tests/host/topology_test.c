/*
 * topology_test.c: smp/topology.c against CPUID leaf values of real shapes (SDM Vol. 2A CPUID
 * leaves 0BH/1FH; Vol. 3A 9.9): a 2-thread core with 4 core bits (leaf 0BH), a hybrid part
 * whose E-cores have no SMT sibling but keep the SMT bit in their x2APIC ID (leaf 1FH, as
 * on Alder Lake: P-core threads 0-15, E-cores 32, 34, ...), a leaf 1FH with module and die
 * levels, broken leaves, the CPUID.1 fallback, and the package/core/thread counts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "smp/topology.h"

/* one subleaf: shift to the next level, logical processors at this level, type, x2APIC ID */
static struct cpuid_regs sub(uint32_t shift, uint32_t count, uint32_t type, uint32_t id,
			     uint32_t index)
{
	return (struct cpuid_regs){ .eax = shift, .ebx = count, .ecx = (type << 8) | index,
				    .edx = id };
}

static void test_leaf_0b(void **state)
{
	struct cpuid_regs s[3] = { sub(1, 2, 1, 0x0b, 0), sub(4, 16, 2, 0x0b, 1),
				   sub(0, 0, 0, 0x0b, 2) };
	struct cpu_topo t;

	(void)state;
	assert_true(topo_decode_leaf(s, 3, 0xb, &t));
	assert_int_equal(t.leaf, 0xb);
	assert_int_equal(t.x2apic_id, 0x0b);
	assert_int_equal(t.thread, 1);
	assert_int_equal(t.core, 5);
	assert_int_equal(t.package, 0);
	for (unsigned i = 0; i < 3; i++)
		s[i].edx = 0x1b;	/* second package */
	assert_true(topo_decode_leaf(s, 3, 0xb, &t));
	assert_int_equal(t.package, 1);
	assert_int_equal(t.core, 5);
}

static void test_leaf_1f_hybrid_and_levels(void **state)
{
	struct cpuid_regs e[3] = { sub(1, 1, 1, 0x22, 0), sub(7, 24, 2, 0x22, 1),
				   sub(0, 0, 0, 0x22, 2) };
	struct cpuid_regs lv[5] = { sub(1, 2, 1, 0x1a5, 0), sub(3, 8, 2, 0x1a5, 1),
				    sub(5, 32, 3, 0x1a5, 2), sub(7, 128, 5, 0x1a5, 3),
				    sub(0, 0, 0, 0x1a5, 4) };
	struct cpu_topo t;

	(void)state;
	assert_true(topo_decode_leaf(e, 3, 0x1f, &t));
	assert_int_equal(t.thread, 0);
	assert_int_equal(t.core, 0x11);
	assert_int_equal(t.package, 0);
	/* module and die bits belong to the core number: unique within the package */
	assert_true(topo_decode_leaf(lv, 5, 0x1f, &t));
	assert_int_equal(t.smt_shift, 1);
	assert_int_equal(t.pkg_shift, 7);
	assert_int_equal(t.thread, 1);
	assert_int_equal(t.core, (0x1a5 >> 1) & 0x3f);
	assert_int_equal(t.package, 3);
}

static void test_broken_leaves(void **state)
{
	struct cpuid_regs none[1] = { sub(0, 0, 0, 7, 0) };
	struct cpuid_regs shrink[3] = { sub(4, 2, 1, 0x35, 0), sub(2, 16, 2, 0x35, 1),
					sub(0, 0, 0, 0x35, 2) };
	struct cpuid_regs wide[2] = { sub(31, 2, 1, 0xffffffff, 0), sub(31, 2, 2, 0xffffffff, 1) };
	struct cpuid_regs many[12];
	struct cpu_topo t;

	(void)state;
	assert_false(topo_decode_leaf(none, 1, 0xb, &t));
	assert_false(topo_decode_leaf(none, 0, 0xb, &t));
	/* a core level narrower than the SMT level: the walk stops at the SMT level */
	assert_true(topo_decode_leaf(shrink, 3, 0xb, &t));
	assert_int_equal(t.pkg_shift, 4);
	assert_int_equal(t.thread, 5);
	assert_int_equal(t.package, 3);
	assert_true(topo_decode_leaf(wide, 2, 0xb, &t));
	assert_int_equal(t.thread, 0x7fffffff);
	assert_int_equal(t.package, 1);
	for (unsigned i = 0; i < 12; i++)
		many[i] = sub(i + 1, 2, 2, 9, i);
	assert_true(topo_decode_leaf(many, 12, 0xb, &t));	/* read at most 8 */
	assert_int_equal(t.pkg_shift, TOPO_MAX_SUBLEAVES);
}

static void test_legacy(void **state)
{
	struct cpu_topo t;

	(void)state;
	/* CPUID.1:EBX[23:16] = 6 logical per package, HTT set: 3 bits below the package */
	topo_decode_legacy(13, 6u << 16, 1u << 28, &t);
	assert_int_equal(t.leaf, 1);
	assert_int_equal(t.pkg_shift, 3);
	assert_int_equal(t.core, 5);
	assert_int_equal(t.package, 1);
	/* without HTT the count is not valid: every APIC ID is its own package */
	topo_decode_legacy(13, 6u << 16, 0, &t);
	assert_int_equal(t.package, 13);
	assert_int_equal(t.core, 0);
}

static void test_count(void **state)
{
	struct cpu_topo t[6] = {
		{ .package = 0, .core = 0, .thread = 0 }, { .package = 0, .core = 0, .thread = 1 },
		{ .package = 0, .core = 1, .thread = 0 }, { .package = 1, .core = 0, .thread = 0 },
		{ .package = 1, .core = 0, .thread = 1 }, { .package = 1, .core = 3, .thread = 0 },
	};
	struct topo_counts c;

	(void)state;
	topo_count(t, 6, &c);
	assert_int_equal(c.packages, 2);
	assert_int_equal(c.cores, 4);
	assert_int_equal(c.threads, 6);
	topo_count(t, 0, &c);
	assert_int_equal(c.packages + c.cores + c.threads, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_leaf_0b),
		cmocka_unit_test(test_leaf_1f_hybrid_and_levels),
		cmocka_unit_test(test_broken_leaves),
		cmocka_unit_test(test_legacy),
		cmocka_unit_test(test_count),
	};

	return cmocka_run_group_tests_name("topology", tests, NULL, NULL);
}
