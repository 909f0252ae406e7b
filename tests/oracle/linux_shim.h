/*
 * linux_shim.h: the kernel context Linux's data-source code expects, for the host
 * (tests/scripts/linux_oracle.t puts it before the text extracted from ds.c and
 * include/uapi/linux/perf_event.h). Ours: types, the hybrid accessors reduced to one current
 * table, x86_pmu's two flags, the event flags as bits of our own choosing.
 */
#ifndef TESTS_ORACLE_LINUX_SHIM_H
#define TESTS_ORACLE_LINUX_SHIM_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef uint64_t u64;
typedef uint64_t __u64;
typedef uint32_t u32;
typedef uint8_t u8;

#define __LITTLE_ENDIAN_BITFIELD 1
#define __init
#define WARN_ON_ONCE(x) ((void)(x))

#define PERF_X86_EVENT_PEBS_LDLAT	0x1
#define PERF_X86_EVENT_PEBS_STLAT	0x2
#define PERF_X86_EVENT_PEBS_LD_HSW	0x4
#define PERF_X86_EVENT_PEBS_ST_HSW	0x8

enum hybrid_pmu_type { hybrid_big = 1, hybrid_small = 2 };
struct x86_hybrid_pmu { enum hybrid_pmu_type pmu_type; };
struct perf_event {
	struct { unsigned flags; } hw;
	struct x86_hybrid_pmu *pmu;
};
static struct { int pebs_no_tlb, pebs_block; } x86_pmu;
static u64 *lx_table;	/* the table hybrid_var(event->pmu, pebs_data_source) means */

#define is_hybrid() 0
#define hybrid_pmu(p) (p)
#define hybrid_var(pmu, var) lx_table

#endif
