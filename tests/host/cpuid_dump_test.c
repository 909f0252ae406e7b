/*
 * cpuid_dump_test.c: tools/cpuid_dump.c on both dump formats (`cpuid -r`, InstLatx64/AIDA64
 * with its section, subleaf and MSR conventions) and on broken input: every error names the
 * line, and nothing leaks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tools/cpuid_dump.h"

static void parse_ok(struct cpuid_dump *d, const char *text)
{
	char err[160] = "";

	if (cpuid_dump_parse(d, text, err, sizeof(err)))
		fail_msg("parse failed: %s", err);
}

static void parse_err(const char *text, const char *want)
{
	struct cpuid_dump d;
	char err[160] = "";

	assert_int_equal(cpuid_dump_parse(&d, text, err, sizeof(err)), -1);
	if (!strstr(err, want))
		fail_msg("error '%s' lacks '%s'", err, want);
	assert_int_equal(d.nleaves, 0);	/* freed */
}

static void test_cpuid_r_format(void **state)
{
	struct cpuid_dump d;
	struct cpuid_regs r;

	(void)state;
	parse_ok(&d, "CPU 0:\n"
		  "   0x00000000 0x00: eax=0x00000016 ebx=0x756e6547 ecx=0x6c65746e edx=0x49656e69\n"
		  "   0x00000004 0x01: eax=0x1c004122 ebx=0x01c0003f ecx=0x0000003f edx=0x00000000\n"
		  "CPU 1:\n"
		  "   0x00000000 0x00: eax=0x00000016 ebx=0x756e6547 ecx=0x6c65746e edx=0x49656e69\n"
		  "   0x00000001 0x00: eax=0x000506e3 ebx=0x01100800 ecx=0x7ffafbbf edx=0xbfebfbff\n");
	assert_int_equal(d.ncpus, 2);
	assert_int_equal(d.cpus[1], 1);
	cpuid_dump_get(&d, 0, 4, 1, &r);
	assert_int_equal(r.eax, 0x1c004122);
	cpuid_dump_get(&d, 1, 1, 0, &r);
	assert_int_equal(r.ebx, 0x01100800);
	cpuid_dump_get(&d, 0, 1, 0, &r);	/* CPU 0 has no leaf 1 listed: zeros */
	assert_int_equal(r.eax, 0);
	cpuid_dump_free(&d);
	/* `cpuid -r -1`: one CPU, "CPU:" */
	parse_ok(&d, "CPU:\n   0x00000000 0x00: eax=0x0000000d ebx=0x68747541 ecx=0x444d4163 "
		  "edx=0x69746e65\n");
	assert_int_equal(d.ncpus, 1);
	cpuid_dump_free(&d);
}

static void test_instlatx64_format(void **state)
{
	struct cpuid_dump d;
	struct cpuid_regs r;
	uint64_t v;

	(void)state;
	parse_ok(&d, "------[ CPU Info ]------\r\n"
		  "CPUID Manufacturer: GenuineIntel\r\n"
		  "CPUID CPU Name    : 12th Gen Intel(R) Core(TM) i5-12400\r\n"
		  "------[ CPUID Registers / Logical CPU #0 ]------\r\n"
		  "CPUID 00000000: 0000001B-756E6547-6C65746E-49656E69 [GenuineIntel]\r\n"
		  "CPUID 00000004: 7C004121-01C0003F-0000003F-00000000 [SL 00]\r\n"
		  "CPUID 00000004: 7C004122-01C0003F-0000003F-00000000 [SL 01]\r\n"
		  "CPUID 0000000D: 00000000-00000000-00000000-00000000 [SL 0F]\r\n"
		  "CPU Clock = 2937.00 MHz / TSC Clock = 2937.00 MHz\r\n"
		  "------[ Logical CPU #2 ]------\r\n"
		  "CPUID 00000000: 0000000B-756E6547-6C65746E-49656E69\r\n"
		  "CPUID 00000004: 1C004121-01C0003F-0000003F-00000000\r\n"
		  "CPUID 00000004: 1C004122-00C0003F-0000007F-00000000\r\n"
		  "------[ MSR Registers / Logical CPU #2 ]------\r\n"
		  "MSR 000001A0: 0000-0040-6097-2489\r\n"
		  "MSR 000001AC: < FAILED >\r\n"
		  "------[ MSR Registers ]------\r\n"
		  "MSR 0000008B: 0000-0044-0000-0000 [S200]\r\n");
	assert_int_equal(d.ncpus, 2);
	cpuid_dump_get(&d, 0, 4, 1, &r);
	assert_int_equal(r.eax, 0x7c004122);
	cpuid_dump_get(&d, 0, 0xd, 0xf, &r);
	assert_int_equal(r.eax, 0);
	/* no "[SL nn]": repeated leaf lines are subleaves 0, 1, ... */
	cpuid_dump_get(&d, 2, 4, 1, &r);
	assert_int_equal(r.ebx, 0x00c0003f);
	assert_true(cpuid_dump_msr(&d, 2, 0x1a0, &v));
	assert_int_equal(v, 0x0000004060972489ull);
	assert_false(cpuid_dump_msr(&d, 2, 0x1ac, &v));
	assert_true(cpuid_dump_msr(&d, 0, 0x8b, &v));	/* unnumbered MSR section: first CPU */
	assert_int_equal(v, 0x44ull << 32);
	cpuid_dump_free(&d);
}

static void test_broken_dumps(void **state)
{
	(void)state;
	parse_err("", "line 0: no CPUID records");
	parse_err("hello\nworld\n", "no CPUID records");
	/* cut in the middle of a record */
	parse_err("CPU 0:\n   0x00000000 0x00: eax=0x00000016 ebx=0x756e6547 ecx=0x6c65746e "
		  "edx=0x49656e69\n   0x00000001 0x00: eax=0x000506e3 ebx=0x0110",
		  "line 3: malformed or truncated CPUID record");
	parse_err("CPUID 00000000: 0000001B-756E6547-6C65746E-49656E69\nCPUID 00000001: 000906",
		  "line 2: malformed or truncated CPUID record");
	parse_err("CPUID 00000000: 0000001B-756E6547-6C65746E-49656E69\nCPUID 0000000",
		  "line 2: malformed");
	parse_err("CPUID 00000000: 0000001B-756E6547-6C65746E-49656E69\n"
		  "CPUID 00000004: 7C004121-01C0003F-0000003F-00000000 [SL 0]\n", "line 2: malformed");
	parse_err("CPUID 00000000: 0000001B-756E6547-6C65746E-49656E69\nMSR 000001A0: 0000-00\n",
		  "line 2: malformed or truncated MSR record");
	parse_err("   0x00000000 0x00: eax=0x0000000g ebx=0 ecx=0 edx=0\n", "line 1: malformed");
	parse_err("CPU 0:\n   0x00000001 0x00: eax=0x000506e3 ebx=0x01100800 ecx=0x7ffafbbf "
		  "edx=0xbfebfbff\n", "CPU 0 has no CPUID leaf 0");
	parse_err("CPU 0:\n   0x00000000 0x00: eax=0x00000016 ebx=0x756e6547 ecx=0x6c65746e "
		  "edx=0x49656e69\nCPU 0:\n", "line 3: CPU 0 listed twice");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpuid_r_format),
		cmocka_unit_test(test_instlatx64_format),
		cmocka_unit_test(test_broken_dumps),
	};
	return cmocka_run_group_tests_name("cpuid_dump", tests, NULL, NULL);
}
