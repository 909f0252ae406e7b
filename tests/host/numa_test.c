/*
 * numa_test.c: the SRAT and SLIT parsers and the NUMA lookups (platform/numa.h; ACPI 6.5
 * §5.2.16, §5.2.17) against tables built in memory (tests/host/numa_image.c): the two-node
 * machine QEMU describes, x2APIC and revision-2 domains, the header line, the whole walk from
 * an RSDP, and malformed, truncated and hostile tables (each in a heap block of exactly its
 * length, so ASan catches any read past it), plus a seeded random-bytes sweep.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "platform/numa.h"
#include "stubs/console_capture.h"
#include "host/numa_image.h"

static struct numa_info n;
static struct tbl tb;

#define reset_keep_cpus numa_image_reset

struct mem {
	uint8_t *p;
	size_t n;
};

static const void *mem_map(void *ctx, uint64_t phys, uint64_t len)
{
	struct mem *m = ctx;

	return phys > m->n || len > m->n - phys ? NULL : m->p + phys;
}

static void test_qemu_two_nodes(void **state)
{
	static const uint8_t d[] = { 10, 21, 21, 10 };
	uint64_t b, e;
	char line[200];

	(void)state;
	reset_keep_cpus(&n);
	srat_qemu_two_nodes(&tb);
	assert_int_equal(tbl_parse_srat(&tb, &n), 0);
	assert_true(n.have_srat);
	assert_int_equal(numa_nodes(&n), 2);
	assert_int_equal(n.ncpu, 4);
	assert_int_equal(numa_node_of_apic(&n, 0), 0);
	assert_int_equal(numa_node_of_apic(&n, 3), 1);
	assert_int_equal(numa_node_of_apic(&n, 4), -1);
	assert_int_equal(numa_node_of_phys(&n, 0x1000), 0);
	assert_int_equal(numa_node_of_phys(&n, 0xb0000), -1);	/* the 640K-1M hole */
	assert_int_equal(numa_node_of_phys(&n, (512u << 20) - 1), 0);
	assert_int_equal(numa_node_of_phys(&n, 512u << 20), 1);
	assert_int_equal(numa_node_of_phys(&n, 1u << 30), -1);
	assert_int_equal(numa_node_of_range(&n, 0x100000, 0x1000), 0);
	assert_int_equal(numa_node_of_range(&n, 512u << 20, 512u << 20), 1);
	assert_int_equal(numa_node_of_range(&n, (512u << 20) - 4096, 8192), -1);	/* 2 nodes */
	assert_int_equal(numa_node_of_range(&n, 0x9f000, 0x2000), -1);	/* into the hole */
	assert_int_equal(numa_node_of_range(&n, (1u << 30) - 4096, 8192), -1);	/* past RAM */
	assert_int_equal(numa_node_of_range(&n, 0x1000, 0), -1);
	assert_int_equal(numa_node_of_range(&n, ~0ull - 10, 100), -1);		/* wraps */
	assert_true(numa_node_range(&n, 1, 0, &b, &e));
	assert_int_equal(b, 512u << 20);
	assert_int_equal(e, 1u << 30);
	assert_false(numa_node_range(&n, 1, 1, &b, &e));
	assert_true(numa_node_range(&n, 0, 1, &b, &e));
	assert_int_equal(b, 0x100000);
	assert_int_equal(numa_distance(&n, 0, 1), NUMA_REMOTE_DISTANCE);	/* no SLIT */
	numa_header_line(&n, line, sizeof(line));
	assert_string_equal(line, "numa: 2 nodes, distances 10 20/20 10 (no SLIT: 10 local, "
			    "20 remote)");
	/* the per-node and per-range detail is behind the verbose option */
	assert_true(numa_detail_line(&n, 0, line, sizeof(line)));
	assert_string_equal(line, "numa-node: 0 pxm 0: 2 CPUs, 511 MiB; distances 10 20");
	assert_true(numa_detail_line(&n, 1, line, sizeof(line)));
	assert_string_equal(line, "numa-node: 1 pxm 1: 2 CPUs, 512 MiB; distances 20 10");
	assert_true(numa_detail_line(&n, 3, line, sizeof(line)));
	assert_string_equal(line, "numa-mem: node 0 [0x100000, 0x20000000)");
	assert_true(numa_detail_line(&n, 4, line, sizeof(line)));
	assert_false(numa_detail_line(&n, 5, line, sizeof(line)));
	assert_int_equal(slit_parse(&tb, &n, 2, d, sizeof(d)), 0);
	assert_int_equal(numa_distance(&n, 0, 1), 21);
	assert_int_equal(numa_distance(&n, 1, 1), 10);
	assert_int_equal(numa_distance(&n, 2, 0), 0);
	numa_header_line(&n, line, sizeof(line));
	assert_string_equal(line, "numa: 2 nodes, distances 10 21/21 10 (SLIT)");
	numa_header_line(&n, line, 20);		/* truncated, terminated */
	assert_int_equal(strlen(line), 19);
}

