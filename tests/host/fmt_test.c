/*
 * fmt_test.c: the freestanding formatter against expected strings, including edge cases
 * (truncation, extreme values, bad conversions) where libc's behaviour is the reference.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/fmt.h"

/* The bad-conversion tests pass malformed formats on purpose. */
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
#pragma GCC diagnostic ignored "-Wformat-overflow"

#define CHECK(expect, ...)                                            \
	do {                                                          \
		char b_[128];                                          \
		int n_ = fmt_snprintf(b_, sizeof(b_), __VA_ARGS__);   \
		assert_string_equal(b_, expect);                      \
		assert_int_equal(n_, (int)strlen(expect));            \
	} while (0)

/* Same format through libc: ours must agree on everything both support. */
#define SAME(...)                                                    \
	do {                                                          \
		char a_[128], b_[128];                                 \
		snprintf(a_, sizeof(a_), __VA_ARGS__);                 \
		fmt_snprintf(b_, sizeof(b_), __VA_ARGS__);             \
		assert_string_equal(b_, a_);                           \
	} while (0)

static void test_integers(void **state)
{
	(void)state;
	CHECK("0", "%d", 0);
	CHECK("-42", "%d", -42);
	CHECK("4294967295", "%u", 4294967295u);
	CHECK("-9223372036854775808", "%lld", (long long)INT64_MIN);
	CHECK("18446744073709551615", "%llu", (unsigned long long)UINT64_MAX);
	CHECK("ffffffffffffffff", "%lx", (unsigned long)UINT64_MAX);
	CHECK("DEADBEEF", "%X", 0xdeadbeefu);
	CHECK("0x1f", "%#x", 0x1f);
	CHECK("17", "%o", 15);
	CHECK("-1", "%hhd", 255);
	CHECK("65535", "%hu", -1);
	CHECK("123", "%zu", (size_t)123);
}

static void test_widths(void **state)
{
	(void)state;
	SAME("[%5d]", 42);
	SAME("[%-5d]", 42);
	SAME("[%05d]", -42);
	SAME("[%08lx]", 0xabcUL);
	SAME("[%+d]", 7);
	SAME("[% d]", 7);
	SAME("[%.3d]", 7);
	SAME("[%8.3d]", -7);
	SAME("[%*d]", 6, 12);
	SAME("[%-*d]", 6, 12);
	SAME("[%*d]", -6, 12);
	SAME("[%.0d]", 0);
	SAME("[%10s]", "abc");
	SAME("[%-10s]", "abc");
	SAME("[%.2s]", "abcdef");
	SAME("[%.*s]", 3, "abcdef");
	SAME("[%3c]", 'x');
	SAME("[%-3c]", 'x');
	SAME("[%#o]", 8);
	SAME("[%#X]", 255);
	SAME("[%%]");
}

static void test_pointer_and_null(void **state)
{
	(void)state;
	CHECK("0x1000", "%p", (void *)0x1000);
	CHECK("(null)", "%s", (char *)NULL);
}

static void test_truncation(void **state)
{
	char b[8];
	int n;

	(void)state;
	n = fmt_snprintf(b, sizeof(b), "%s", "0123456789");
	assert_int_equal(n, 10);
	assert_string_equal(b, "0123456");
	n = fmt_snprintf(b, 1, "abc");
	assert_int_equal(n, 3);
	assert_string_equal(b, "");
	n = fmt_snprintf(NULL, 0, "abc%d", 12);
	assert_int_equal(n, 5);
}

static void test_bad_conversions(void **state)
{
	(void)state;
	CHECK("a%qb", "a%qb");
	CHECK("end%", "end%");
	CHECK("end%-5", "end%-5");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_widths),
		cmocka_unit_test(test_pointer_and_null),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_bad_conversions),
	};
	return cmocka_run_group_tests_name("fmt", tests, NULL, NULL);
}
