/*
 * numa_hostile_test.c: the SRAT and SLIT parsers (ACPI 6.5 §5.2.16, §5.2.17) against
 * malformed, truncated and hostile tables: every table lives in a heap block of exactly its
 * length (ASan reports any read past it). Zero-length and overrunning structures, short
 * structures, disabled, empty and overflowing ranges, overlapping ranges and APIC ids
 * claimed by two domains, more domains/ranges than fit, SLITs whose locality count does not
 * fit the table (up to 2^64 - 1), bad diagonals, reserved distances, and a seeded sweep of
 * random structure bytes.
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

static bool said(const char *s)
{
	return strstr(stub_console_text(), s) != NULL;
}

static void test_srat_truncated(void **state)
{
	static const uint8_t zero_len[] = { 1, 0, 0xff, 0xff };
	static const uint8_t overrun[] = { 1, 40, 0, 0, 0, 0 };

	(void)state;
	stub_console_reset();
	tbl_srat(&tb, 1);
	tb.len = 40;				/* shorter than the fixed fields */
	assert_int_equal(tbl_parse_srat(&tb, &n), -1);
	assert_true(said("SRAT length 40 < 48"));

	tbl_srat(&tb, 1);			/* good entry, then length 0: walk ends */
	srat_lapic(&tb, 1, 0, 1);
	tbl_raw(&tb, zero_len, sizeof(zero_len));
	srat_lapic(&tb, 2, 1, 1);
	assert_int_equal(tbl_parse_srat(&tb, &n), 0);
	assert_int_equal(n.ncpu, 1);
	assert_true(said("has length 0"));

	tbl_srat(&tb, 1);			/* memory entry claiming 40 bytes, 6 there */
	srat_lapic(&tb, 1, 0, 1);
	tbl_raw(&tb, overrun, sizeof(overrun));
	assert_int_equal(tbl_parse_srat(&tb, &n), 0);
	assert_int_equal(n.nmem, 0);
	assert_int_equal(n.bad, 1);

	tbl_srat(&tb, 1);			/* only a lone type byte: nothing to read */
	tbl_raw(&tb, overrun, 1);
	assert_int_equal(tbl_parse_srat(&tb, &n), -1);
	assert_false(n.have_srat);
}

