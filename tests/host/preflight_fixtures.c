/*
 * preflight_fixtures.c: the expected rows for the CPUID fixtures, written from the sources
 * (not from a run): DisplayFamily/Model per the SDM (Vol. 2A CPUID) and Intel's model list
 * (Linux arch/x86/include/asm/intel-family.h); the uarch row by that model list; the PEBS
 * record format per the SDM (Vol. 3B 20.6.2.4: 0 Core 2, 1 Nehalem to Ivy Bridge,
 * 2 Haswell/Broadwell, 3 Skylake family, 4 and later adaptive; Linux arch/x86/events/intel/
 * ds.c intel_pebs_init for 6 on Lunar/Arrow Lake); cache sizes per Intel/AMD product
 * specifications (ark.intel.com, amd.com), matching the AIDA64 cache summary in each dump;
 * skip reasons from pebs/caps.c's gates. IA32_PERF_CAPABILITIES is not in these dumps: each
 * row supplies it (PERF_CAP) from that format, as `--msr` would.
 */
#include "tests/host/preflight_fixtures.h"

#include <stddef.h>

/* IA32_PERF_CAPABILITIES as --msr would give it: record format [11:8], full-width writes
 * [13] (every part here from Nehalem on), baseline/adaptive [14] with format 4 and later
 * (SDM Vol. 4 Table 2-2, IA32_PERF_CAPABILITIES). */
#define PERF_CAP(fmt) (((uint64_t)(fmt) << 8) | ((fmt) >= 1 ? 1ull << 13 : 0) | \
		       ((fmt) >= 4 ? 1ull << 14 : 0))
#define K 1024ull
#define M (1024ull * 1024)

const struct fixture preflight_fixtures[] = {
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
	 * (Linux "PEBS fmt3" on Goldmont); PEBS on PMC0, no load-latency event (docs/tables.md) */
	{ .file = "goldmont", .perf_cap = PERF_CAP(3), .family = 6, .model = 0x5c, .stepping = 9,
	  .uarch = "Goldmont", .fmt = 3, .l1d = 24 * K, .l2 = 1 * M, .l3 = 0, .pebs_why = "",
	  .ll_why = "Goldmont: PEBS without load latency on Goldmont (PMC0 only)" },
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
	  .pebs_why = "CPU vendor AMD: an Intel PMU test (AMD samples through IBS)",
	  .ll_why = "CPU vendor AMD: an Intel PMU test (AMD samples through IBS)" },
	{ .file = "zen3_vermeer", .perf_cap = NO_CAP, .family = 0x19, .model = 0x21,
	  .stepping = 2, .l1d = 32 * K, .l2 = 512 * K, .l3 = 96 * M,
	  .pebs_why = "CPU vendor AMD: an Intel PMU test (AMD samples through IBS)",
	  .ll_why = "CPU vendor AMD: an Intel PMU test (AMD samples through IBS)" },
	{ .file = "zen4_raphael", .perf_cap = NO_CAP, .family = 0x19, .model = 0x61,
	  .stepping = 2, .l1d = 32 * K, .l2 = 1 * M, .l3 = 16 * M,
	  .pebs_why = "CPU vendor AMD: an Intel PMU test (AMD samples through IBS)",
	  .ll_why = "CPU vendor AMD: an Intel PMU test (AMD samples through IBS)" },
	{ .file = "zen5_turin", .perf_cap = NO_CAP, .family = 0x1a, .model = 0x02,
	  .stepping = 1, .l1d = 48 * K, .l2 = 1 * M, .l3 = 32 * M,
	  .pebs_why = "CPU vendor AMD: an Intel PMU test (AMD samples through IBS)",
	  .ll_why = "CPU vendor AMD: an Intel PMU test (AMD samples through IBS)" },
	/* this project's VM: AMD EPYC (Zen, 17_01H) under KVM, `cpuid -r` */
	{ .file = "this_vm_epyc_kvm", .perf_cap = NO_CAP, .family = 0x17, .model = 0x01,
	  .stepping = 2, .l1d = 32 * K, .l2 = 512 * K, .l3 = 8 * M,
	  .pebs_why = "CPU vendor AMD: an Intel PMU test (AMD samples through IBS)",
	  .ll_why = "CPU vendor AMD: an Intel PMU test (AMD samples through IBS)" },
};

const unsigned preflight_nfixtures = sizeof(preflight_fixtures) / sizeof(preflight_fixtures[0]);
