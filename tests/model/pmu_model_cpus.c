/*
 * pmu_model_cpus.c: the CPUs the PMU model can be (pmu_model.h). Values per docs/hardware.md
 * (§ below): §2 CPUID.0AH, §1.9 PERF_CAPABILITIES (record format §4.1), §1.5 PEBS_ENABLE
 * bits, §6 events/counters, §7.1 quirks, §9 model numbers; each CPU names its primary source.
 * PERF_CAPABILITIES low bits (LBR format) are illustrative; SPR reporting format 5 is
 * UNVERIFIED (§4.1 says which models report 5 is not confirmed) and is used here so the
 * format >= 5 DS reset-slot layout is exercised.
 * cpuid_count (the kernel/hw.h call): the leaves the selected CPU reports (0, 1, 7, 0AH, 1AH,
 * 23H through pmu_model_arch.c, the hypervisor leaf and 8000_0000H..8000_0008H).
 */
#include "model/pmu_model.h"
#include "model/pmu_model_int.h"
#include "kernel/hw.h"

#include <string.h>

#define MISC_EMON 0x81ull	/* fast strings + EMON[7]; PEBS_UNAVAIL[12] clear */

/* Nehalem-EP 06_1A: perfmon v3, format 1, LL_EN (SDM Nehalem "Load Latency Performance
 * Monitoring Facility"; Linux ds.c intel_nehalem_pebs_event_constraints, core.c
 * intel_pmu_nhm_workaround). Load latency on PMC3 only, as Intel's perfmon NehalemEP_core.json
 * gives every MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_* (Counter "3"; Linux allows 0xf: the
 * generated row takes the intersection, docs/tables.md). */
const struct model_cpu model_nehalem = {
	.name = "Nehalem", .signature = 0x106a5, .version = 3, .n_gp = 4, .gp_width = 48,
	.n_fixed = 3, .fixed_width = 48, .ds = true, .dtes64 = true, .pdcm = true,
	.perf_cap = 0x1c3, .misc_enable = MISC_EMON, .microcode = 0x11, .pebs_gp = 0xf,
	.ll_event = 0x100b, .ll_gp = 0x8, .st_event = 0x010c, .nhm_reset = true,
	.period = PERIOD_NHM,	/* Linux core.c nhm_limit_period */
};

/* Sandy Bridge 06_2A: format 1, load latency on PMC3 only, precise store + PS_EN (SDM Sandy
 * Bridge PEBS section; Linux ds.c intel_snb_pebs_event_constraints). */
const struct model_cpu model_sandybridge = {
	.name = "Sandy Bridge", .signature = 0x206a7, .version = 3, .n_gp = 4, .gp_width = 48,
	.n_fixed = 3, .fixed_width = 48, .ds = true, .dtes64 = true, .pdcm = true,
	.perf_cap = 0x31c4, .misc_enable = MISC_EMON, .microcode = 0x2f, .pebs_gp = 0xf,
	.ll_event = 0x01cd, .ll_gp = 0x8, .st_event = 0x02cd, .ps_en_store = true,
	.ht_erratum = true,	/* BJ122 (Linux core.c intel_ht_bug) */
};

/* Haswell 06_3C: format 2, DataLA store event (SDM Haswell PEBS record table; Linux ds.c
 * intel_hsw_pebs_event_constraints). Load latency on PMC3 only (Intel's perfmon
 * haswell_core.json: MEM_TRANS_RETIRED.LOAD_LATENCY_GT_* Counter "3"). */
const struct model_cpu model_haswell = {
	.name = "Haswell", .signature = 0x306c3, .version = 3, .n_gp = 4, .gp_width = 48,
	.n_fixed = 3, .fixed_width = 48, .ds = true, .dtes64 = true, .pdcm = true,
	.perf_cap = 0x32c5, .misc_enable = MISC_EMON, .microcode = 0x28, .pebs_gp = 0xf,
	.ll_event = 0x01cd, .ll_gp = 0x8, .st_event = 0x82d0,
	.tsx = true, .ht_erratum = true, .period = PERIOD_HSW,	/* HSD29, hsw_limit_period */
};

/* Broadwell 06_3D: Haswell's PMU; INST_RETIRED.ALL period >= 128 and a multiple of 64 (Linux
 * core.c bdw_limit_period, errata BDM11/BDM55), no HT erratum (Linux: no intel_ht_bug). */
const struct model_cpu model_broadwell = {
	.name = "Broadwell", .signature = 0x306d4, .version = 3, .n_gp = 4, .gp_width = 48,
	.n_fixed = 3, .fixed_width = 48, .ds = true, .dtes64 = true, .pdcm = true,
	.perf_cap = 0x32c5, .misc_enable = MISC_EMON, .microcode = 0x2f, .pebs_gp = 0xf,
	.ll_event = 0x01cd, .ll_gp = 0x8, .st_event = 0x82d0, .tsx = true, .period = PERIOD_BDW,
};

