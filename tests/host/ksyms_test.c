/*
 * ksyms_test.c: the symbol lookup behind exception dumps (kernel/ksyms.h): the function an
 * address falls in, its offset, the bounds (before the first symbol, at or past the end of
 * text), equal addresses (aliases: the last one wins, as `nm -n` sorts them), and a table of
 * one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "kernel/ksyms.h"

char _text_end[1];	/* ksym_lookup's bound; this test uses ksym_find */

static const struct ksym t[] = {
	{ .addr = 0x100000, .name = "_start" },
	{ .addr = 0x101000, .name = "kmain" },
	{ .addr = 0x101000, .name = "kmain_alias" },
	{ .addr = 0x101040, .name = "trap_dump" },
	{ .addr = 0x101100, .name = "last" },
};

static void test_find(void **state)
{
	uint64_t off = 99;

	(void)state;
	assert_string_equal(ksym_find(t, 5, 0x102000, 0x100000, &off), "_start");
	assert_int_equal(off, 0);
	assert_string_equal(ksym_find(t, 5, 0x102000, 0x100fff, &off), "_start");
	assert_int_equal(off, 0xfff);
	assert_string_equal(ksym_find(t, 5, 0x102000, 0x101036, &off), "kmain_alias");
	assert_int_equal(off, 0x36);
	assert_string_equal(ksym_find(t, 5, 0x102000, 0x101040, &off), "trap_dump");
	assert_string_equal(ksym_find(t, 5, 0x102000, 0x101fff, &off), "last");
	assert_int_equal(off, 0xeff);
}

static void test_bounds(void **state)
{
	uint64_t off = 7;

	(void)state;
	assert_null(ksym_find(t, 5, 0x102000, 0xfffff, &off));		/* below the image */
	assert_null(ksym_find(t, 5, 0x102000, 0x102000, &off));	/* at the end of text */
	assert_null(ksym_find(t, 5, 0x102000, ~0ull, &off));
	assert_null(ksym_find(t, 0, 0x102000, 0x101000, &off));	/* the first link's */
	assert_int_equal(off, 7);
	assert_string_equal(ksym_find(t, 1, 0x102000, 0x101234, &off), "_start");
	assert_int_equal(off, 0x1234);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_bounds),
	};

	return cmocka_run_group_tests_name("ksyms", tests, NULL, NULL);
}
