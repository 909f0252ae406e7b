/*
 * ibs_ldlat.c: the IBS load-latency filter's threshold and control bits (ibs_ldlat.h; AMD PPR
 * for family 1Ah, IBS_OP_CTL LdLatEn/IbsOpLatThrsh; erratum 1606 from the Revision Guide for
 * family 1Ah models 00h-0Fh, as Linux perf_ibs_init() applies it).
 */
#include "ibs/ibs_ldlat.h"
#include "ibs/ibs_caps.h"
#include "ibs/ibs_decode.h"
#include "ibs/ibs_regs.h"
#include "kernel/fmt.h"

unsigned ibs_ldlat_round(unsigned ldlat)
{
	if (ldlat < IBS_LDLAT_MIN)
		return IBS_LDLAT_MIN;
	if (ldlat > IBS_LDLAT_MAX)
		return IBS_LDLAT_MAX;
	return ldlat & ~(IBS_LDLAT_MIN - 1);
}

unsigned ibs_ldlat_choose(const struct ibs_caps *c, bool filtered, unsigned user,
			  void (*warn)(const char *msg))
{
	unsigned t;
	char b[120];

	if (!(c->flags & IBS_CAPS_OPLDLAT) || !filtered)
		return 0;
	t = ibs_ldlat_round(user ? user : IBS_LDLAT_MIN);
	if (user && user != t && warn) {
		fmt_snprintf(b, sizeof(b), "ldlat=%u: IBS filters in 128-cycle steps (128..2048): "
			     "%u cycles", user, t);
		warn(b);
	}
	return t;
}

uint64_t ibs_ldlat_bits(const struct ibs_caps *c, unsigned ldlat)
{
	uint64_t v;

	if (!ldlat)
		return 0;
	v = IBS_OP_LDLAT_EN | (uint64_t)(ibs_ldlat_round(ldlat) / IBS_LDLAT_MIN - 1)
				 << IBS_OP_LDLAT_THRSH_SHIFT;
	if (c->fam && c->fam->erratum_1606)
		v |= IBS_OP_L3MISSONLY;
	return v;
}
