/*
 * record.h: PEBS record layouts and the record walker (pure; no MSR access).
 * Follows SDM Vol 3B ch.18 "PEBS record format" (legacy formats 0-3, tables 18-44 and the
 * SNB/NHM record tables) and the adaptive PEBS record (formats 4-6, basic + optional groups);
 * facts and offsets from docs/hardware.md §4.1-§4.3. Architectural PEBS (format 0xF, §4.8)
 * is walked by pebs/arch_record.c (docs/arch-pebs.md, "Records"), into the same record.
 */
#ifndef PEBS_RECORD_H
#define PEBS_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Legacy record (every field 8 bytes), SDM order; size depends on the format (§4.1/§4.2). */
struct pebs_legacy_rec {
	uint64_t rflags, rip, rax, rbx, rcx, rdx, rsi, rdi, rbp, rsp;	/* 0x00-0x48 fmt 0+ */
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15;			/* 0x50-0x88 fmt 0+ */
	uint64_t status;	/* 0x90 fmt1/2 GLOBAL_STATUS copy, fmt3 applicable counters */
	uint64_t dla;		/* 0x98 fmt 1+: data linear address */
	uint64_t dse;		/* 0xA0 fmt 1+: data source / store status */
	uint64_t lat;		/* 0xA8 fmt 1+: load latency (core cycles) */
	uint64_t real_ip;	/* 0xB0 fmt 2+: eventing IP */
	uint64_t tsx_tuning;	/* 0xB8 fmt 2+ */
	uint64_t tsc;		/* 0xC0 fmt 3 */
};
_Static_assert(sizeof(struct pebs_legacy_rec) == 200, "legacy fmt3 record is 200 B (§4.1)");

#define PEBS_FMT0_SIZE 144u	/* 0x90 (§4.1) */
#define PEBS_FMT1_SIZE 176u	/* 0xB0 */
#define PEBS_FMT2_SIZE 192u	/* 0xC0 */
#define PEBS_FMT3_SIZE 200u	/* 0xC8 */

/* Adaptive groups (§4.3), in the order the CPU writes them. */
struct pebs_basic {
	uint64_t format_size;	/* 31:0 format_group, 47:32 retire latency, 63:48 size */
	uint64_t ip;		/* eventing IP */
	uint64_t applicable_counters;	/* bit i = GP i, bit 32+j = fixed j */
	uint64_t tsc;
};
struct pebs_meminfo {
	uint64_t address;
	uint64_t aux;		/* data source / store status (§5) */
	uint64_t latency;	/* ADL+: 15:0 instr latency, 47:32 cache latency */
	uint64_t tsx_tuning;
};
struct pebs_gprs {
	uint64_t flags, ip, ax, cx, dx, bx, sp, bp, si, di;
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
};
struct pebs_xmm {
	uint64_t xmm[16 * 2];
};
struct pebs_lbr_entry {
	uint64_t from, to, info;
};
struct pebs_cntr_header {
	uint32_t cntr;		/* GP counter bitmap */
	uint32_t fixed;		/* fixed counter bitmap */
	uint32_t metrics;	/* 3 = PERF_METRICS base + value follow */
	uint32_t reserved;
};
_Static_assert(sizeof(struct pebs_basic) == 32, "basic group 32 B (§4.3)");
_Static_assert(sizeof(struct pebs_meminfo) == 32, "meminfo group 32 B (§4.3)");
_Static_assert(sizeof(struct pebs_gprs) == 144, "GPR group 144 B (§4.3)");
_Static_assert(sizeof(struct pebs_xmm) == 256, "XMM group 256 B (§4.3)");
_Static_assert(sizeof(struct pebs_lbr_entry) == 24, "LBR entry 24 B (§4.3)");
_Static_assert(sizeof(struct pebs_cntr_header) == 16, "counter group header 16 B (§4.3)");

/* format_group bits = MSR_PEBS_DATA_CFG echo (§1.8). */
#define PEBS_GRP_MEMINFO	(1u << 0)
#define PEBS_GRP_GPR		(1u << 1)
#define PEBS_GRP_XMM		(1u << 2)
#define PEBS_GRP_LBR		(1u << 3)
#define PEBS_GRP_CNTR		(1u << 4)
#define PEBS_GRP_METRICS	(1u << 5)
#define PEBS_GRP_LBR_SHIFT	24	/* 31:24 = LBR entries - 1 */
#define PEBS_CNTR_METRICS	3u	/* header.metrics value with two metrics qwords */

