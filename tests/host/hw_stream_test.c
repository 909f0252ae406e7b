/*
 * hw_stream_test.c: the bandwidth assembly itself (kernel/hw_stream.c), run on the host CPU
 * (the same object code the kernel runs: the file has no C, only file-scope assembly). No
 * timing: each kernel must touch exactly its range, every word once, and nothing around it
 * (guard bytes on both sides stay as they were): read sums every word of [buf, buf + bytes)
 * (words numbered 1.. so a skipped or doubled word changes the sum), write and write_nt
 * store into every word and no other, mixR reads R * wbytes from src and writes wbytes to
 * dst. A zero size touches nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/hw_stream.h"

#define GUARD 512u
#define POISON 0xa5u

static uint8_t *arena(uint64_t bytes)
{
	uint8_t *a = aligned_alloc(64, bytes + 2 * GUARD);

	assert_non_null(a);
	memset(a, POISON, bytes + 2 * GUARD);
	return a;
}

static void guards_intact(const uint8_t *a, uint64_t bytes)
{
	for (unsigned i = 0; i < GUARD; i++) {
		assert_int_equal(a[i], POISON);
		assert_int_equal(a[GUARD + bytes + i], POISON);
	}
}

/* Word i (from 0) of p holds i + 1; returns the sum n(n+1)/2. */
static uint64_t number(uint8_t *p, uint64_t bytes)
{
	uint64_t n = bytes / 8;

	for (uint64_t i = 0; i < n; i++)
		((uint64_t *)p)[i] = i + 1;
	return n * (n + 1) / 2;
}

static void test_read(void **state)
{
	static const uint64_t sizes[] = { 256, 512, 4096, 65536 + 256, 1u << 20 };

	(void)state;
	for (unsigned k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		uint8_t *a = arena(sizes[k]);
		uint64_t want = number(a + GUARD, sizes[k]);

		assert_int_equal(hw_stream_read(a + GUARD, sizes[k]), want);
		guards_intact(a, sizes[k]);
		free(a);
	}
	assert_int_equal(hw_stream_read(NULL, 0), 0);
	assert_int_equal(hw_stream_read(NULL, 255), 0);		/* less than one iteration */
}

static void check_write(void (*fn)(void *, uint64_t, uint64_t), uint64_t bytes)
{
	uint8_t *a = arena(bytes);

	fn(a + GUARD, bytes, 0x1122334455667788ull);
	for (uint64_t i = 0; i < bytes / 8; i++)
		assert_int_equal(((uint64_t *)(a + GUARD))[i], 0x1122334455667788ull);
	guards_intact(a, bytes);
	free(a);
}

static void test_write(void **state)
{
	(void)state;
	check_write(hw_stream_write, 256);
	check_write(hw_stream_write, 8192 + 768);
	check_write(hw_stream_write_nt, 256);
	check_write(hw_stream_write_nt, 8192 + 768);
	hw_stream_write(NULL, 0, 1);
	hw_stream_write_nt(NULL, 128, 1);
}

typedef uint64_t (*mix_fn)(const void *, void *, uint64_t, uint64_t);

static void check_mix(mix_fn fn, unsigned r, uint64_t wbytes)
{
	uint64_t total = (r + 1) * wbytes;
	uint8_t *a = arena(total);
	uint64_t want = number(a + GUARD, r * wbytes);

	memset(a + GUARD + r * wbytes, 0, wbytes);
	assert_int_equal(fn(a + GUARD, a + GUARD + r * wbytes, wbytes, 7), want);
	for (uint64_t i = 0; i < wbytes / 8; i++)
		assert_int_equal(((uint64_t *)(a + GUARD + r * wbytes))[i], 7);
	/* the source is left as it was */
	assert_int_equal(hw_stream_read(a + GUARD, r * wbytes / 256 * 256),
			 (r * wbytes / 256 * 256 / 8) * (r * wbytes / 256 * 256 / 8 + 1) / 2);
	guards_intact(a, total);
	free(a);
}

static void test_mix(void **state)
{
	(void)state;
	check_mix(hw_stream_mix1, 1, 64);
	check_mix(hw_stream_mix1, 1, 4096);
	check_mix(hw_stream_mix2, 2, 64);
	check_mix(hw_stream_mix2, 2, 4096 + 64);
	check_mix(hw_stream_mix3, 3, 64);
	check_mix(hw_stream_mix3, 3, 8192);
	assert_int_equal(hw_stream_mix3(NULL, NULL, 0, 1), 0);
	assert_int_equal(hw_stream_mix1(NULL, NULL, 63, 1), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_write),
		cmocka_unit_test(test_mix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