static void test_no_srat_is_one_node(void **state)
{
	char line[64];

	(void)state;
	reset_keep_cpus(&n);
	assert_int_equal(numa_nodes(&n), 1);
	assert_int_equal(numa_node_of_apic(&n, 77), 0);
	assert_int_equal(numa_node_of_phys(&n, 1ull << 40), 0);
	assert_int_equal(numa_node_of_range(&n, 1ull << 40, 4096), 0);
	assert_int_equal(numa_distance(&n, 0, 0), 10);
	assert_int_equal(numa_distance(&n, 0, 1), 0);
	numa_header_line(&n, line, sizeof(line));
	assert_string_equal(line, "numa: 1 node (no SRAT)");
}

/* x2APIC entries; domain numbers far apart become nodes 0, 1 in ascending order; the
 * type-0 domain's high bytes count from revision 2 only. */
static void test_x2apic_and_domain_bits(void **state)
{
	(void)state;
	tbl_srat(&tb, 3);
	srat_x2apic(&tb, 0x1000, 0x700, 1);
	srat_lapic(&tb, 5, 0x0300, 1);
	srat_mem(&tb, 1ull << 32, 1ull << 30, 0x700, 1 | 2);	/* hot-pluggable */
	assert_int_equal(tbl_parse_srat(&tb, &n), 0);
	assert_int_equal(n.nnodes, 2);
	assert_int_equal(n.node_pxm[0], 0x300);
	assert_int_equal(n.node_pxm[1], 0x700);
	assert_int_equal(numa_node_of_apic(&n, 0x1000), 1);
	assert_int_equal(numa_node_of_apic(&n, 5), 0);
	assert_true(n.cpu[0].x2apic);
	assert_true(n.mem[0].hotplug);
	assert_int_equal(numa_node_bytes(&n, 1), 0);	/* hot-plug memory is not counted */

	srat_mem(&tb, (1ull << 32) + (1ull << 30), 1ull << 20, 0x700, 1);	/* adjoins it */
	assert_int_equal(tbl_parse_srat(&tb, &n), 0);
	assert_int_equal(numa_node_of_range(&n, (1ull << 32) + (1ull << 30) - 4096, 8192), 1);

	tbl_srat(&tb, 1);		/* revision 1: domains are bits 7:0 only */
	srat_lapic(&tb, 5, 0x0300, 1);
	srat_mem(&tb, 0, 1 << 20, 0x0100, 1);
	assert_int_equal(tbl_parse_srat(&tb, &n), 0);
	assert_int_equal(n.nnodes, 1);
	assert_int_equal(n.node_pxm[0], 0);
}

static void test_walk_from_rsdp(void **state)
{
	enum { XS = 64, SR = 256, SL = 1024, SZ = 1100 };
	static const uint8_t d[] = { 10, 31, 31, 10 };
	uint8_t *mem = calloc(1, SZ), *t, rsdp[36] = "RSD PTR ";
	struct mem m = { mem, SZ };
	static struct acpi_info ai;	/* acpi_init keeps the caller's madt.cpu */
	static struct tbl x;

	(void)state;
	srat_qemu_two_nodes(&tb);
	t = tbl_done(&tb);
	memcpy(mem + SR, t, tb.len);
	free(t);
	tbl_slit(&tb, 2, d, sizeof(d));
	t = tbl_done(&tb);
	memcpy(mem + SL, t, tb.len);
	free(t);
	memset(x.b, 0, 36 + 16);
	memcpy(x.b, "XSDT", 4);
	x.b[8] = 1;
	x.len = 36 + 16;
	x.b[36] = SR & 0xff;
	x.b[37] = SR >> 8;
	x.b[44] = SL & 0xff;
	x.b[45] = SL >> 8;
	t = tbl_done(&x);
	memcpy(mem + XS, t, x.len);
	free(t);
	rsdp[15] = 2;
	rsdp[20] = 36;
	rsdp[24] = XS;
	rsdp[8] = (uint8_t)(0x100 - acpi_checksum(rsdp, 20));
	rsdp[32] = (uint8_t)(0x100 - acpi_checksum(rsdp, 36));
	assert_int_equal(acpi_init(&ai, rsdp, sizeof(rsdp), mem_map, &m), 0);
	numa_from_acpi(&n, &ai, mem_map, &m, NULL, NULL);
	assert_true(n.have_srat);
	assert_true(n.have_slit);
	assert_int_equal(numa_distance(&n, 1, 0), 31);
	ai.valid = false;
	numa_from_acpi(&n, &ai, mem_map, &m, NULL, NULL);
	assert_false(n.have_srat);
	free(mem);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qemu_two_nodes),
		cmocka_unit_test(test_no_srat_is_one_node),
		cmocka_unit_test(test_x2apic_and_domain_bits),
		cmocka_unit_test(test_walk_from_rsdp),
	};

	numa_image_storage(&n);	/* fixed storage, kept by every parse */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
