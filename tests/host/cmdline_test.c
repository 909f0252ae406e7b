/*
 * cmdline_test.c: the command-line parser against good and hostile input: unknown keys, bare
 * keys, empty keys, repeated keys, control bytes, overlong lines, too many options, bad and
 * overflowing numbers, size suffixes, ranges, and the tests= glob matching.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cmdline.h"

static char warnings[4096];
static unsigned nwarn;

static void collect(const char *msg)
{
	strncat(warnings, msg, sizeof(warnings) - strlen(warnings) - 2);
	strcat(warnings, "\n");
	nwarn++;
}

static int reset(void **state)
{
	(void)state;
	warnings[0] = '\0';
	nwarn = 0;
	return 0;
}

static const struct option_desc known[] = {
	{ .name = "tests" }, { .name = "ldlat" }, { .name = "verbose" }, { .name = "console" },
	{ .name = NULL },
};

static void test_basic(void **state)
{
	struct cmdline cl;

	(void)state;
	assert_int_equal(cmdline_parse(&cl, "  tests=boot,paging\tverbose ldlat=3 ", 1000, known,
				       collect), 0);
	assert_int_equal(cl.nopt, 3);
	assert_string_equal(cmdline_get(&cl, "tests"), "boot,paging");
	assert_true(cmdline_has(&cl, "verbose"));
	assert_string_equal(cmdline_get(&cl, "verbose"), "");
	assert_null(cmdline_get(&cl, "console"));
	assert_int_equal(cmdline_u64(&cl, "ldlat", 7, 3, 65535, collect), 3);
	assert_int_equal(cmdline_u64(&cl, "console", 9, 0, 10, collect), 9);
	assert_int_equal(nwarn, 0);
}

static void test_unknown_and_empty_keys(void **state)
{
	struct cmdline cl;

	(void)state;
	assert_int_equal(cmdline_parse(&cl, "bogus=1 =5 tests=x", 1000, known, collect), 2);
	assert_non_null(strstr(warnings, "unknown option 'bogus'"));
	assert_non_null(strstr(warnings, "no key"));
	assert_string_equal(cmdline_get(&cl, "tests"), "x");
}

static void test_last_wins_and_control_bytes(void **state)
{
	struct cmdline cl;
	const char src[] = "tests=a\x01tests=b\x7f verbose";

	(void)state;
	cmdline_parse(&cl, src, sizeof(src), known, collect);
	assert_string_equal(cmdline_get(&cl, "tests"), "b");
	assert_true(cmdline_has(&cl, "verbose"));
}

static void test_overlong_and_too_many(void **state)
{
	static char big[CMDLINE_MAX_LEN * 3];
	struct cmdline cl;
	size_t n = 0;

	(void)state;
	while (n + 9 < sizeof(big) - 1) {
		memcpy(big + n, "verbose ", 8);
		n += 8;
	}
	big[n] = '\0';
	cmdline_parse(&cl, big, sizeof(big), known, collect);
	assert_non_null(strstr(warnings, "longer than"));
	assert_non_null(strstr(warnings, "more than"));
	assert_int_equal(cl.nopt, CMDLINE_MAX_OPTS);
	/* not NUL-terminated within len: must stop at len */
	reset(NULL);
	memset(big, 'v', 100);
	cmdline_parse(&cl, big, 100, NULL, collect);
	assert_int_equal(cl.nopt, 1);
	assert_int_equal(strlen(cl.opt[0].key), 100);
}