static void test_srat_bad_entries(void **state)
{
	static const uint8_t short_mem[] = { 1, 20, 0, 0, 0, 0, 0, 0, 0, 0,
					     0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t unknown[] = { 5, 32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
					   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };

	(void)state;
	tbl_srat(&tb, 1);
	tbl_raw(&tb, short_mem, sizeof(short_mem));	/* too short for type 1: skipped */
	tbl_raw(&tb, unknown, sizeof(unknown));		/* Generic Initiator: stepped over */
	srat_lapic(&tb, 1, 0, 0);			/* disabled */
	srat_mem(&tb, 0x1000, 0, 0, 1);			/* empty */
	srat_mem(&tb, ~0ull - 0xfff, 0x2000, 0, 1);	/* wraps past 2^64 */
	srat_mem(&tb, 0x100000, 0x100000, 0, 1);	/* good */
	srat_mem(&tb, 0x180000, 0x100000, 1, 1);	/* overlaps it from domain 1 */
	srat_lapic(&tb, 2, 0, 1);
	srat_x2apic(&tb, 2, 1, 1);			/* same id, other domain */
	srat_x2apic(&tb, 2, 0, 1);			/* same id, same domain: once */
	assert_int_equal(tbl_parse_srat(&tb, &n), 0);
	assert_int_equal(n.disabled, 1);
	assert_int_equal(n.bad, 3);
	assert_int_equal(n.conflicts, 2);
	assert_int_equal(n.nmem, 1);
	assert_int_equal(n.ncpu, 1);
	assert_int_equal(n.nnodes, 1);			/* domain 1 never got an entry in */
	assert_int_equal(numa_node_of_phys(&n, 0x1f0000), 0);
	assert_int_equal(numa_node_of_apic(&n, 2), 0);

	tbl_srat(&tb, 1);				/* only disabled entries */
	srat_lapic(&tb, 1, 0, 0);
	assert_int_equal(tbl_parse_srat(&tb, &n), -1);
	assert_true(said("no enabled CPU or memory"));
}

static void test_srat_too_many(void **state)
{
	(void)state;
	tbl_srat(&tb, 2);
	for (uint32_t d = 0; d < IMG_NODES + 4; d++)
		srat_x2apic(&tb, d, 1000 - d, 1);	/* descending domains */
	for (uint64_t i = 0; i < IMG_MEM + 3; i++)
		srat_mem(&tb, i << 20, 1 << 20, 1000 - (uint32_t)(i % 4), 1);
	assert_int_equal(tbl_parse_srat(&tb, &n), 0);
	assert_int_equal(n.nnodes, IMG_NODES);
	assert_int_equal(n.ncpu, IMG_NODES);
	assert_int_equal(n.nmem, IMG_MEM);
	assert_int_equal(n.dropped, 4 + 3);
	for (unsigned i = 1; i < n.nnodes; i++)
		assert_true(n.node_pxm[i - 1] < n.node_pxm[i]);
	assert_int_equal(numa_node_of_apic(&n, 0), IMG_NODES - 1);	/* domain 1000 */
	assert_int_equal(numa_node_of_apic(&n, IMG_NODES), -1);	/* dropped */
}

/* 5000 x2APIC affinity structures (ACPI 6.5 5.2.16.3) over two domains, IDs past 255 and
 * past 4096: a parse without storage counts them, one into cpu[] of that size keeps every
 * one; an ID listed again in another domain is a conflict (the first claim stays); IDs from
 * ACPI_APIC_ID_LIMIT up are dropped. */
static void test_srat_x2apic_many(void **state)
{
	enum { N = 5000 };
	static struct numa_cpu big[N];
	struct numa_cpu *keep = n.cpu;
	unsigned cap = n.cpu_cap;

	(void)state;
	tbl_srat(&tb, 3);
	for (uint32_t i = 0; i < N; i++)
		srat_x2apic(&tb, i, i < N / 2 ? 0 : 1, 1);
	srat_x2apic(&tb, 4999, 0, 1);			/* conflicts with domain 1 */
	srat_x2apic(&tb, ACPI_APIC_ID_LIMIT + 1, 0, 1);	/* too high */
	srat_mem(&tb, 0, 1 << 20, 0, 1);
	n.cpu = NULL;
	n.cpu_cap = 0;
	assert_int_equal(tbl_parse_srat(&tb, &n), 0);
	assert_int_equal(n.ncpu, 0);
	assert_int_equal(n.cpu_dropped, N);
	n.cpu = big;
	n.cpu_cap = n.cpu_dropped;
	assert_int_equal(tbl_parse_srat(&tb, &n), 0);
	assert_int_equal(n.ncpu, N);
	assert_int_equal(n.cpu_dropped, 0);
	assert_int_equal(n.conflicts, 1);
	assert_int_equal(n.dropped, 1);
	assert_int_equal(numa_node_of_apic(&n, 300), 0);
	assert_int_equal(numa_node_of_apic(&n, 4097), 1);
	assert_int_equal(numa_node_of_apic(&n, 4999), 1);
	assert_int_equal(numa_node_cpus(&n, 1), N / 2);
	n.cpu = keep;
	n.cpu_cap = cap;
}

static void test_slit_malformed(void **state)
{
	static const uint8_t ok[] = { 10, 21, 21, 10 }, diag[] = { 10, 21, 21, 11 },
		near[] = { 10, 9, 21, 10 }, far[] = { 10, 255, 255, 10 };
	uint8_t *big = malloc(65 * 65);

	(void)state;
	stub_console_reset();
	assert_int_equal(slit_parse(&tb, &n, 2, ok, 3), -1);		/* one byte short */
	assert_true(said("needs more than"));
	assert_false(n.have_slit);
	assert_int_equal(slit_parse(&tb, &n, 0, ok, 0), -1);		/* no localities */
	assert_int_equal(slit_parse(&tb, &n, ~0ull, ok, 4), -1);		/* 2^64 - 1 localities */
	assert_int_equal(slit_parse(&tb, &n, 1ull << 32, ok, 4), -1);	/* square overflows 64 bits */
	assert_int_equal(slit_parse(&tb, &n, 2, diag, 4), -1);
	assert_true(said("[1][1] = 11 invalid"));
	assert_int_equal(slit_parse(&tb, &n, 2, near, 4), -1);		/* reserved value 9 */
	assert_int_equal(slit_parse(&tb, &n, 2, far, 4), 0);		/* 255: unreachable, allowed */
	assert_int_equal(n.slit[1], NUMA_UNREACHABLE);
	tbl_slit(&tb, 2, ok, 4);
	tb.len = 43;						/* header cut */
	assert_int_equal(tbl_parse_slit(&tb, &n), -1);
	/* 65 localities: valid, kept as its 64 x 64 top-left */
	for (unsigned i = 0; i < 65; i++)
		for (unsigned j = 0; j < 65; j++)
			big[i * 65 + j] = i == j ? 10 : (uint8_t)(11 + (i + j) % 200);
	assert_int_equal(slit_parse(&tb, &n, 65, big, 65 * 65), 0);
	assert_int_equal(n.slit_n, IMG_LOCAL);
	assert_int_equal(n.slit_total, 65);
	assert_int_equal(n.slit[1 * 64 + 2], 11 + 3);
	assert_int_equal(n.slit[63 * 64 + 62], 11 + 125);
	free(big);
}

/* Domains beyond the SLIT's localities fall back to the default remote distance. */
static void test_slit_smaller_than_srat(void **state)
{
	static const uint8_t one[] = { 10 };

	(void)state;
	tbl_srat(&tb, 1);
	srat_lapic(&tb, 0, 0, 1);
	srat_lapic(&tb, 1, 5, 1);
	assert_int_equal(tbl_parse_srat(&tb, &n), 0);
	assert_int_equal(slit_parse(&tb, &n, 1, one, 1), 0);
	assert_int_equal(numa_distance(&n, 0, 1), NUMA_REMOTE_DISTANCE);
	assert_int_equal(numa_distance(&n, 1, 1), NUMA_LOCAL_DISTANCE);
}

/* Random structure bytes after a valid header (xorshift64, fixed seed): no read past the
 * table, counts within their arrays, every stored range sane. */
static void test_random_bytes(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;

	(void)state;
	for (unsigned round = 0; round < 4000; round++) {
		uint32_t body = (uint32_t)(x % 200);
		uint8_t buf[200];

		for (uint32_t i = 0; i < body; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[i] = (uint8_t)x;
			if (i % 16 == 0)		/* steer toward real types/lengths */
				buf[i] = (uint8_t)(x % 4);
			if (i % 16 == 1)
				buf[i] = (uint8_t)((x >> 8) % 2 ? 16 : 24 + (x >> 16) % 24);
		}
		tbl_srat(&tb, (uint8_t)(round % 4));
		tbl_raw(&tb, buf, body);
		tbl_parse_srat(&tb, &n);
		assert_true(n.nnodes <= IMG_NODES && n.nmem <= IMG_MEM &&
			    n.ncpu <= n.cpu_cap);
		for (unsigned i = 0; i < n.nmem; i++)
			assert_true(n.mem[i].base < n.mem[i].end && n.mem[i].node < n.nnodes);
		slit_parse(&tb, &n, body ? buf[0] % 12 : 0, buf, body);
		assert_true(n.slit_n <= IMG_LOCAL);
		x += round;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_srat_truncated),
		cmocka_unit_test(test_srat_bad_entries),
		cmocka_unit_test(test_srat_too_many),
		cmocka_unit_test(test_srat_x2apic_many),
		cmocka_unit_test(test_slit_malformed),
		cmocka_unit_test(test_slit_smaller_than_srat),
		cmocka_unit_test(test_random_bytes),
	};

	numa_image_storage(&n);	/* fixed storage, kept by every parse */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
