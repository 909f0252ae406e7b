/*
 * ranges_test.c: numbers as ranges (kernel/ranges.c): runs merge, singles stay, an
 * out-of-order or repeated number starts a new range, the empty set is "-", and a list that
 * does not fit ends in "..." inside the buffer (a 4096-CPU list in a 64-byte buffer).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/ranges.h"

static const char *of(const uint32_t *v, unsigned n, char *buf, size_t size)
{
	struct ranges r;

	ranges_init(&r, buf, size);
	for (unsigned i = 0; i < n; i++)
		ranges_add(&r, v[i]);
	return ranges_end(&r);
}

static void test_forms(void **state)
{
	static const uint32_t a[] = { 0, 1, 2, 3, 5, 8, 9, 10, 11 }, b[] = { 7 },
			      c[] = { 4, 5, 2, 3, 3 }, d[] = { 4294967294u, 4294967295u, 0 };
	char buf[64];

	(void)state;
	assert_string_equal(of(a, 9, buf, sizeof(buf)), "0-3,5,8-11");
	assert_string_equal(of(b, 1, buf, sizeof(buf)), "7");
	assert_string_equal(of(c, 5, buf, sizeof(buf)), "4-5,2-3,3");
	assert_string_equal(of(d, 3, buf, sizeof(buf)), "4294967294-4294967295,0");
	assert_string_equal(of(NULL, 0, buf, sizeof(buf)), "-");
}

/* Every other CPU of 4096 (2048 single numbers) into 64 bytes: cut, ASCII, NUL inside. */
static void test_cut(void **state)
{
	static uint32_t v[2048];
	char buf[64 + 8];
	struct ranges r;

	(void)state;
	memset(buf, 'Z', sizeof(buf));
	for (unsigned i = 0; i < 2048; i++)
		v[i] = 2 * i;
	ranges_init(&r, buf, 64);
	for (unsigned i = 0; i < 2048; i++)
		ranges_add(&r, v[i]);
	ranges_end(&r);
	assert_true(r.cut);
	assert_int_equal(r.count, 2048);
	assert_true(strlen(buf) < 64);
	assert_int_equal(buf[64], 'Z');		/* nothing past the buffer */
	assert_non_null(strstr(buf, "0,2,4,6,"));
	assert_string_equal(buf + strlen(buf) - 4, ",...");
	for (size_t i = 0; buf[i]; i++)
		assert_true(buf[i] >= 0x20 && buf[i] < 0x7f);
	/* one run of 4096 fits in a few bytes */
	ranges_init(&r, buf, 16);
	for (unsigned i = 0; i < 4096; i++)
		ranges_add(&r, i);
	assert_string_equal(ranges_end(&r), "0-4095");
	/* the smallest buffer: only the mark */
	ranges_init(&r, buf, 4);
	ranges_add(&r, 12345);
	assert_string_equal(ranges_end(&r), "...");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_cut),
	};

	return cmocka_run_group_tests_name("ranges", tests, NULL, NULL);
}