static void test_numbers(void **state)
{
	uint64_t v;
	struct cmdline cl;

	(void)state;
	assert_true(cmdline_parse_u64("0", &v) && v == 0);
	assert_true(cmdline_parse_u64("0x1F", &v) && v == 31);
	assert_true(cmdline_parse_u64("48K", &v) && v == 48 * 1024);
	assert_true(cmdline_parse_u64("2m", &v) && v == 2u << 20);
	assert_true(cmdline_parse_u64("1G", &v) && v == 1u << 30);
	assert_true(cmdline_parse_u64("18446744073709551615", &v) && v == UINT64_MAX);
	assert_false(cmdline_parse_u64("18446744073709551616", &v));
	assert_false(cmdline_parse_u64("17179869184G", &v));	/* 2^34 G overflows */
	assert_false(cmdline_parse_u64("", &v));
	assert_false(cmdline_parse_u64("0x", &v));
	assert_false(cmdline_parse_u64("12abc", &v));
	assert_false(cmdline_parse_u64("-1", &v));
	assert_false(cmdline_parse_u64("1KK", &v));

	cmdline_parse(&cl, "ldlat=xyz tests=99999999999999999999 console=2 verbose", 1000,
		      known, collect);
	assert_int_equal(cmdline_u64(&cl, "ldlat", 3, 3, 100, collect), 3);
	assert_non_null(strstr(warnings, "ldlat='xyz': not a number"));
	assert_int_equal(cmdline_u64(&cl, "tests", 5, 0, 100, collect), 5);
	assert_int_equal(cmdline_u64(&cl, "console", 5, 3, 100, collect), 5);
	assert_non_null(strstr(warnings, "outside [3, 100]"));
	assert_int_equal(cmdline_u64(&cl, "verbose", 8, 0, 100, collect), 8);
}

static void test_globs(void **state)
{
	(void)state;
	assert_true(glob_match("load_*", "load_l1"));
	assert_true(glob_match("*", ""));
	assert_true(glob_match("l?ad*l1", "load_l1"));
	assert_false(glob_match("load_*", "paging"));
	assert_false(glob_match("load", "load_l1"));
	assert_true(glob_match("*l*1", "load_l1"));
	assert_true(glob_list_match("boot,load_*", "load_dram"));
	assert_true(glob_list_match(",,paging,", "paging"));
	assert_false(glob_list_match("boot,load_*", "apic"));
	assert_false(glob_list_match("", "apic"));
}

static void test_real_option_table(void **state)
{
	struct cmdline cl;

	(void)state;
	/* every key the README documents is known to the kernel */
	assert_int_equal(cmdline_parse(&cl, "tests=a console=ttyS0 exit=port verbose", 1000,
				       option_table, collect), 0);
}

/* Every value is checked at boot against its key's kind, whatever the hardware: a bad one
 * is a warning naming key, value and what it must be, and the option is left out. */
static void test_values_checked(void **state)
{
	struct cmdline cl;

	(void)state;
	assert_int_equal(cmdline_parse(&cl, "ldlat=abc sav=0 pebs_buf=8 apic=x3apic cpus=0,2-3 "
				       "cpus=9 cpus=3-1 cpus=all dump=raw timing=fast l2=1M",
				       1000, option_table, collect), 5);
	assert_non_null(strstr(warnings, "option ldlat='abc': want a number in 3..65535; using "
				"the default"));
	assert_non_null(strstr(warnings, "option sav='0': want a number in 1..2147483647"));
	assert_non_null(strstr(warnings, "option apic='x3apic': want auto|x2apic|xapic"));
	assert_non_null(strstr(warnings, "option cpus='3-1': want bsp|types|all or a list"));
	assert_non_null(strstr(warnings, "option timing='fast': want auto|brief|full"));
	assert_null(cmdline_get(&cl, "ldlat"));		/* left out: the default applies */
	assert_null(cmdline_get(&cl, "apic"));
	assert_string_equal(cmdline_get(&cl, "pebs_buf"), "8");
	assert_string_equal(cmdline_get(&cl, "cpus"), "all");	/* the last good one */
	assert_string_equal(cmdline_get(&cl, "l2"), "1M");
}

static void test_timing_words(void **state)
{
	struct cmdline cl;

	(void)state;
	assert_int_equal(cmdline_parse(&cl, "timing=fast sweep=full pebs_counters=maybe", 1000,
				       option_table, collect), 2);
	assert_non_null(strstr(warnings, "option timing='fast': want auto|brief|full"));
	assert_non_null(strstr(warnings, "option pebs_counters='maybe': want on|off"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_basic, reset),
		cmocka_unit_test_setup(test_unknown_and_empty_keys, reset),
		cmocka_unit_test_setup(test_last_wins_and_control_bytes, reset),
		cmocka_unit_test_setup(test_overlong_and_too_many, reset),
		cmocka_unit_test_setup(test_numbers, reset),
		cmocka_unit_test_setup(test_globs, reset),
		cmocka_unit_test_setup(test_real_option_table, reset),
		cmocka_unit_test_setup(test_values_checked, reset),
		cmocka_unit_test_setup(test_timing_words, reset),
	};
	return cmocka_run_group_tests_name("cmdline", tests, NULL, NULL);
}
