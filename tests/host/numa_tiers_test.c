/*
 * numa_tiers_test.c: memory tiers and the firmware's NUMA input (platform/numa.h): storage
 * sized from the tables through numa_from_acpi (and the caps' one line), the HMAT (ACPI 6.5
 * §5.2.28) as QEMU writes it and hostile (zero, absurd and overflowing entries, domains the
 * SRAT lacks, structures that overrun, an unknown revision), an HMAT and a SLIT that
 * disagree, an SRAT naming CPUs the MADT lacks, memory-only nodes and why, SNC, the header
 * line and the detail. Every table is a heap block of exactly its length (ASan).
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
static struct tbl srat, slit, hmat, madt;
static struct acpi_info ai;
static struct acpi_cpu madt_cpus[64];

static bool said(const char *s)
{
	return strstr(stub_console_text(), s) != NULL;
}

static void fresh(void)
{
	memset(&n, 0, sizeof(n));
	numa_image_arena_reset();
	stub_console_reset();
	acpi_set_log(true);
	ai.madt.cpu = madt_cpus;
	ai.madt.cap = 64;
}

/* QEMU's HMAT for -machine hmat=on with nodes 0 and 1 (CPUs 0-1, 2-3) and memory-only node 2
 * (hw/acpi/hmat.c build_hmat_lb: revision 2, one structure per data type, initiators = the
 * nodes with CPUs, targets = every node; latency given in ns, written with base unit 1000 ps) */
static const uint32_t ini2[] = { 0, 1 }, tgt3[] = { 0, 1, 2 };
static const uint16_t lat23[] = { 90, 140, 250, 140, 90, 300 };

static void qemu_three_nodes(uint8_t hmat_rev)
{
	static const uint8_t ids[] = { 0, 1, 2, 3 };
	static const uint16_t bw23[] = { 20, 0, 5, 0, 0, 0 };

	tbl_srat(&srat, 1);
	for (uint8_t id = 0; id < 4; id++)
		srat_lapic(&srat, id, id / 2, 1);
	srat_mem(&srat, 0, 128u << 20, 0, 1);
	srat_mem(&srat, 128u << 20, 128u << 20, 1, 1);
	srat_mem(&srat, 256u << 20, 256u << 20, 2, 1 | 2);	/* hot-pluggable */
	tbl_hmat(&hmat, hmat_rev);
	for (uint32_t d = 0; d < 3; d++)
		hmat_proximity(&hmat, d == 2 ? 0 : d, d, true);
	hmat_locality(&hmat, 0, 0, 1000, 2, ini2, 3, tgt3, lat23);
	hmat_locality(&hmat, 0, 3, 1024, 2, ini2, 3, tgt3, bw23);
	tbl_madt(&madt, ids, 4);
}

static void test_qemu_hmat_and_memory_only(void **state)
{
	struct tbl *t[] = { &madt, &srat, &hmat };
	char line[256];
	uint32_t r, w;

	(void)state;
	fresh();
	qemu_three_nodes(2);
	assert_int_equal(numa_image_walk(t, 3, &ai, &n, numa_image_alloc), 0);
	assert_true(n.have_srat && n.have_hmat);
	assert_int_equal(n.nnodes, 3);
	assert_int_equal(n.hmat_n, 3);
	assert_int_equal(n.hmat_lat, 6);
	assert_int_equal(n.hmat_bw, 2);
	assert_int_equal(n.hmat_attached, 3);
	numa_set_instance(&n);
	assert_true(numa_hmat_latency(0, 2, &r, &w));
	assert_int_equal(r, 250000);
	assert_int_equal(w, 250000);
	assert_true(numa_hmat_latency(1, 0, &r, &w));
	assert_int_equal(r, 140000);
	assert_false(numa_hmat_latency(2, 0, &r, &w));	/* node 2 initiates nothing */
	assert_false(numa_hmat_latency(3, 0, &r, &w));
	assert_int_equal(numa_hmat_cell(&n, 0, 0)->read_mbs, 20 * 1024);
	assert_false(numa_node_memory_only(0));
	assert_true(numa_node_memory_only(2));
	numa_note_mmap(&n, 0, 512u << 20, 1);
	numa_header_line(&n, line, sizeof(line));
	assert_string_equal(line, "numa: 3 nodes, distances 20..20 (no SLIT: 10 local, 20 remote); "
			    "1 memory-only (node 2: hot-pluggable, CXL?); HMAT 2x3 "
			    "latency+bandwidth");
	assert_true(numa_detail_line(&n, 2, line, sizeof(line)));
	assert_string_equal(line, "numa-node: 2 pxm 2: 0 CPUs, 0 MiB, memory-only: "
			    "hot-pluggable, CXL?; distances 20 20 10");
	assert_true(numa_detail_line(&n, 3 + 3 + 2, line, sizeof(line)));
	assert_string_equal(line, "numa-hmat: node 0 -> node 2: read 250000 ps, write 250000 ps, "
			    "read 5120 MB/s, write 5120 MB/s");
	assert_false(said("HMAT:"));	/* nothing to warn about */
	numa_set_instance(NULL);
	assert_false(numa_hmat_latency(0, 0, &r, &w));
	assert_false(numa_node_memory_only(2));
}

