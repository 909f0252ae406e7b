/*
 * preflight_test.c: the preflight's inputs and the kernel probes over real CPUs.
 * (1) tools/cpuid_dump.c on both dump formats and on broken input (the error names the line).
 * (2) Every fixture in tests/fixtures/cpuid/ (origin: SOURCES.md there) through the kernel's own
 *     probes (kernel/cpu.c, pebs/caps.c, pebs/uarch.c, loads/geometry.c) behind the preflight's
 *     hw.h (tools/preflight_hw.c). The expected rows are written from the sources, not from a
 *     run: DisplayFamily/Model per the SDM (Vol. 2A CPUID) and Intel's model lists (Linux
 *     arch/x86/include/asm/intel-family.h), the uarch row per model list, the PEBS record
 *     format per the SDM (Vol. 3B 20.6.2.4 "PEBS record format": 0 Core 2, 1 Nehalem to Ivy
 *     Bridge, 2 Haswell/Broadwell, 3 Skylake family, 4 and later adaptive; Linux
 *     arch/x86/events/intel/ds.c intel_pebs_init for 6 on Lunar/Arrow Lake), cache sizes per
 *     Intel/AMD product specifications (ark.intel.com, amd.com) and the AIDA64 cache summary
 *     in each dump, and the skip reasons from pebs/caps.c's gates.
 *     IA32_PERF_CAPABILITIES is not in these dumps: each row supplies it (PERF_CAP below) from
 *     the format the SDM gives that microarchitecture, as `--msr` would; IA32_MISC_ENABLE and
 *     the microcode come from the dump's own MSR lines where it has them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cpu.h"
#include "loads/geometry.h"
#include "pebs/caps.h"
#include "tools/cpuid_dump.h"
#include "tools/preflight_hw.h"

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

/* IA32_PERF_CAPABILITIES as --msr would give it: record format [11:8], full-width writes
 * [13] (every part here from Nehalem on), baseline/adaptive [14] with format 4 and later
 * (SDM Vol. 4 Table 2-2, IA32_PERF_CAPABILITIES). */
#define PERF_CAP(fmt) (((uint64_t)(fmt) << 8) | ((fmt) >= 1 ? 1ull << 13 : 0) | \
		       ((fmt) >= 4 ? 1ull << 14 : 0))
#define K 1024ull
#define M (1024ull * 1024)
#define NO_CAP (~0ull)

struct fixture {
	const char *file;
	unsigned cpu;		/* the dump's logical CPU (a second block on hybrid parts) */
	uint64_t perf_cap;	/* input, NO_CAP: not given */
	uint64_t misc;		/* input IA32_MISC_ENABLE, 0: the dump's own line */
	uint32_t family, model, stepping;
	uint8_t core_type;
	const char *uarch;	/* the row, NULL: not in the table */
	unsigned fmt;		/* the SDM's record format for this part */
	uint64_t l1d, l2, l3;	/* l3 0: the part has none */
	const char *pebs_why, *ll_why;	/* "": usable */
};