/* Walk flags, from the model (datasrc.h pebs_model) and PERF_CAPABILITIES. */
#define PEBS_WALK_SPLIT_LATENCY	(1u << 0)	/* meminfo latency is the ADL+ split word */
#define PEBS_WALK_TIMING_INFO	(1u << 1)	/* PERF_CAP[17]: basic 47:32 = retire latency */

/* Which fields of struct pebs_record are valid. */
#define PEBS_F_IP		(1u << 0)
#define PEBS_F_EVENTING_IP	(1u << 1)
#define PEBS_F_APPLICABLE	(1u << 2)
#define PEBS_F_ADDR		(1u << 3)
#define PEBS_F_AUX		(1u << 4)
#define PEBS_F_LATENCY		(1u << 5)
#define PEBS_F_INSTR_LATENCY	(1u << 6)
#define PEBS_F_TSC		(1u << 7)
#define PEBS_F_TSX		(1u << 8)
#define PEBS_F_RETIRE_LATENCY	(1u << 9)
#define PEBS_F_GROUPS		(1u << 10)
#define PEBS_F_COUNTERS		(1u << 11)	/* counter-snapshot group: cntr_* below */

#define PEBS_FMT_ARCH		0xFu	/* PERF_CAPABILITIES[11:8] of architectural PEBS */

enum pebs_rec_err {
	PEBS_REC_OK = 0,
	PEBS_REC_TRUNCATED,	/* record runs past the end of the buffer */
	PEBS_REC_ZERO_SIZE,	/* adaptive size field is 0 */
	PEBS_REC_SIZE_MISMATCH,	/* size from the group bits != size the CPU wrote */
	PEBS_REC_BAD_FORMAT,	/* format not walkable (not 0-6 or 0xF) */
	PEBS_REC_BAD_GROUPS,	/* format_group has bits this format does not define */
	PEBS_REC_NO_BASIC,	/* arch: a record's first fragment has no basic group */
	PEBS_REC_ERR_COUNT
};

struct pebs_record {
	uint32_t index;		/* record number in the buffer, from 0 */
	uint32_t offset;	/* byte offset of the record */
	uint32_t size;		/* bytes the record occupies (0 if unknown) */
	uint8_t format;
	uint8_t err;		/* enum pebs_rec_err */
	uint16_t retire_latency;
	uint32_t valid;		/* PEBS_F_* */
	uint32_t format_group;	/* adaptive only */
	uint64_t ip;		/* legacy RIP / GPR-group IP (next IP on trap-like PEBS) */
	uint64_t eventing_ip;
	uint64_t applicable_counters;	/* fmt3/adaptive exact; fmt1/2 GLOBAL_STATUS copy */
	uint64_t addr;
	uint64_t aux;
	uint64_t latency;	/* load-to-use latency, cycles */
	uint64_t instr_latency;
	uint64_t tsc;
	uint64_t tsx_tuning;
	uint32_t fragments;	/* arch: fragments joined into this record (1 = whole) */
	uint32_t cntr_gp;	/* counter group: GP bitmap of the values at cntr */
	uint32_t cntr_fixed;	/* counter group: fixed bitmap (values after the GP ones) */
	const uint8_t *cntr;	/* counter values inside the walked buffer, 8 B each */
};

struct pebs_walker {
	const uint8_t *buf;
	size_t len;
	size_t off;
	uint32_t index;
	uint8_t format;
	uint32_t flags;		/* PEBS_WALK_* */
	bool done;
};

/* Set bits of v (the kernel links no libgcc, so no __builtin_popcount). */
static inline unsigned pebs_popcount32(uint32_t v)
{
	unsigned n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

/* Record size of a legacy format, or 0 if the format is not legacy. */
uint32_t pebs_legacy_size(unsigned format);
/* Size an adaptive record must have for this format_group on this format; 0 if undefined. */
uint32_t pebs_adaptive_size(unsigned format, uint32_t format_group, const uint8_t *rec,
			    size_t avail);
bool pebs_format_supported(unsigned format);

void pebs_walk_init(struct pebs_walker *w, const void *buf, size_t len, unsigned format,
		    uint32_t flags);
/*
 * Decode the next record into *r. Returns false when the buffer is exhausted. A record with
 * r->err != 0 is still returned once; after an error the walk may stop (zero size, truncation,
 * unknown format) so it can never loop or read outside [buf, buf+len).
 */
bool pebs_walk_next(struct pebs_walker *w, struct pebs_record *r);
const char *pebs_rec_strerror(unsigned err);

/* The walker step for format 0xF (pebs/arch_record.c; pebs_walk_next calls it, r reset). */
bool pebs_arch_walk_next(struct pebs_walker *w, struct pebs_record *r);

#endif