/* Revision 1 (ACPI 6.2) is read as Linux reads it: tenths of a nanosecond. */
static void test_hmat_revision_1_and_unknown(void **state)
{
	struct tbl *t[] = { &madt, &srat, &hmat };
	uint32_t r, w;

	(void)state;
	fresh();
	qemu_three_nodes(1);
	numa_image_walk(t, 3, &ai, &n, numa_image_alloc);
	numa_set_instance(&n);
	assert_true(numa_hmat_latency(0, 0, &r, &w));
	assert_int_equal(r, 90u * 1000 * 100);
	fresh();
	qemu_three_nodes(3);
	numa_image_walk(t, 3, &ai, &n, numa_image_alloc);
	assert_false(n.have_hmat);
	assert_true(said("HMAT revision 3 unknown"));
	numa_set_instance(NULL);
}

/* Zero entries give nothing; 0xFFFF is "unreachable"; below 1 ns, above 4 ms and entry x
 * base past 32 bits are absurd: counted, said, left out; the sane cells stay. */
static void test_hmat_zero_and_absurd(void **state)
{
	static const uint16_t zero[6] = { 0 };
	static const uint16_t absurd[] = { 90, 0xffff, 65000, 1, 0, 300 };
	struct tbl *t[] = { &madt, &srat, &hmat };
	char line[256];

	(void)state;
	fresh();
	qemu_three_nodes(2);
	tbl_hmat(&hmat, 2);
	hmat_locality(&hmat, 0, 1, 1000, 2, ini2, 3, tgt3, zero);
	numa_image_walk(t, 3, &ai, &n, numa_image_alloc);
	assert_false(n.have_hmat);
	assert_int_equal(n.hmat_lat, 0);
	numa_header_line(&n, line, sizeof(line));
	assert_null(strstr(line, "HMAT"));

	fresh();
	tbl_hmat(&hmat, 2);
	/* base 1000 ps: 65000 -> 65 us is fine; 1 -> 1 ns fine; base 200000 ps below */
	hmat_locality(&hmat, 0, 1, 1000, 2, ini2, 3, tgt3, absurd);
	hmat_locality(&hmat, 0, 2, 300, 2, ini2, 3, tgt3, lat23);	/* 90 x 300 ps: 27 ns */
	hmat_locality(&hmat, 0, 2, 1, 1, ini2, 1, tgt3, lat23);		/* 90 ps: absurd */
	hmat_locality(&hmat, 0, 2, 0xffffffffull, 1, ini2, 1, tgt3, lat23);	/* overflows */
	hmat_locality(&hmat, 0, 2, 200000000, 1, ini2, 1, tgt3, lat23);	/* 18 ms */
	numa_image_walk(t, 3, &ai, &n, numa_image_alloc);
	assert_true(n.have_hmat);
	assert_int_equal(n.hmat_absurd, 3);
	assert_int_equal(numa_hmat_cell(&n, 0, 0)->read_ps, 90000);
	assert_int_equal(numa_hmat_cell(&n, 0, 0)->write_ps, 27000);
	assert_int_equal(numa_hmat_cell(&n, 0, 1)->read_ps, 0);		/* unreachable */
	assert_int_equal(numa_hmat_cell(&n, 1, 0)->read_ps, 1000);
	assert_int_equal(numa_hmat_cell(&n, 1, 1)->read_ps, 0);		/* not given */
	assert_true(said("3 absurd entries"));
}

