/*
 * geometry_test.c: cache geometry decode against CPUID dumps fed through a fake
 * cpuid_count(): this build VM's AMD EPYC (8000_001DH and the legacy 8000_0005H/6H words,
 * captured with __cpuid_count on 2026-11-21), an Intel Skylake client leaf-04H dump
 * (SDM Vol. 2A Table 3-8 layout), a CPU with no cache leaves (defaults), and overrides.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/hw.h"
#include "loads/geometry.h"
#include "stubs/console_capture.h"

struct row {
	uint32_t leaf, sub, a, b, c, d;
};

static const struct row *rows;

void cpuid_count(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	memset(r, 0, sizeof(*r));
	for (const struct row *x = rows; x && x->leaf; x++) {
		if (x->leaf == leaf && x->sub == subleaf) {
			r->eax = x->a;
			r->ebx = x->b;
			r->ecx = x->c;
			r->edx = x->d;
			return;
		}
	}
}

/* AMD EPYC (family 19h model 01h) in this VM. */
static const struct row epyc[] = {
	{ 0x80000001, 0, 0x00a00f11, 0x40000000, 0x00c003f3, 0x2fd3fbff },
	{ 0x80000005, 0, 0xff40ff40, 0xff40ff40, 0x20080140, 0x20080140 },
	{ 0x80000006, 0, 0x48002200, 0x68004200, 0x02006140, 0x08009140 },
	{ 0x8000001d, 0, 0x00000121, 0x01c0003f, 0x0000003f, 0 },
	{ 0x8000001d, 1, 0x00000122, 0x01c0003f, 0x0000003f, 0 },
	{ 0x8000001d, 2, 0x00000143, 0x01c0003f, 0x000003ff, 2 },
	{ 0x8000001d, 3, 0x00004163, 0x03c0003f, 0x00007fff, 1 },
	{ 0, 0, 0, 0, 0, 0 },
};

/* Intel Core i7-6700 (Skylake client), CPUID.04H subleaves 0-3. */
static const struct row skylake[] = {
	{ 4, 0, 0x1c004121, 0x01c0003f, 0x0000003f, 0 },
	{ 4, 1, 0x1c004122, 0x01c0003f, 0x0000003f, 0 },
	{ 4, 2, 0x1c004143, 0x00c0003f, 0x000003ff, 0 },
	{ 4, 3, 0x1c03c163, 0x03c0003f, 0x00001fff, 6 },
	{ 0, 0, 0, 0, 0, 0 },
};

static struct cpu_info amd_cpu(void)
{
	struct cpu_info c = { .vendor = VENDOR_AMD, .max_leaf = 0x10, .max_ext_leaf = 0x80000022 };

	return c;
}

static void test_amd_1d(void **state)
{
	struct cache_geometry g;
	struct cpu_info c = amd_cpu();

	(void)state;
	rows = epyc;
	geometry_probe(&g, &c);
	assert_int_equal(g.l1d.size, 32 << 10);
	assert_int_equal(g.l1d.ways, 8);
	assert_int_equal(g.l1d.sets, 64);
	assert_int_equal(g.l1d.line, 64);
	assert_int_equal(g.l1d.sharing, 1);
	assert_int_equal(g.l1d.src, CSRC_AMD_1D);
	assert_int_equal(g.l2.size, 512 << 10);
	assert_int_equal(g.l2.ways, 8);
	assert_int_equal(g.l3.size, 32 << 20);
	assert_int_equal(g.l3.ways, 16);
	assert_int_equal(g.l3.sets, 32768);
	assert_int_equal(g.l3.sharing, 2);
	assert_int_equal(g.l3.src, CSRC_AMD_1D);
}

static void test_amd_legacy(void **state)
{
	struct cache_geometry g;
	struct cpu_info c = amd_cpu();
	struct row noext[8];

	(void)state;
	/* Same CPU without TopologyExtensions: the legacy words decide. */
	memcpy(noext, epyc, sizeof(noext));
	noext[0].c &= ~(1u << 22);
	rows = noext;
	geometry_probe(&g, &c);
	assert_int_equal(g.l1d.src, CSRC_AMD_LEGACY);
	assert_int_equal(g.l1d.size, 32 << 10);
	assert_int_equal(g.l1d.ways, 8);
	assert_int_equal(g.l2.size, 512 << 10);
	assert_int_equal(g.l2.ways, 8);		/* code 6 */
	assert_int_equal(g.l2.sets, 1024);
	assert_int_equal(g.l3.size, 256ull << 20);	/* 0x200 x 512 KiB, as this VM reports */
	assert_int_equal(g.l3.ways, 0);		/* code 9: "see 8000001DH" -> unknown */
	assert_int_equal(g.l3.src, CSRC_AMD_LEGACY);
}

static void test_intel_leaf4(void **state)
{
	struct cache_geometry g;
	struct cpu_info c = { .vendor = VENDOR_INTEL, .max_leaf = 0x16, .max_ext_leaf = 0x80000008 };

	(void)state;
	rows = skylake;
	geometry_probe(&g, &c);
	assert_int_equal(g.l1d.size, 32 << 10);	/* the L1I (type 2) is skipped */
	assert_int_equal(g.l2.size, 256 << 10);
	assert_int_equal(g.l2.ways, 4);
	assert_int_equal(g.l3.size, 8 << 20);
	assert_int_equal(g.l3.ways, 16);
	assert_int_equal(g.l3.sharing, 16);
	assert_int_equal(g.l3.src, CSRC_LEAF4);
}

