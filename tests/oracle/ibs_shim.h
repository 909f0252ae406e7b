/*
 * ibs_shim.h: the kernel context Linux's arch/x86/events/amd/ibs.c data-source code expects,
 * for the host (tests/scripts/ibs_oracle.t puts it before the text it extracts from ibs.c,
 * arch/x86/include/asm/amd-ibs.h and include/uapi/linux/perf_event.h). Ours: types, the CPU
 * the erratum checks read (boot_cpu_data), ibs_caps, and the two structures the decode
 * functions touch, reduced to the members they use.
 */
#ifndef TESTS_ORACLE_IBS_SHIM_H
#define TESTS_ORACLE_IBS_SHIM_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef uint64_t u64;
typedef uint64_t __u64;
typedef uint32_t u32;
typedef uint8_t u8;

#define __LITTLE_ENDIAN_BITFIELD 1
#define unlikely(x) (x)

#define MSR_AMD64_IBSOPCTL	0xc0011033
#define MSR_AMD64_IBSOPDATA2	0xc0011036
#define MSR_AMD64_IBSOPDATA3	0xc0011037
#define IBS_CAPS_ZEN4		(1U << 11)

static struct { unsigned x86, x86_model; } boot_cpu_data;
static u32 ibs_caps;

struct perf_ibs_data { u64 regs[8]; };	/* the sample registers, IBS_OP_CTL first */
/* struct perf_sample_data (its data_src only) follows the extracted uapi union */

#endif
