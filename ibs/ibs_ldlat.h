/*
 * ibs_ldlat.h: the IBS load-latency filter of Zen 5 and later (CPUID 8000_001BH EAX[12]
 * OpLdLat; IBS_OP_CTL[63] LdLatEn, [62:59] IbsOpLatThrsh: loads of more than
 * (IbsOpLatThrsh + 1) x 128 cycles are tagged; AMD PPR for family 1Ah), the `ldlat=` a user
 * gives mapped onto it, and erratum 1606 (Revision Guide for AMD family 1Ah models 00h-0Fh:
 * with the filter, L3MissOnly must be set; Linux arch/x86/events/amd/ibs.c, 898138efc990).
 * Pure: a caps row in, numbers and bits out.
 */
#ifndef IBS_IBS_LDLAT_H
#define IBS_IBS_LDLAT_H

#include <stdbool.h>
#include <stdint.h>

struct ibs_caps;

/* The threshold the filter applies for a requested ldlat (cycles): clamped to 128..2048 and
 * rounded down to a multiple of 128, as Linux perf_ibs_init() encodes ldlat >> 7 (the
 * hardware threshold is (IbsOpLatThrsh + 1) * 128). */
unsigned ibs_ldlat_round(unsigned ldlat);
/* The threshold for one kernel: 0 where c has no OpLdLat or the kernel is not `filtered`,
 * else the user's ldlat (0: not given, the 128-cycle minimum) rounded, said through warn
 * (when non-NULL) where rounding changed it. */
unsigned ibs_ldlat_choose(const struct ibs_caps *c, bool filtered, unsigned user,
			  void (*warn)(const char *msg));
/* IBS_OP_CTL's filter bits for threshold ldlat (0: none) on c: LdLatEn, IbsOpLatThrsh and,
 * on a row with erratum 1606, L3MissOnly (Linux perf_ibs_init(), 898138efc990). */
uint64_t ibs_ldlat_bits(const struct ibs_caps *c, unsigned ldlat);
#endif