/* Structures that lie about their size, domains the SRAT lacks, a cache level: never a read
 * past the table, never a hang, the rest of the table still read where it can be. */
static void test_hmat_malformed(void **state)
{
	static const uint32_t stranger[] = { 0, 7 };
	struct tbl *t[] = { &madt, &srat, &hmat };
	uint8_t huge[32] = { 1, 0, 0, 0, 32, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x3f,
			     0xff, 0xff, 0xff, 0x3f };
	uint8_t zero_len[8] = { 1, 0, 0, 0, 0, 0, 0, 0 };

	(void)state;
	fresh();
	qemu_three_nodes(2);
	tbl_hmat(&hmat, 2);
	hmat_locality(&hmat, 0, 0, 1000, 2, stranger, 3, tgt3, lat23);	/* domain 7 */
	hmat_locality(&hmat, 1, 0, 1000, 2, ini2, 3, tgt3, lat23);	/* a cache level */
	tbl_raw(&hmat, huge, sizeof(huge));	/* 2^30 x 2^30 entries in 32 bytes */
	tbl_raw(&hmat, zero_len, sizeof(zero_len));	/* length 0: the walk stops */
	hmat_locality(&hmat, 0, 0, 1000, 2, ini2, 3, tgt3, lat23);	/* not reached */
	numa_image_walk(t, 3, &ai, &n, numa_image_alloc);
	assert_int_equal(n.hmat_unknown, 1);
	assert_int_equal(n.hmat_bad, 2);
	assert_int_equal(n.hmat_lat, 3);	/* node 0's row from the first structure */
	assert_int_equal(numa_hmat_cell(&n, 0, 2)->read_ps, 250000);
	assert_int_equal(numa_hmat_cell(&n, 1, 0)->read_ps, 0);
	assert_true(said("HMAT structure type 1 at offset"));
	assert_true(said("1 domains not in the SRAT"));

	/* the last structure says it is longer than the table: not read */
	fresh();
	tbl_hmat(&hmat, 2);
	hmat_locality(&hmat, 0, 0, 1000, 2, ini2, 3, tgt3, lat23);
	hmat.b[hmat.len - (32 + 8 + 12 + 12) + 4] = 0xff;	/* its Length: 255 + ... */
	hmat.b[hmat.len - (32 + 8 + 12 + 12) + 5] = 0x0f;
	numa_image_walk(t, 3, &ai, &n, numa_image_alloc);
	assert_int_equal(n.hmat_bad, 1);
	assert_false(n.have_hmat);
}

/* The SLIT says node 1 is nearer node 0 than node 2 is, the HMAT the reverse: both kept as
 * the firmware gave them, the contradiction counted and said. */
static void test_hmat_against_slit(void **state)
{
	static const uint8_t d[] = { 10, 30, 20, 30, 10, 20, 20, 20, 10 };
	struct tbl *t[] = { &madt, &srat, &slit, &hmat };
	char line[256];

	(void)state;
	fresh();
	qemu_three_nodes(2);
	tbl_slit(&slit, 3, d, sizeof(d));
	numa_image_walk(t, 4, &ai, &n, numa_image_alloc);
	assert_true(n.have_slit && n.have_hmat);
	/* from node 0: SLIT 1 (30) farther than 2 (20), HMAT 140 ns nearer than 250;
	 * from node 1: SLIT 0 (30) farther than 2 (20), HMAT 140 nearer than 300 */
	assert_int_equal(n.hmat_order, 2);
	assert_int_equal(numa_distance(&n, 0, 1), 30);
	assert_int_equal(numa_hmat_cell(&n, 0, 1)->read_ps, 140000);
	assert_true(said("HMAT and SLIT disagree: 2 node pairs"));
	numa_header_line(&n, line, sizeof(line));
	assert_non_null(strstr(line, "HMAT 2x3 latency+bandwidth (2 pairs against the SLIT)"));
}