/* Skylake 06_5E: perfmon v4, format 3 (Linux ds.c intel_skl_pebs_event_constraints). */
const struct model_cpu model_skylake = {
	.name = "Skylake", .signature = 0x506e3, .version = 4, .n_gp = 4, .gp_width = 48,
	.n_fixed = 3, .fixed_width = 48, .ds = true, .dtes64 = true, .pdcm = true,
	.perf_cap = 0x33c6, .misc_enable = MISC_EMON, .microcode = 0xf0, .pebs_gp = 0xf,
	.ll_event = 0x01cd, .ll_gp = 0xf, .st_event = 0x82d0,
	.tsx = true, .tfa = true,	/* Linux core.c tfa_get_event_constraints */
};

/* Ice Lake-SP 06_6A: perfmon v5, format 4 + baseline, 8 GP (Linux ds.c
 * intel_icl_pebs_event_constraints, intel_pmu_pebs_data_source_skl(pmem=true)). */
const struct model_cpu model_icelake_sp = {
	.name = "Ice Lake-SP", .signature = 0x606a6, .version = 5, .n_gp = 8, .gp_width = 48,
	.n_fixed = 4, .fixed_width = 48, .ds = true, .dtes64 = true, .pdcm = true,
	.perf_cap = 0xf4c5, .misc_enable = MISC_EMON, .microcode = 0xd000390, .pebs_gp = 0xff,
	.ll_event = 0x01cd, .ll_gp = 0xff, .st_event = 0x82d0, .tsx = true,
};

/* Sapphire Rapids 06_8F: load latency on PMC1-7 with MEM_LOADS_AUX, STORE_SAMPLE on PMC0,
 * split latency word (Linux ds.c intel_glc_pebs_event_constraints, core.c intel_pmu_hw_config).
 * No timed PEBS (PERF_CAPABILITIES[17] clear: see the Lion Cove row). */
const struct model_cpu model_sapphire_rapids = {
	.name = "Sapphire Rapids", .signature = 0x806f8, .version = 5, .n_gp = 8, .gp_width = 48,
	.n_fixed = 4, .fixed_width = 48, .ds = true, .dtes64 = true, .pdcm = true,
	.perf_cap = 0x1f5c5, .misc_enable = MISC_EMON, .microcode = 0x2b000590, .pebs_gp = 0xff,
	.ll_event = 0x01cd, .ll_gp = 0xfe, .st_event = 0x02cd, .aux_event = 0x8203,
	.split_latency = true,
};

/* Alder Lake E-core (hybrid, CPUID.1AH core type 0x20): Gracemont events on PMC0-1 (Linux
 * ds.c intel_grt_pebs_event_constraints, grt_latency_data). */
const struct model_cpu model_gracemont = {
	.name = "Gracemont", .signature = 0x90672, .core_type = 0x20, .version = 5, .n_gp = 6,
	.gp_width = 48, .n_fixed = 3, .fixed_width = 48, .ds = true, .dtes64 = true,
	.pdcm = true, .perf_cap = 0x74c5, .misc_enable = MISC_EMON, .microcode = 0x430,
	.pebs_gp = 0x3f, .ll_event = 0x05d0, .ll_gp = 0x3, .st_event = 0x06d0,
	.split_latency = true,
};

/* Alder Lake P-core (hybrid, CPUID.1AH core type 0x40): Golden Cove events, load latency on
 * PMC1-7 with MEM_LOADS_AUX, split latency word (Linux ds.c intel_glc_pebs_event_constraints,
 * core.c intel_pmu_hw_config). Record format 5 is a MODELLED choice (docs/hardware.md §4.1:
 * which models report 4 or 5 is not confirmed), so that the modelled hybrid part's two core
 * types differ in format (and DS reset-slot layout) as well as in data-source table. */
const struct model_cpu model_goldencove = {
	.name = "Golden Cove", .signature = 0x90672, .core_type = 0x40, .version = 5, .n_gp = 8,
	.gp_width = 48, .n_fixed = 4, .fixed_width = 48, .ds = true, .dtes64 = true,
	.pdcm = true, .perf_cap = 0xf5c5, .misc_enable = MISC_EMON, .microcode = 0x430,
	.pebs_gp = 0xff, .ll_event = 0x01cd, .ll_gp = 0xfe, .st_event = 0x02cd,
	.aux_event = 0x8203, .split_latency = true,
};