static const struct fixture fixtures[] = {
	/* Core 2 Extreme X6800 (Conroe = Merom core, 06_0FH): 32K L1d, 4M shared L2, no L3;
	 * PEBS switched off for errata AJ67-AJ69/AJ106 */
	{ .file = "core2_conroe", .perf_cap = PERF_CAP(0), .family = 6, .model = 0x0f,
	  .stepping = 6, .uarch = "Core 2 (Merom)", .fmt = 0, .l1d = 32 * K, .l2 = 4 * M,
	  .pebs_why = "Core 2 (Merom): PEBS disabled (errata AJ67/AJ68/AJ69/AJ106)",
	  .ll_why = "Core 2 (Merom): PEBS disabled (errata AJ67/AJ68/AJ69/AJ106)" },
	/* Core 2 Extreme X9650 (Yorkfield = Penryn, 06_17H): 6M L2 per die pair; PEBS without
	 * a load-latency facility */
	{ .file = "core2_yorkfield", .perf_cap = PERF_CAP(0), .family = 6, .model = 0x17,
	  .stepping = 6, .uarch = "Core 2 (Penryn)", .fmt = 0, .l1d = 32 * K, .l2 = 6 * M,
	  .pebs_why = "", .ll_why = "Core 2 (Penryn): no load-latency event" },
	/* Core i7 Bloomfield engineering sample (Nehalem, 06_1AH): 32K/256K/8M */
	{ .file = "nehalem_bloomfield", .perf_cap = PERF_CAP(1), .family = 6, .model = 0x1a,
	  .stepping = 4, .uarch = "Nehalem/Westmere", .fmt = 1, .l1d = 32 * K, .l2 = 256 * K,
	  .l3 = 8 * M, .pebs_why = "", .ll_why = "" },
	/* Core i7-990X (Gulftown = Westmere, 06_2CH): 12M L3 */
	{ .file = "westmere_gulftown", .perf_cap = PERF_CAP(1), .family = 6, .model = 0x2c,
	  .stepping = 2, .uarch = "Nehalem/Westmere", .fmt = 1, .l1d = 32 * K, .l2 = 256 * K,
	  .l3 = 12 * M, .pebs_why = "", .ll_why = "" },
	/* Core i5-2400 (Sandy Bridge, 06_2AH stepping 7) with microcode 0x6 (its MSR 8BH line):
	 * below 0x28, the revision Linux requires for PEBS on this stepping (intel_snb_check_
	 * microcode) */
	{ .file = "sandybridge", .perf_cap = PERF_CAP(1), .family = 6, .model = 0x2a,
	  .stepping = 7, .uarch = "Sandy/Ivy Bridge", .fmt = 1, .l1d = 32 * K, .l2 = 256 * K,
	  .l3 = 6 * M, .pebs_why = "microcode 0x6 < 0x28: PEBS broken on 06_2AH stepping 7",
	  .ll_why = "microcode 0x6 < 0x28: PEBS broken on 06_2AH stepping 7" },
	/* Core i7-3770K (Ivy Bridge, 06_3AH): 8M L3 */
	{ .file = "ivybridge", .perf_cap = PERF_CAP(1), .family = 6, .model = 0x3a, .stepping = 9,
	  .uarch = "Sandy/Ivy Bridge", .fmt = 1, .l1d = 32 * K, .l2 = 256 * K, .l3 = 8 * M,
	  .pebs_why = "", .ll_why = "" },
	/* Core i7-4770 (Haswell, 06_3CH): 8M L3 */
	{ .file = "haswell", .perf_cap = PERF_CAP(2), .family = 6, .model = 0x3c, .stepping = 3,
	  .uarch = "Haswell/Broadwell", .fmt = 2, .l1d = 32 * K, .l2 = 256 * K, .l3 = 8 * M,
	  .pebs_why = "", .ll_why = "" },
	/* Xeon E5-2699 v3 (Haswell-EP, 06_3FH): 45M L3 */
	{ .file = "haswell_ep", .perf_cap = PERF_CAP(2), .family = 6, .model = 0x3f,
	  .stepping = 2, .uarch = "Haswell/Broadwell", .fmt = 2, .l1d = 32 * K, .l2 = 256 * K,
	  .l3 = 45 * M, .pebs_why = "", .ll_why = "" },
	/* Core M-5Y70 (Broadwell-Y, 06_3DH): 4M L3 */
	{ .file = "broadwell_y", .perf_cap = PERF_CAP(2), .family = 6, .model = 0x3d,
	  .stepping = 4, .uarch = "Haswell/Broadwell", .fmt = 2, .l1d = 32 * K, .l2 = 256 * K,
	  .l3 = 4 * M, .pebs_why = "", .ll_why = "" },
	/* Core i5-6400T (Skylake-S, 06_5EH): 6M L3 */
	{ .file = "skylake", .perf_cap = PERF_CAP(3), .family = 6, .model = 0x5e, .stepping = 3,
	  .uarch = "Skylake", .fmt = 3, .l1d = 32 * K, .l2 = 256 * K, .l3 = 6 * M,
	  .pebs_why = "", .ll_why = "" },
	/* Xeon Gold 6154 (Skylake-SP, 06_55H): 1M L2, 24.75M L3; no MSR lines in the dump */
	{ .file = "skylake_sp", .perf_cap = PERF_CAP(3), .misc = 0x80, .family = 6, .model = 0x55,
	  .stepping = 4, .uarch = "Skylake-SP", .fmt = 3, .l1d = 32 * K, .l2 = 1 * M,
	  .l3 = 24 * M + 768 * K, .pebs_why = "", .ll_why = "" },
	/* Core i7-8700K (Coffee Lake-S, 06_9EH): 12M L3 */
	{ .file = "coffeelake", .perf_cap = PERF_CAP(3), .family = 6, .model = 0x9e,
	  .stepping = 10, .uarch = "Skylake", .fmt = 3, .l1d = 32 * K, .l2 = 256 * K,
	  .l3 = 12 * M, .pebs_why = "", .ll_why = "" },
	/* Core i7-1065G7 (Ice Lake-U/Y, 06_7EH): 48K L1d, 512K L2, 8M L3 */
	{ .file = "icelake_y", .perf_cap = PERF_CAP(4), .family = 6, .model = 0x7e, .stepping = 5,
	  .uarch = "Ice/Tiger Lake", .fmt = 4, .l1d = 48 * K, .l2 = 512 * K, .l3 = 8 * M,
	  .pebs_why = "", .ll_why = "" },
	/* Xeon Gold 6336Y (Ice Lake-SP, 06_6AH): 1.25M L2, 36M L3 */
	{ .file = "icelake_sp", .perf_cap = PERF_CAP(4), .misc = 0x80, .family = 6, .model = 0x6a,
	  .stepping = 6, .uarch = "Ice Lake-SP", .fmt = 4, .l1d = 48 * K, .l2 = 1280 * K,
	  .l3 = 36 * M, .pebs_why = "", .ll_why = "" },
	/* Core i5-1135G7 (Tiger Lake-UP3, 06_8CH): 1.25M L2, 8M L3 */
	{ .file = "tigerlake", .perf_cap = PERF_CAP(4), .family = 6, .model = 0x8c,
	  .stepping = 1, .uarch = "Ice/Tiger Lake", .fmt = 4, .l1d = 48 * K, .l2 = 1280 * K,
	  .l3 = 8 * M, .pebs_why = "", .ll_why = "" },
	/* Xeon w7-2475X (Sapphire Rapids, 06_8FH): 2M L2, 37.5M L3 */
	{ .file = "sapphirerapids", .perf_cap = PERF_CAP(4), .family = 6, .model = 0x8f,
	  .stepping = 8, .uarch = "Sapphire/Emerald Rapids", .fmt = 4, .l1d = 48 * K,
	  .l2 = 2 * M, .l3 = 37 * M + 512 * K, .pebs_why = "", .ll_why = "" },
	/* Xeon Gold 5520+ (Emerald Rapids, 06_CFH): 52.5M L3 */
	{ .file = "emeraldrapids", .perf_cap = PERF_CAP(4), .family = 6, .model = 0xcf,
	  .stepping = 2, .uarch = "Sapphire/Emerald Rapids", .fmt = 4, .l1d = 48 * K,
	  .l2 = 2 * M, .l3 = 52 * M + 512 * K, .pebs_why = "", .ll_why = "" },
	/* Xeon 6 (Granite Rapids-AP/SP, 06_ADH): 2M L2, 144M L3 (AIDA64 summary in the dump);
	 * adaptive format (4..6 take the same path) */
	{ .file = "graniterapids", .perf_cap = PERF_CAP(4), .family = 6, .model = 0xad,
	  .stepping = 1, .uarch = "Granite Rapids", .fmt = 4, .l1d = 48 * K, .l2 = 2 * M,
	  .l3 = 144 * M, .pebs_why = "", .ll_why = "" },
	/* Core i5-12400 (Alder Lake-S 6P+0E die, 06_97H): CPUID.07H:EDX.Hybrid = 0, all cores
	 * Golden Cove: 1.25M L2, 18M L3 */
	{ .file = "alderlake", .perf_cap = PERF_CAP(4), .misc = 0x80, .family = 6, .model = 0x97,
	  .stepping = 2, .uarch = "Golden/Raptor Cove (ADL/RPL P)", .fmt = 4, .l1d = 48 * K,
	  .l2 = 1280 * K, .l3 = 18 * M, .pebs_why = "", .ll_why = "" },
	/* Core i9-13900K (Raptor Lake-S, 06_B7H): P-core 2M L2; E-core cluster 4M L2; 36M L3 */
	{ .file = "raptorlake", .cpu = 0, .perf_cap = PERF_CAP(4), .family = 6, .model = 0xb7,
	  .stepping = 1, .core_type = 0x40, .uarch = "Golden/Raptor Cove (ADL/RPL P)", .fmt = 4,
	  .l1d = 48 * K, .l2 = 2 * M, .l3 = 36 * M, .pebs_why = "", .ll_why = "" },
	{ .file = "raptorlake", .cpu = 16, .perf_cap = PERF_CAP(4), .family = 6, .model = 0xb7,
	  .stepping = 1, .core_type = 0x20, .uarch = "Gracemont", .fmt = 4, .l1d = 32 * K,
	  .l2 = 4 * M, .l3 = 36 * M, .pebs_why = "", .ll_why = "" },
	/* Core Ultra 5 125H (Meteor Lake-H, 06_AAH): Redwood Cove 2M L2, Crestmont cluster 2M
	 * L2, 18M L3 */
	{ .file = "meteorlake", .cpu = 0, .perf_cap = PERF_CAP(4), .family = 6, .model = 0xaa,
	  .stepping = 4, .core_type = 0x40, .uarch = "Redwood Cove (MTL P)", .fmt = 4,
	  .l1d = 48 * K, .l2 = 2 * M, .l3 = 18 * M, .pebs_why = "", .ll_why = "" },
	{ .file = "meteorlake", .cpu = 2, .perf_cap = PERF_CAP(4), .family = 6, .model = 0xaa,
	  .stepping = 4, .core_type = 0x20, .uarch = "Crestmont (MTL E)", .fmt = 4, .l1d = 32 * K,
	  .l2 = 2 * M, .l3 = 18 * M, .pebs_why = "", .ll_why = "" },
	/* Core Ultra 9 288V (Lunar Lake, 06_BDH): Lion Cove 2.5M L2 and the 12M L3; the Skymont
	 * LP cluster has its 4M L2 and no L3 behind it */
	{ .file = "lunarlake", .cpu = 0, .perf_cap = PERF_CAP(6), .family = 6, .model = 0xbd,
	  .stepping = 1, .core_type = 0x40, .uarch = "Lion Cove", .fmt = 6, .l1d = 48 * K,
	  .l2 = 2560 * K, .l3 = 12 * M, .pebs_why = "", .ll_why = "" },
	{ .file = "lunarlake", .cpu = 4, .perf_cap = PERF_CAP(6), .family = 6, .model = 0xbd,
	  .stepping = 1, .core_type = 0x20, .uarch = "Skymont", .fmt = 6, .l1d = 32 * K,
	  .l2 = 4 * M, .l3 = 0, .pebs_why = "", .ll_why = "" },
	/* Core Ultra 5 245K (Arrow Lake-S, 06_C6H): Lion Cove 3M L2, Skymont 4M, 24M L3 */
	{ .file = "arrowlake", .cpu = 0, .perf_cap = PERF_CAP(6), .family = 6, .model = 0xc6,
	  .stepping = 2, .core_type = 0x40, .uarch = "Lion Cove", .fmt = 6, .l1d = 48 * K,
	  .l2 = 3 * M, .l3 = 24 * M, .pebs_why = "", .ll_why = "" },
	{ .file = "arrowlake", .cpu = 2, .perf_cap = PERF_CAP(6), .family = 6, .model = 0xc6,
	  .stepping = 2, .core_type = 0x20, .uarch = "Skymont", .fmt = 6, .l1d = 32 * K,
	  .l2 = 4 * M, .l3 = 24 * M, .pebs_why = "", .ll_why = "" },
	/* Pentium N4200 (Goldmont, 06_5CH): 24K L1d, 1M L2 per 2-core module, no L3; format 3
	 * (Linux "PEBS fmt3" on Goldmont); not in our table and no baseline */
	{ .file = "goldmont", .perf_cap = PERF_CAP(3), .family = 6, .model = 0x5c, .stepping = 9,
	  .uarch = NULL, .fmt = 3, .l1d = 24 * K, .l2 = 1 * M, .l3 = 0,
	  .pebs_why = "model 06_5CH not in the PEBS table and no PEBS baseline",
	  .ll_why = "model 06_5CH not in the PEBS table and no PEBS baseline" },
	/* Pentium Silver N6005 (Jasper Lake = Tremont, 06_9CH): 1.5M L2, 4M L3; adaptive PEBS
	 * but no load-latency facility */
	{ .file = "jasperlake", .perf_cap = PERF_CAP(4), .family = 6, .model = 0x9c,
	  .stepping = 0, .uarch = "Tremont", .fmt = 4, .l1d = 32 * K, .l2 = 1536 * K,
	  .l3 = 4 * M, .pebs_why = "", .ll_why = "Tremont: no load-latency event" },
	/* Intel N95 (Alder Lake-N, 06_BEH, Gracemont only, not hybrid): 2M L2, 6M L3 */
	{ .file = "alderlake_n", .perf_cap = PERF_CAP(4), .family = 6, .model = 0xbe,
	  .stepping = 0, .uarch = "Gracemont (ADL-N)", .fmt = 4, .l1d = 32 * K, .l2 = 2 * M,
	  .l3 = 6 * M, .pebs_why = "", .ll_why = "" },
	/* AMD: Ryzen 7 1700X (Zen, 17_01H), Ryzen 7 5800X3D (Zen 3, 19_21H, 96M V-Cache L3),
	 * EPYC 4124P (Zen 4, 19_61H), EPYC 9655 (Zen 5, 1A_02H); the Intel PMU path only */
	{ .file = "zen1", .perf_cap = NO_CAP, .family = 0x17, .model = 0x01, .stepping = 1,
	  .l1d = 32 * K, .l2 = 512 * K, .l3 = 8 * M,
	  .pebs_why = "CPU vendor AMD: only the Intel PMU is supported",
	  .ll_why = "CPU vendor AMD: only the Intel PMU is supported" },
	{ .file = "zen3_vermeer", .perf_cap = NO_CAP, .family = 0x19, .model = 0x21,
	  .stepping = 2, .l1d = 32 * K, .l2 = 512 * K, .l3 = 96 * M,
	  .pebs_why = "CPU vendor AMD: only the Intel PMU is supported",
	  .ll_why = "CPU vendor AMD: only the Intel PMU is supported" },
	{ .file = "zen4_raphael", .perf_cap = NO_CAP, .family = 0x19, .model = 0x61,
	  .stepping = 2, .l1d = 32 * K, .l2 = 1 * M, .l3 = 16 * M,
	  .pebs_why = "CPU vendor AMD: only the Intel PMU is supported",
	  .ll_why = "CPU vendor AMD: only the Intel PMU is supported" },
	{ .file = "zen5_turin", .perf_cap = NO_CAP, .family = 0x1a, .model = 0x02,
	  .stepping = 1, .l1d = 48 * K, .l2 = 1 * M, .l3 = 32 * M,
	  .pebs_why = "CPU vendor AMD: only the Intel PMU is supported",
	  .ll_why = "CPU vendor AMD: only the Intel PMU is supported" },
	/* this project's VM: AMD EPYC (Zen, 17_01H) under KVM, `cpuid -r` */
	{ .file = "this_vm_epyc_kvm", .perf_cap = NO_CAP, .family = 0x17, .model = 0x01,
	  .stepping = 2, .l1d = 32 * K, .l2 = 512 * K, .l3 = 8 * M,
	  .pebs_why = "CPU vendor AMD: only the Intel PMU is supported",
	  .ll_why = "CPU vendor AMD: only the Intel PMU is supported" },
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

static void check_level(const char *file, const char *lvl, const struct cache_level *c,
			uint64_t want)
{
	if (!want) {
		if (c->src != CSRC_DEFAULT)
			fail_msg("%s %s: want none from CPUID, got %llu (src %d)", file, lvl,
				 (unsigned long long)c->size, c->src);
		return;
	}
	if (c->size != want || c->src == CSRC_DEFAULT)
		fail_msg("%s %s: want %llu, got %llu (src %d)", file, lvl, (unsigned long long)want,
			 (unsigned long long)c->size, c->src);
}

static void check_fixture(const struct fixture *fx)
{
	char path[128], err[160], msr[64];
	struct cpuid_dump d;
	struct cpu_info ci;
	struct pebs_caps c;
	struct cache_geometry g;
	const char *why;
	unsigned unread;
	char *text;

	snprintf(path, sizeof(path), "tests/fixtures/cpuid/%s.txt", fx->file);
	text = slurp(path);
	if (!text)
		fail_msg("%s: cannot read (run from the repository root)", path);
	if (cpuid_dump_parse(&d, text, err, sizeof(err)))
		fail_msg("%s: %s", path, err);
	free(text);
	pf_hw_clear_msrs();
	if (fx->perf_cap != NO_CAP) {
		snprintf(msr, sizeof(msr), "IA32_PERF_CAPABILITIES=0x%llx",
			 (unsigned long long)fx->perf_cap);
		assert_int_equal(pf_hw_set_msr(msr, err, sizeof(err)), 0);
	}
	/* MSR_PEBS_LD_LAT_THRESHOLD exists on every part whose row has a load-latency event
	 * (SDM Vol. 3B 20.3.1.1.2); the kernel probes it for hypervisors that fault on it */
	if (fx->perf_cap != NO_CAP)
		assert_int_equal(pf_hw_set_msr("MSR_PEBS_LD_LAT_THRESHOLD=3", err, sizeof(err)), 0);
	if (fx->misc) {
		snprintf(msr, sizeof(msr), "IA32_MISC_ENABLE=0x%llx", (unsigned long long)fx->misc);
		assert_int_equal(pf_hw_set_msr(msr, err, sizeof(err)), 0);
	}
	pf_hw_use_dump(&d, fx->cpu);
	cpu_probe(&ci);
	pebs_caps_probe(&c, &ci);
	geometry_probe(&g, &ci);
	unread = pf_hw_unread();
	cpuid_dump_free(&d);

	if (ci.family != fx->family || ci.model != fx->model || ci.stepping != fx->stepping)
		fail_msg("%s: %02X_%02XH stepping %u, want %02X_%02XH stepping %u", fx->file,
			 ci.family, ci.model, ci.stepping, fx->family, fx->model, fx->stepping);
	if (ci.core_type != fx->core_type)
		fail_msg("%s CPU %u: core type 0x%x, want 0x%x", fx->file, fx->cpu, ci.core_type,
			 fx->core_type);
	if (!fx->uarch != !c.uarch || (fx->uarch && strcmp(fx->uarch, c.uarch->name)))
		fail_msg("%s: uarch '%s', want '%s'", fx->file, c.uarch ? c.uarch->name : "(none)",
			 fx->uarch ? fx->uarch : "(none)");
	/* the row's format agrees with the SDM's (0xff: the row leaves it to the MSR) */
	if (c.uarch && c.uarch->pebs_fmt != 0xff && c.uarch->pebs_fmt != fx->fmt)
		fail_msg("%s: row '%s' says PEBS format %u, the SDM %u", fx->file, c.uarch->name,
			 c.uarch->pebs_fmt, fx->fmt);
	if (fx->perf_cap != NO_CAP && c.pebs_fmt != fx->fmt)
		fail_msg("%s: PEBS format %u, want %u", fx->file, c.pebs_fmt, fx->fmt);
	check_level(fx->file, "L1d", &g.l1d, fx->l1d);
	check_level(fx->file, "L2", &g.l2, fx->l2);
	check_level(fx->file, "L3", &g.l3, fx->l3);
	if (!pebs_caps_pebs_ok(&c, &why) != !!fx->pebs_why[0] || strcmp(why, fx->pebs_why))
		fail_msg("%s: PEBS '%s', want '%s'", fx->file, why, fx->pebs_why);
	if (!pebs_caps_ll_ok(&c, &why) != !!fx->ll_why[0] || strcmp(why, fx->ll_why))
		fail_msg("%s: load latency '%s', want '%s'", fx->file, why, fx->ll_why);
	/* everything the probe asked for was there, but for the microcode revision in the
	 * dumps without MSR lines (it gates PEBS on Sandy Bridge only) */
	if (fx->perf_cap != NO_CAP)
		assert_int_equal(unread & ~4u, 0);
}

static void test_fixtures(void **state)
{
	const struct fixture *fx = *state;

	check_fixture(fx);
}

int main(void)
{
	enum { NF = sizeof(fixtures) / sizeof(fixtures[0]) };
	struct CMUnitTest tests[3 + NF];
	static char names[NF][64];

	tests[0] = (struct CMUnitTest)cmocka_unit_test(test_cpuid_r_format);
	tests[1] = (struct CMUnitTest)cmocka_unit_test(test_instlatx64_format);
	tests[2] = (struct CMUnitTest)cmocka_unit_test(test_broken_dumps);
	for (unsigned i = 0; i < NF; i++) {
		snprintf(names[i], sizeof(names[i]), "fixture %s cpu %u", fixtures[i].file,
			 fixtures[i].cpu);
		tests[3 + i] = (struct CMUnitTest){ names[i], test_fixtures, NULL, NULL,
						     (void *)&fixtures[i] };
	}
	return _cmocka_run_group_tests("preflight", tests, 3 + NF, NULL, NULL);
}
