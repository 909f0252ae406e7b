/*
 * msr_platform.h: does this platform raise #GP on an MSR it does not implement? RDMSR and
 * WRMSR of a reserved or unimplemented MSR raise #GP(0) (SDM Vol. 2B, RDMSR/WRMSR
 * "Protected Mode Exceptions"); every _safe probe (kernel/hw.h) rests on that. Some platforms
 * swallow instead: KVM with ignore_msrs=1 (Linux arch/x86/kvm/x86.c kvm_msr_ignored_check:
 * reads 0, writes dropped), QEMU TCG (target/i386/tcg/sysemu/misc_helper.c helper_rdmsr and
 * helper_wrmsr, default case), Bochs with `cpu: ignore_bad_msrs=1` (its default). There an
 * MSR read that did not fault says nothing about the MSR existing.
 */
#ifndef KERNEL_MSR_PLATFORM_H
#define KERNEL_MSR_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Beyond every MSR range Intel, AMD and hypervisors define (0xC0000000-0xC001FFFF ends the
 * highest), so RDMSR and WRMSR of it must #GP. */
#define MSR_UNIMPLEMENTED 0xdeadbeefu
#define MSR_PROBE_PATTERN 0x5a5a00000000a5a5ull	/* written, then read back */

enum msr_platform_mode {
	MSRP_UNPROBED,
	MSRP_FAULTS,	/* RDMSR and WRMSR #GP: the _safe answers hold */
	MSRP_SWALLOWS,	/* no #GP on at least one of them: a clean read is a guess */
};

struct msr_platform {
	enum msr_platform_mode mode;
	int rd_vec, wr_vec;	/* what rdmsr_safe / wrmsr_safe returned (0: no fault) */
	uint64_t first, back;	/* the read before the write, the read after it */
	bool stores;		/* the write read back: the platform fakes an MSR */
};

/* Probe once on the calling CPU (RDMSR, WRMSR of MSR_PROBE_PATTERN, RDMSR again) into p. */
void msr_platform_probe_into(struct msr_platform *p);
/* The boot probe, kept for the run; after it msr_platform_swallows answers. */
void msr_platform_probe(void);
/* Why a _safe probe's clean answer is a guess here ("unknown MSRs do not #GP: ..."), or NULL
 * where they fault as the SDM says (or before the probe ran). */
const char *msr_platform_swallows(void);
/* The boot probe's result. */
const struct msr_platform *msr_platform_get(void);
/* The header line (without "# ", one short line), false where there is nothing to say. */
bool msr_platform_header_line(char *b, size_t n);
/* Set the boot probe's result (the probe above, or a host test). */
void msr_platform_set(const struct msr_platform *p);

#endif
