/*
 * trust.h: what a real machine does behind a test's back, watched per test on the boot CPU:
 * SMIs (MSR_SMI_COUNT 0x34, on the models that have it), thermal and power throttling (the
 * R/WC0 log bits of IA32_THERM_STATUS 0x19C and IA32_PACKAGE_THERM_STATUS 0x1B1), the
 * effective core clock (IA32_APERF/IA32_MPERF ratio against the run's start), and the
 * machine-check banks (IA32_MCG_CAP, IA32_MCi_STATUS VAL), scanned at the start and once at
 * the end. Every read goes through the _safe accessors; a signal whose MSR faults is left out
 * and the header says so. The runner (ktests/run.c) brackets each test; timing verdicts ask
 * trust_spoiled() (through loads/kload.c kload_timing_unjudgeable) and SKIP with its reason.
 */
#ifndef KERNEL_TRUST_H
#define KERNEL_TRUST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MSR_SMI_COUNT			0x34
#define MSR_IA32_MPERF			0xe7
#define MSR_IA32_APERF			0xe8
#define MSR_IA32_MCG_CAP		0x179
#define MSR_IA32_THERM_STATUS		0x19c
#define MSR_IA32_PACKAGE_THERM_STATUS	0x1b1
#define MSR_IA32_MC0_STATUS		0x401	/* IA32_MCi_STATUS = 0x401 + 4i */
#define MCI_STATUS_VAL			(1ull << 63)
#define MCG_CAP_COUNT(v)		((unsigned)((v) & 0xff))
#define TRUST_MCE_BANKS			32

/* The log bits that mean the core or package ran slower than asked (SDM Vol. 4 Table 2-2
 * IA32_THERM_STATUS, IA32_PACKAGE_THERM_STATUS; Vol. 3B 15.8 "Thermal Monitoring and
 * Protection"): 1 thermal status log, 3 PROCHOT#/FORCEPR# log, 5 critical temperature log,
 * 11 power limitation log, 13 current limit log, 15 cross-domain limit log (core only). The
 * threshold logs (7, 9) are temperature crossings, not throttling. */
#define THERM_LOG_THROTTLE	((1ull << 1) | (1ull << 3) | (1ull << 5) | (1ull << 11) | \
				 (1ull << 13) | (1ull << 15))
#define PKG_THERM_LOG_THROTTLE	((1ull << 1) | (1ull << 3) | (1ull << 5) | (1ull << 11))

#define TRUST_FREQ_TOLERANCE_PCT 10	/* the effective clock may wander this far */
#define TRUST_MIN_MPERF 100000ull	/* fewer MPERF ticks: too short a window to judge */

struct trust_state {
	/* which signals this CPU has and that read without a fault */
	bool smi, therm, pkg_therm, aperf;
	unsigned mce_banks;
	const char *swallowed;		/* msr_platform_swallows() at init: zeros prove little */
	unsigned start_pct;		/* APERF/MPERF x100 over the start window; 0: not known */
	bool mperf_still;		/* MPERF read fine but did not count over the window */
	uint64_t mce_at_start;		/* banks with VAL set at the start (bit i) */
	uint64_t smi_start, therm_start, pkg_start;	/* what the first reads gave */
	int smi_vec, therm_vec, pkg_vec, aperf_vec, mce_vec;	/* fault vectors, -1: absent */
	/* the running test */
	bool active;
	uint8_t apic_id;		/* CPUID.01H:EBX[31:24] of the CPU that took it */
	uint64_t smi0, aperf0, mperf0;
};

struct trust_moved {
	uint64_t smis;
	uint64_t therm_log, pkg_log;	/* throttle log bits set during the test */
	unsigned freq_pct;		/* effective clock, % of the start; 0: not judged */
	bool freq_moved;
};

extern struct trust_state trust;

/* Which signals are there, clear the thermal logs, measure the start ratio over `window`
 * TSC ticks, scan the MCA banks. After kernel/tsc.c and msr_platform_probe. */
void trust_init(uint64_t window);
/* A sign that the CPU is emulated, which real hardware never shows: an MSR that CPUID
 * advertises faults (IA32_MPERF with CPUID.06H:ECX[0], IA32_THERM_STATUS with
 * CPUID.01H:EDX[22], IA32_PACKAGE_THERM_STATUS with CPUID.06H:EAX[6]), or MPERF does not
 * count in C0 (SDM Vol. 3B 15.2: it counts at a fixed rate while the core runs). NULL if
 * none. */
const char *trust_emulation_hint(void);
/* The header line ("trust: ..."), one line, without "# ". */
void trust_header_line(char *b, size_t n);
/* A test starts: clear the thermal logs, snapshot the counters. */
void trust_begin(void);
/* What moved since trust_begin on this CPU (all zero when not active or on another CPU). */
void trust_moved_now(struct trust_moved *m);
/* Why timing verdicts of the running test cannot be trusted, or NULL. */
const char *trust_spoiled(void);
/* The test ended: its `trust:` line into b (without "# "), false when nothing moved. */
bool trust_end(char *b, size_t n);
/* The MCA banks with IA32_MCi_STATUS.VAL set now (bit i: bank i). */
uint64_t trust_mce_scan(void);
/* The end of the run: MCA banks with VAL set into b ("trust: machine check ..."), false when
 * none. */
bool trust_mce_final(char *b, size_t n);

/* Pure: the `trust:` text of m (false when nothing moved). */
bool trust_moved_text(const struct trust_moved *m, char *b, size_t n);

#endif