static void test_defaults(void **state)
{
	struct cache_geometry g;
	struct cpu_info c = { .vendor = VENDOR_OTHER, .max_leaf = 1, .max_ext_leaf = 0 };

	(void)state;
	rows = NULL;
	geometry_probe(&g, &c);
	assert_int_equal(g.l1d.size, GEOM_DEFAULT_L1D);
	assert_int_equal(g.l2.size, GEOM_DEFAULT_L2);
	assert_int_equal(g.l3.size, GEOM_DEFAULT_L3);
	assert_int_equal(g.l3.src, CSRC_DEFAULT);
	stub_console_reset();
	geometry_print(&g);
	assert_non_null(strstr(stub_console_text(), "# cache: L3  8M, 64 B line, ways unknown (default, CPUID gave none)\n"));
}

static void test_override_and_print(void **state)
{
	struct cache_geometry g;
	struct cpu_info c = amd_cpu();
	char b[16];

	(void)state;
	rows = epyc;
	geometry_probe(&g, &c);
	geometry_override(&g, 48 << 10, 0, 6 << 20);
	assert_int_equal(g.l1d.size, 48 << 10);
	assert_true(g.l1d.overridden);
	assert_int_equal(g.l1d.sets, 96);
	assert_int_equal(g.l2.size, 512 << 10);
	assert_false(g.l2.overridden);
	assert_int_equal(g.l3.size, 6 << 20);
	stub_console_reset();
	geometry_print(&g);
	assert_string_equal(stub_console_text(),
		"# cache: L1d 48K, 64 B line, 8-way, 96 sets, shared by 1 (size from command line; CPUID 8000001DH)\n"
		"# cache: L2  512K, 64 B line, 8-way, 1024 sets, shared by 1 (CPUID 8000001DH)\n"
		"# cache: L3  6M, 64 B line, 16-way, 6144 sets, shared by 2 (size from command line; CPUID 8000001DH)\n");
	assert_string_equal(geometry_size_str(1536 << 10, b, sizeof(b)), "1536K");
	assert_string_equal(geometry_size_str(1ull << 30, b, sizeof(b)), "1G");
	assert_string_equal(geometry_size_str(100, b, sizeof(b)), "100");
}

/* One leaf-04H subleaf from its fields (SDM Vol. 2A Table 3-8), for made-up hybrid rows. */
static struct row det(uint32_t sub, unsigned type, unsigned level, unsigned sharing,
		      unsigned ways, unsigned sets)
{
	struct row r = { 4, sub, type | level << 5 | (sharing - 1) << 14,
			 (64 - 1) | (ways - 1) << 22, sets - 1, 0 };

	return r;
}

/* Alder Lake: the boot P-core (Golden Cove: L1d 48K 12-way, L2 1.25M 10-way) and an E-core
 * (Gracemont: L1d 32K 8-way, L2 2M 16-way shared by its module of 4), L3 30M 12-way both. */
static void test_hybrid_per_cpu(void **state)
{
	struct cpu_info c = { .vendor = VENDOR_INTEL, .max_leaf = 0x20, .max_ext_leaf = 0x80000008 };
	struct row pcore[] = { det(0, 1, 1, 2, 12, 64), det(1, 2, 1, 2, 8, 64),
			       det(2, 3, 2, 2, 10, 2048), det(3, 3, 3, 32, 12, 40960), { 0 } };
	struct row ecore[] = { det(0, 1, 1, 1, 8, 64), det(1, 2, 1, 1, 8, 64),
			       det(2, 3, 2, 4, 16, 2048), det(3, 3, 3, 32, 12, 40960), { 0 } };
	struct cache_geometry boot, e;
	char b[64];

	(void)state;
	rows = pcore;
	geometry_probe(&boot, &c);
	assert_string_equal(geometry_sizes_str(&boot, b, sizeof(b)), "l1d=48K l2=1280K l3=30M");
	rows = ecore;		/* the same probe, now on the E-core */
	geometry_probe_cpu(&e, &c, &boot);
	assert_string_equal(geometry_sizes_str(&e, b, sizeof(b)), "l1d=32K l2=2M l3=30M");
	assert_int_equal(e.l2.ways, 16);
	assert_int_equal(e.l2.sharing, 4);
	assert_false(e.l2.overridden);
	/* l2= on the command line holds on every CPU; the other levels stay the E-core's own */
	geometry_override(&boot, 0, 4u << 20, 0);
	geometry_probe_cpu(&e, &c, &boot);
	assert_string_equal(geometry_sizes_str(&e, b, sizeof(b)), "l1d=32K l2=4M l3=30M");
	assert_true(e.l2.overridden);
	assert_int_equal(e.l2.sets, 4096);	/* 4M / (64 B x 16 ways) */
	assert_false(e.l1d.overridden);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_amd_1d),
		cmocka_unit_test(test_amd_legacy),
		cmocka_unit_test(test_intel_leaf4),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_override_and_print),
		cmocka_unit_test(test_hybrid_per_cpu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
