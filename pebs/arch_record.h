/*
 * arch_record.h: architectural PEBS records (PERF_CAPABILITIES[11:8] = 0xF): the fragment
 * header, the group layouts and the walker that joins fragments into one struct pebs_record.
 * Facts: docs/arch-pebs.md ("Records"), from Intel's ISE chapter "Architectural PEBS" as
 * implemented in Linux arch/x86/include/asm/perf_event.h (struct arch_pebs_header,
 * arch_pebs_basic, arch_pebs_aux, arch_pebs_gprs, arch_pebs_lbr_header) and
 * arch/x86/events/intel/ds.c (setup_arch_pebs_sample_data, arch_pebs_record_continued).
 * Pure.
 */
#ifndef PEBS_ARCH_RECORD_H
#define PEBS_ARCH_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pebs/record.h"

/* Fragment header qword 0 (struct arch_pebs_header); qword 1 is reserved. */
#define ARCH_HDR_SIZE_MASK	0xffffull		/* 15:0 fragment bytes, header included */
#define ARCH_HDR_MODE64		(1ull << 30)
#define ARCH_HDR_CONT		(1ull << 31)		/* another fragment follows */
#define ARCH_HDR_CNTR		(0x1full << 35)		/* 39:35 counter group */
#define ARCH_HDR_LBR_SHIFT	40			/* 41:40 LBR: 1 = 8, 2 = 16, 3 = depth */
#define ARCH_HDR_LBR		(3ull << ARCH_HDR_LBR_SHIFT)
#define ARCH_HDR_XMM		(1ull << 49)
#define ARCH_HDR_YMMH		(1ull << 50)
#define ARCH_HDR_OPMASK		(1ull << 53)
#define ARCH_HDR_ZMMH		(1ull << 54)
#define ARCH_HDR_H16ZMM		(1ull << 55)
#define ARCH_HDR_GPR		(1ull << 61)
#define ARCH_HDR_AUX		(1ull << 62)
#define ARCH_HDR_BASIC		(1ull << 63)
/* groups the walker can size; the vector-extension groups it cannot */
#define ARCH_HDR_SIZED		(ARCH_HDR_CNTR | ARCH_HDR_LBR | ARCH_HDR_XMM | ARCH_HDR_GPR | \
				 ARCH_HDR_AUX | ARCH_HDR_BASIC)
#define ARCH_HDR_DEFINED	(ARCH_HDR_SIZE_MASK | ARCH_HDR_MODE64 | ARCH_HDR_CONT | \
				 ARCH_HDR_SIZED | ARCH_HDR_YMMH | ARCH_HDR_OPMASK | \
				 ARCH_HDR_ZMMH | ARCH_HDR_H16ZMM)
#define ARCH_LBR_BASE_ENTRIES	8
#define ARCH_LBR_MAX_DEPTH	64	/* larger depths are treated as a corrupt LBR header */

struct pebs_arch_header {
	uint64_t format;
	uint64_t reserved;
};
struct pebs_arch_basic {
	uint64_t ip;
	uint64_t applicable_counters;	/* bit i GP i, bit 32+j fixed j */
	uint64_t tsc;
	uint64_t retire;		/* 15:0 retire latency, 16 valid */
	uint64_t reserved[2];
};
struct pebs_arch_aux {
	uint64_t address;
	uint64_t reserved[4];
	uint64_t aux;			/* data source (docs/arch-pebs.md, data source) */
	uint64_t latency;		/* 15:0 instruction latency, 47:32 cache latency */
	uint64_t tsx_tuning;
};
struct pebs_arch_gprs {
	uint64_t flags, ip, ax, cx, dx, bx, sp, bp, si, di;
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15, ssp, reserved;
};
struct pebs_arch_xer_header {
	uint64_t xstate, reserved;
};
struct pebs_arch_lbr_header {
	uint64_t reserved, ctl, depth, ler_from, ler_to, ler_info;
};
_Static_assert(sizeof(struct pebs_arch_header) == 16, "arch header 16 B");
_Static_assert(sizeof(struct pebs_arch_basic) == 48, "arch basic group 48 B");
_Static_assert(sizeof(struct pebs_arch_aux) == 64, "arch AUX group 64 B");
_Static_assert(sizeof(struct pebs_arch_gprs) == 160, "arch GPR group 160 B");
_Static_assert(sizeof(struct pebs_arch_lbr_header) == 48, "arch LBR header 48 B");

/* True when a fragment with this header is followed by another of the same record:
 * CONT, or a "null" header with bits 63:16 all zero (Linux arch_pebs_record_continued). */
bool pebs_arch_continued(uint64_t hdr);

/*
 * Bytes a fragment with header `hdr` must have, reading the LBR depth and the counter-group
 * header from frag[0, avail). 0: the header names a group that cannot be sized or a reserved
 * bit; UINT32_MAX: a group header lies beyond avail or names an absurd size.
 */
uint32_t pebs_arch_fragment_size(uint64_t hdr, const uint8_t *frag, size_t avail);


#endif