/* Lunar Lake 06_BD P-core (Lion Cove, hybrid): format 6 with the counter-snapshot group, load
 * latency on PMC2-9, stores on PMC0-1 (Linux ds.c intel_lnc_pebs_event_constraints; the
 * format-6 patch "Support PEBS counters snapshotting"). PERF_CAPABILITIES[17] timed PEBS
 * (retire latency in the basic group): Linux tools/perf/Documentation/topdown.txt "TPEBS in
 * TopDown" (TPEBS "since Granite Rapids"), and Intel perfmon's Lion Cove TMA metrics
 * (LNL/metrics/lunarlake_metrics_lioncove_core.json, ARL/metrics/
 * arrowlake_metrics_lioncove_core.json at the commit data/perfmon/ORIGIN names) use measured
 * `:retire_latency` values; Sapphire Rapids' and Alder Lake's (Golden Cove) do not, so those
 * rows leave it clear. */
const struct model_cpu model_lion_cove = {
	.name = "Lion Cove", .signature = 0xb06d1, .core_type = 0x40, .version = 5, .n_gp = 10,
	.gp_width = 48, .n_fixed = 4, .fixed_width = 48, .ds = true, .dtes64 = true,
	.pdcm = true, .perf_cap = 0x266c5, .misc_enable = MISC_EMON, .microcode = 0x11c,
	.pebs_gp = 0x3ff, .ll_event = 0x01cd, .ll_gp = 0x3fc, .st_event = 0x02cd,
	.split_latency = true,
};

/* Granite Rapids-X 06_ADH (Redwood Cove server cores; signature stepping 1 as a Xeon 6975P-C
 * reports 6/173/1). Linux v6.12 core.c intel_pmu_init case INTEL_GRANITERAPIDS_X/_D: Sapphire
 * Rapids' glc_common (intel_pmu_init_glc: intel_glc_pebs_event_constraints, so load latency
 * 0x01cd on PMC1-7 and STORE_SAMPLE 0x02cd on PMC0; PMU_FL_INSTR_LATENCY, the split latency
 * word) but intel_rwc_extra_regs and no PMU_FL_MEM_LOADS_AUX, so no aux event (tip
 * bc4000fdb009 "Add Granite Rapids": "Doesn't need the AUX event workaround for the mem load
 * event"; "Support Retire Latency"); data source intel_pmu_pebs_data_source_skl(true).
 * PERF_CAPABILITIES[17] timed PEBS: the same commit message and Linux tools/perf/Documentation/
 * topdown.txt "TPEBS (Timed PEBS) ... since Granite Rapids". Record format 4 is a MODELLED
 * choice (UNVERIFIED: Linux treats 4, 5 and 6 alike, ds.c intel_ds_init, and v6.12 prints
 * "fmt4" for all three, so no public Linux log pins it; the hand table's decoder default is 4);
 * counter counts as Sapphire Rapids'; baseline, metrics, PEBS-via-PT, the low bits and the
 * microcode illustrative. */
const struct model_cpu model_gnr = {
	.name = "Granite Rapids", .signature = 0xa06d1, .version = 5, .n_gp = 8, .gp_width = 48,
	.n_fixed = 4, .fixed_width = 48, .ds = true, .dtes64 = true, .pdcm = true,
	.perf_cap = 0x3f4c5, .misc_enable = MISC_EMON, .microcode = 0x10003a2, .pebs_gp = 0xff,
	.ll_event = 0x01cd, .ll_gp = 0xfe, .st_event = 0x02cd, .split_latency = true,
};

/* Meteor Lake 06_AAH P-core (Redwood Cove, hybrid CPUID.1AH core type 0x40; signature stepping
 * 4 as a Core Ultra 7 155H reports "family: 0x6, model: 0xaa, stepping: 0x4"). Linux v6.12
 * core.c intel_pmu_init case INTEL_METEORLAKE/_L: intel_pmu_init_glc for the big core (load
 * latency 0x01cd on PMC1-7, STORE_SAMPLE 0x02cd on PMC0, split latency word),
 * intel_rwc_extra_regs, no PMU_FL_MEM_LOADS_AUX (no aux event), data source
 * intel_pmu_pebs_data_source_mtl (the big core's: _skl(false)). PERF_CAPABILITIES[17] timed
 * PEBS: tip c87a31093c70 "perf/x86: Support Retire Latency" (of the Meteor Lake enabling
 * series) "not supported by the fixed counter 0 on p-core of MTL" (core.c
 * rwc_get_event_constraints moves such events to PMC1-7; not modelled here: this model's DS
 * PEBS runs on GP counters, and the kernel's retire judgement samples the load-latency event
 * on PMC1-7). PERF_CAPABILITIES[15] (metrics) reads 0 on Meteor Lake (core.c
 * intel_pmu_broken_perf_cap: "The Perf Metric (Bit 15) is always cleared"), so it is clear
 * here; [16] PEBS-via-PT clear (ds.c: not supported on hybrid parts). Record format 5 is a
 * MODELLED choice (UNVERIFIED, as for Granite Rapids; the hand table's decoder default is 5),
 * so that the format >= 5 DS reset-slot layout runs with timed PEBS too; counter counts, low
 * bits and microcode illustrative. */
