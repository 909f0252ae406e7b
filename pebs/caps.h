/*
 * caps.h: the PMU/PEBS capability probe, read once into struct pebs_caps (SDM Vol. 3B 20.2
 * "Architectural performance monitoring", 20.6.2 "PEBS"; Vol. 2A CPUID leaves 01H, 0AH, 1AH).
 * Every later decision is a predicate on this struct; a predicate that says no hands back the
 * exact SKIP reason. Facts: docs/hardware.md §1.9, §1.10, §2, §8.1.
 */
#ifndef PEBS_CAPS_H
#define PEBS_CAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/cpu.h"
#include "pebs/uarch.h"

#define PEBS_REASON_LEN 112

struct pebs_caps {
	/* identity (kernel/cpu.h) */
	enum cpu_vendor vendor;
	uint32_t family, model, stepping;
	char brand[49];			/* CPUID.80000002H-80000004H */
	uint32_t microcode;		/* IA32_BIOS_SIGN_ID[63:32] */
	int microcode_fault;		/* vector of a faulting read, 0 if fine */
	bool hybrid;
	uint8_t core_type;		/* CPUID.1AH:EAX[31:24] */
	uint32_t native_model;		/* CPUID.1AH:EAX[23:0] */
	bool hypervisor;
	char hv_sig[13];
	/* CPUID.0AH */
	uint8_t version, n_gp, gp_width, ebx_len;
	uint32_t arch_events_unavail;	/* EBX: bit set = event not available */
	uint8_t n_fixed, fixed_width;
	uint32_t fixed_mask;		/* ECX on v5+, else (1 << n_fixed) - 1 */
	bool anythread_deprecated;
	/* CPUID.1 */
	bool ds, dtes64, pdcm;
	/* IA32_PERF_CAPABILITIES */
	uint64_t perf_cap;
	int perf_cap_fault;		/* 0, or the vector; -1 when not read (no PDCM) */
	uint8_t lbr_fmt, pebs_fmt;
	bool pebs_trap, pebs_arch_reg, freeze_smm, fw_write, baseline, perf_metrics, pebs_pt,
	     timing_info;
	/* IA32_MISC_ENABLE */
	uint64_t misc_enable;
	int misc_fault;
	bool emon, pebs_unavail;
	/* MSR_PEBS_LD_LAT_THRESHOLD probe: a read that may #GP under a hypervisor, then a write
	 * read back (pebs/probe.c, Linux check_msr()): ignored when the value did not stick */
	int ldlat_fault;
	bool ldlat_ignored;
	uint32_t ldlat_wrote;
	uint64_t ldlat_back;
	char ldlat_why[PEBS_REASON_LEN];	/* when ignored: the register, value, read-back */
	/* Functional probe (pebs/probe.c; Linux events/core.c check_hw_exists()): counters that
	 * were enabled before this kernel touched them (firmware, SMM) are left alone */
	uint32_t fw_gp;			/* GP counters with IA32_PERFEVTSELx.EN[22] set */
	uint32_t fw_fixed;		/* fixed counters enabled in IA32_FIXED_CTR_CTRL */
	uint32_t fw_msr;		/* the first such register and its value */
	uint64_t fw_val;
	char hw_why[PEBS_REASON_LEN];	/* "": the counters hold what is written to them */
	bool tfa;			/* CPUID.(07H,0):EDX[13] TSX_FORCE_ABORT: microcode may
					 * take PMC3 unless MSR_TSX_FORCE_ABORT[0] (Q_TFA_PMC3) */
	/* architectural PEBS (format 0xF; pebs/arch_caps.c, docs/arch-pebs.md "Enumeration") */
	bool arch_ext;			/* CPUID.(07H,1):EAX[8]: leaf 23H valid */
	uint32_t arch_leaf0;		/* CPUID.23H.0:EAX: sub-leaves present */
	uint32_t arch_gp, arch_fixed;	/* CPUID.23H.1:EAX/EBX counter bitmaps */
	uint32_t arch_caps;		/* CPUID.23H.4:EBX: bit k = CFG_C bit 32+k supported */
	uint32_t arch_pebs_gp, arch_pebs_fixed;	/* CPUID.23H.5:EAX/ECX: PEBS-capable */
	/* table row, NULL if the model is unknown */
	const struct pebs_uarch *uarch;
	/* Why not: "" when usable. Filled by pebs_caps_probe. */
	char pmu_why[PEBS_REASON_LEN], pebs_why[PEBS_REASON_LEN], ll_why[PEBS_REASON_LEN];
};

