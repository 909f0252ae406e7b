/*
 * ibs_glue.h: the IBS oracle's interface (tests/scripts/ibs_oracle.t): one IBS_OP_DATA2/DATA3
 * pair decoded by Linux's arch/x86/events/amd/ibs.c (extracted at test time, never in the
 * repository) on a CPU of the given family/model with the given CPUID 8000_001BH:EAX.
 */
#ifndef TESTS_ORACLE_IBS_GLUE_H
#define TESTS_ORACLE_IBS_GLUE_H

#include <stdint.h>

/* "level snoop hit remote stlb lock" (tests/oracle/lx_format.h) into out. */
void ibs_lx_decode(unsigned family, unsigned model, uint32_t caps, uint64_t data2,
		   uint64_t data3, char *out, unsigned n);

#endif