const struct model_cpu model_mtl_p = {
	.name = "Redwood Cove", .signature = 0xa06a4, .core_type = 0x40, .version = 5, .n_gp = 8,
	.gp_width = 48, .n_fixed = 4, .fixed_width = 48, .ds = true, .dtes64 = true,
	.pdcm = true, .perf_cap = 0x275c5, .misc_enable = MISC_EMON, .microcode = 0x24,
	.pebs_gp = 0xff, .ll_event = 0x01cd, .ll_gp = 0xfe, .st_event = 0x02cd,
	.split_latency = true,
};

/* Core 2 Penryn: format 0, PEBS on PMC0 only, no load latency, buffer limited to 4 KiB (Linux
 * ds.c intel_core2_pebs_event_constraints, intel_ds_init). */
const struct model_cpu model_penryn = {
	.name = "Penryn", .signature = 0x10676, .version = 2, .n_gp = 2, .gp_width = 40,
	.n_fixed = 3, .fixed_width = 40, .ds = true, .dtes64 = true, .pdcm = true,
	.perf_cap = 0x0c2, .misc_enable = MISC_EMON, .microcode = 0x60f, .pebs_gp = 0x1,
};

/* QEMU TCG: CPUID.0AH all zero (no PMU); the model name still comes through CPUID.1 (observed
 * under QEMU 7.2, tests/boot). */
const struct model_cpu model_qemu_tcg_skl = {
	.name = "QEMU TCG Skylake-Client", .signature = 0x506e3, .misc_enable = 0x1,
	.microcode = 0x1, .hypervisor = true,
};

/* QEMU's Icelake-Server reports DisplayModel 0x86 (Intel's number for Tremont). */
const struct model_cpu model_qemu_tcg_icx = {
	.name = "QEMU TCG Icelake-Server", .signature = 0x80660, .misc_enable = 0x1,
	.microcode = 0x1, .hypervisor = true, .pdcm = true,
};

const struct model_cpu *const model_cpus[] = {
	&model_nehalem, &model_sandybridge, &model_haswell, &model_skylake, &model_icelake_sp,
	&model_sapphire_rapids, &model_gracemont, &model_goldencove, &model_lion_cove, &model_gnr,
	&model_mtl_p, NULL,
};

void cpuid_count(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	const struct model_cpu *c = M.cpu;

	memset(r, 0, sizeof(*r));
	switch (leaf) {
	case 0:
		r->eax = c->arch_caps ? 0x23 : 0x1a;
		memcpy(&r->ebx, "Genu", 4), memcpy(&r->edx, "ineI", 4), memcpy(&r->ecx, "ntel", 4);
		break;
	case 1:
		r->eax = c->signature;
		M.ucode_latch = (uint64_t)c->microcode << 32;	/* SDM Vol. 3A 10.11.7 */
		r->ecx = (c->dtes64 ? 1u << 2 : 0) | (c->pdcm ? 1u << 15 : 0) |
			 (c->hypervisor ? 1u << 31 : 0);
		r->edx = (1u << 4) | (1u << 5) | (1u << 9) | (c->ds ? 1u << 21 : 0);
		break;
	case 7:
		if (subleaf == 1)	/* ArchPerfmonExt: leaf 23H (docs/arch-pebs.md) */
			r->eax = c->arch_caps ? 1u << 8 : 0;
		else	/* EBX[11] RTM, EDX[13] TSX_FORCE_ABORT, EDX[15] hybrid */
			r->ebx = c->tsx ? 1u << 11 : 0,
			r->edx = (c->core_type ? 1u << 15 : 0) | (c->tfa ? 1u << 13 : 0);
		break;
	case 0x23:
		model_arch_cpuid(subleaf, r);
		break;
	case 0xa:
		if (!c->version)
			break;
		r->eax = c->version | (uint32_t)c->n_gp << 8 | (uint32_t)c->gp_width << 16 | 7u << 24;
		r->edx = c->n_fixed | (uint32_t)c->fixed_width << 5;
		break;
	case 0x1a:
		r->eax = (uint32_t)c->core_type << 24;
		break;
	case 0x40000000:
		memcpy(&r->ebx, "TCGT", 4), memcpy(&r->ecx, "CGTC", 4), memcpy(&r->edx, "GTCG", 4);
		break;
	case 0x80000000:
		r->eax = 0x80000008;
		break;
	case 0x80000001:
		r->edx = (1u << 20) | (1u << 29);
		break;
	case 0x80000008:
		r->eax = 46;
		break;
	}
}