/* An SRAT naming CPUs the MADT lacks: they stay out of their node's CPU count, so node 1
 * (whose only CPUs these are) is memory-only; said once. */
static void test_srat_cpus_not_in_madt(void **state)
{
	static const uint8_t ids[] = { 0, 1 };
	struct tbl *t[] = { &madt, &srat };

	(void)state;
	fresh();
	qemu_three_nodes(2);
	tbl_madt(&madt, ids, 2);
	numa_image_walk(t, 2, &ai, &n, numa_image_alloc);
	assert_int_equal(n.not_in_madt, 2);
	assert_int_equal(numa_node_cpus(&n, 0), 2);
	assert_int_equal(numa_node_cpus(&n, 1), 0);
	assert_true(numa_node_memory_only_in(&n, 1));
	assert_int_equal(numa_node_of_apic(&n, 3), 1);
	assert_true(said("SRAT names 2 CPUs the MADT does not list"));
}

/* What the boot memory map says of a memory-only node's ranges. */
static void test_memory_only_why(void **state)
{
	struct tbl *t[] = { &srat };
	char why[80];

	(void)state;
	fresh();
	tbl_srat(&srat, 2);
	srat_x2apic(&srat, 0, 0, 1);
	srat_mem(&srat, 0, 1u << 30, 0, 1);
	srat_mem(&srat, 1ull << 32, 1ull << 30, 1, 1 | 4);	/* non-volatile */
	srat_mem(&srat, 2ull << 32, 1ull << 30, 2, 1);
	srat_mem(&srat, 3ull << 32, 1ull << 30, 3, 1);
	srat_mem(&srat, 4ull << 32, 1ull << 30, 4, 1);
	numa_image_walk(t, 1, &ai, &n, numa_image_alloc);
	assert_int_equal(n.nnodes, 5);
	numa_note_mmap(&n, 0, 1u << 30, 1);
	numa_note_mmap(&n, 1ull << 32, 1ull << 30, 7);		/* persistent */
	numa_note_mmap(&n, 2ull << 32, 1ull << 30, 0xefffffffu);	/* soft reserved */
	numa_note_mmap(&n, 4ull << 32, 1ull << 30, 1);
	numa_node_why(&n, 0, why, sizeof(why));
	assert_string_equal(why, "");
	numa_node_why(&n, 1, why, sizeof(why));
	assert_string_equal(why, "non-volatile, persistent (memory map)");
	numa_node_why(&n, 2, why, sizeof(why));
	assert_string_equal(why, "EFI specific purpose");
	numa_node_why(&n, 3, why, sizeof(why));
	assert_string_equal(why, "not in the memory map");
	numa_node_why(&n, 4, why, sizeof(why));
	assert_string_equal(why, "no flags (HBM or CXL?)");
	numa_node_why(&n, 1, why, 8);		/* truncated, terminated */
	assert_int_equal(strlen(why), 7);
}

struct topo {
	unsigned node[16], pkg[16];
};

static void get(void *ctx, unsigned i, unsigned *node, unsigned *package)
{
	const struct topo *t = ctx;

	*node = t->node[i];
	*package = t->pkg[i];
}

/* SNC: 2 packages x 2 nodes (SMT pairs alike) is SNC2; one package of one node is not;
 * uneven packages say so; offline CPUs (node past the limit) do not count. Kept across
 * numa_from_acpi. */