/* The kernel's probe (filled once by pebs_caps_init). */
extern struct pebs_caps pebs_caps;

/* Probe through kernel/hw.h; `ci` is the CPUID probe (cpu_probe). Reads MSRs only through
 * the _safe accessors. */
void pebs_caps_probe(struct pebs_caps *c, const struct cpu_info *ci);
/* pebs_caps from the global `cpu`, once; later calls return the same struct. */
const struct pebs_caps *pebs_caps_init(void);

/* Print as KTAP header lines ("# pmu: ..."). */
void pebs_caps_print(const struct pebs_caps *c);
/* Line i (0..5) of that print into b, without "# " and newline; false past the last line. */
bool pebs_caps_line(const struct pebs_caps *c, unsigned i, char *b, size_t n);
/* Whether pebs_caps_print shows line i (no all-zero lines without a PMU; on AMD the cpu line
 * only, the `# pmu: amd` lines say what runs there). */
bool pebs_caps_line_shown(const struct pebs_caps *c, unsigned i);

/* Predicates: true when usable; otherwise *why (if non-NULL) is the exact SKIP reason. */
bool pebs_caps_pmu_ok(const struct pebs_caps *c, const char **why);	/* counting PMU */
bool pebs_caps_pebs_ok(const struct pebs_caps *c, const char **why);	/* DS-area PEBS */
bool pebs_caps_ll_ok(const struct pebs_caps *c, const char **why);	/* load latency */

/* pebs/arch_caps.c: read CPUID 07H.1 and 23H into c (called by pebs_caps_probe), and the
 * SKIP reason of the architectural-PEBS gate into c->pebs_why ("" when it holds). */
void pebs_arch_caps_probe(struct pebs_caps *c, const struct cpu_info *ci);
void pebs_arch_caps_reason(struct pebs_caps *c);

/* pebs/probe.c, called by pebs_caps_probe: the functional probe of the counters (c->fw_*,
 * c->hw_why) and the write-and-read-back of MSR_PEBS_LD_LAT_THRESHOLD (c->ldlat_ignored). */
void pebs_probe_hw(struct pebs_caps *c);
void pebs_probe_ldlat(struct pebs_caps *c);
/* Q_TFA_PMC3 (Linux intel_set_tfa via intel_tfa_commit_scheduling / intel_tfa_pmu_enable_all):
 * MSR_TSX_FORCE_ABORT[0] set when the session uses PMC3, cleared when not; 0, or -1 with
 * err naming the register when PMC3 cannot be taken back from the microcode. */
int pebs_probe_tfa(const struct pebs_caps *c, unsigned counter, char *err, size_t n);
/* Warning i (0..) about this probe into b, without "# warning: "; false past the last. */
bool pebs_caps_warning(const struct pebs_caps *c, unsigned i, char *b, size_t n);

/* Record size in bytes of a legacy format 0..3 (0 for adaptive/unknown). */
unsigned pebs_legacy_record_size(unsigned fmt);
/* GP counters that can PEBS on this CPU (bitmask), less those firmware had enabled. */
static inline uint32_t pebs_caps_pebs_gp(const struct pebs_caps *c)
{
	uint32_t gp = (c->n_gp >= 32 ? ~0u : (1u << c->n_gp) - 1) & ~c->fw_gp;

	if (!c->uarch)
		return 0;
	if (c->pebs_fmt == 0xf)		/* CPUID.23H.5:EAX (docs/arch-pebs.md) */
		return c->arch_pebs_gp & gp & (c->uarch->pebs_gp ? c->uarch->pebs_gp : ~0u);
	return c->uarch->pebs_gp ? (c->uarch->pebs_gp & gp) : (c->baseline ? gp : 0);
}
/* Counter width in bits usable for writes (full width with FW_WRITE, else 32 sign-extended). */
unsigned pebs_caps_write_width(const struct pebs_caps *c);

#endif