static void test_snc(void **state)
{
	struct topo t = { { 0, 0, 1, 1, 2, 2, 3, 3, ~0u }, { 0, 0, 0, 0, 1, 1, 1, 1, 5 } };
	struct tbl *tl[] = { &srat };
	char line[256];

	(void)state;
	fresh();
	tbl_srat(&srat, 2);
	for (uint32_t id = 0; id < 8; id++)
		srat_x2apic(&srat, id, id / 2, 1);
	srat_mem(&srat, 0, 1u << 30, 0, 1);
	numa_note_packages(&n, 9, get, &t);
	assert_int_equal(n.packages, 2);
	assert_int_equal(n.pkg_nodes_min, 2);
	assert_int_equal(n.pkg_nodes_max, 2);
	numa_image_walk(tl, 1, &ai, &n, numa_image_alloc);
	numa_header_line(&n, line, sizeof(line));
	assert_non_null(strstr(line, "numa: 4 nodes (2 per package: SNC2), distances 20..20"));
	t.pkg[4] = t.pkg[5] = 0;	/* package 0: nodes 0-2, package 1: node 3 */
	numa_note_packages(&n, 8, get, &t);
	numa_header_line(&n, line, sizeof(line));
	assert_non_null(strstr(line, "numa: 4 nodes (1-3 per package: SNC?)"));
	memset(&t, 0, sizeof(t));
	numa_note_packages(&n, 8, get, &t);
	assert_int_equal(n.pkg_nodes_max, 1);
	numa_note_packages(&n, 0, get, &t);
	assert_int_equal(n.packages, 0);
}

/* Storage sized from the tables: 300 domains and 5000 ranges all kept; past the caps the rest
 * is counted and said in one line, and nothing is written past what was allocated. */
static void test_sized_from_tables_and_caps(void **state)
{
	static struct tbl big;
	struct tbl *t[] = { &big };
	unsigned lines = 0;

	(void)state;
	fresh();
	tbl_srat(&big, 2);
	for (uint32_t d = 0; d < 300; d++)
		srat_x2apic(&big, d, d, 1);
	for (uint64_t i = 0; i < 5000; i++)
		srat_mem(&big, i << 21, 1 << 21, (uint32_t)(i % 300), 1);
	numa_image_walk(t, 1, &ai, &n, numa_image_alloc);
	assert_int_equal(n.nnodes, 300);
	assert_int_equal(n.nmem, 5000);
	assert_int_equal(n.ncpu, 300);
	assert_int_equal(n.dropped, 0);
	assert_int_equal(numa_node_of_phys(&n, 4999ull << 21), 4999 % 300);
	assert_false(said("larger than kept"));

	fresh();
	tbl_srat(&big, 2);
	for (uint32_t d = 0; d < NUMA_NODE_LIMIT + 10; d++)
		srat_mem(&big, (uint64_t)d << 21, 1 << 21, d, 1);
	numa_image_walk(t, 1, &ai, &n, numa_image_alloc);
	assert_int_equal(n.nnodes, NUMA_NODE_LIMIT);
	assert_int_equal(n.nmem, NUMA_NODE_LIMIT);
	assert_int_equal(n.dropped, 10);
	for (const char *p = stub_console_text(); (p = strstr(p, "larger than kept")); p++)
		lines++;
	assert_int_equal(lines, 1);
	assert_true(said("domains 1024 of up to 1034"));
	/* without an allocator nothing is kept: one node, as without an SRAT */
	fresh();
	numa_image_walk(t, 1, &ai, &n, NULL);
	assert_false(n.have_srat);
	assert_int_equal(n.need_nodes, NUMA_NODE_LIMIT + 10);
	assert_int_equal(numa_nodes(&n), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qemu_hmat_and_memory_only),
		cmocka_unit_test(test_hmat_revision_1_and_unknown),
		cmocka_unit_test(test_hmat_zero_and_absurd),
		cmocka_unit_test(test_hmat_malformed),
		cmocka_unit_test(test_hmat_against_slit),
		cmocka_unit_test(test_srat_cpus_not_in_madt),
		cmocka_unit_test(test_memory_only_why),
		cmocka_unit_test(test_snc),
		cmocka_unit_test(test_sized_from_tables_and_caps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
