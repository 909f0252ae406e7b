/*
 * trust_report.c: what the trust signals (kernel/trust.h) read, as the header's `# trust:`
 * line, and the machine-check banks scanned once at the end of the run (SDM Vol. 3B 16.3.2.2
 * IA32_MCi_STATUS: VAL[63] a valid error, UC[61] uncorrected, MCACOD[15:0] the error code).
 * One short line each: the serial log's byte budget is tight (docs/output.md).
 */
#include "kernel/trust.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"

static const char *absent(int vec)
{
	return vec < 0 ? "n/a" : "#GP";	/* not on this CPU / its read faulted */
}

void trust_header_line(char *b, size_t n)
{
	char smi[24], th[24], pk[24], ap[24];
	unsigned nval = 0;

	for (uint64_t m = trust.mce_at_start; m; m &= m - 1)
		nval++;

	if (trust.smi)
		fmt_snprintf(smi, sizeof(smi), "%llu", (unsigned long long)trust.smi_start);
	else
		fmt_snprintf(smi, sizeof(smi), "%s", absent(trust.smi_vec));
	if (trust.therm)
		fmt_snprintf(th, sizeof(th), "0x%llx", (unsigned long long)trust.therm_start);
	else
		fmt_snprintf(th, sizeof(th), "%s", absent(trust.therm_vec));
	if (trust.pkg_therm)
		fmt_snprintf(pk, sizeof(pk), "0x%llx", (unsigned long long)trust.pkg_start);
	else
		fmt_snprintf(pk, sizeof(pk), "%s", absent(trust.pkg_vec));
	if (trust.aperf)
		fmt_snprintf(ap, sizeof(ap), "%u.%02u", trust.start_pct / 100,
			     trust.start_pct % 100);
	else
		fmt_snprintf(ap, sizeof(ap), "%s", trust.aperf_vec ? absent(trust.aperf_vec)
			     : "MPERF stopped");
	fmt_snprintf(b, n, "trust: SMI_COUNT %s, THERM %s, PKG_THERM %s, APERF/MPERF %s, MCA "
		     "%u banks %u VAL%s", smi, th, pk, ap, trust.mce_banks, nval,
		     trust.swallowed ? "; unverified (MSRs do not #GP)" : "");
}

bool trust_mce_final(char *b, size_t n)
{
	uint64_t now = trust_mce_scan(), v = 0;
	size_t at;
	unsigned shown = 0;

	if (!now)
		return false;
	at = (size_t)fmt_snprintf(b, n, "trust: machine check:");
	for (unsigned i = 0; i < trust.mce_banks && at < n && shown < 4; i++) {
		if (!(now >> i & 1) || rdmsr_safe(MSR_IA32_MC0_STATUS + 4 * i, &v))
			continue;
		at += (size_t)fmt_snprintf(b + at, n - at, "%s IA32_MC%u_STATUS 0x%llx%s%s",
					   shown++ ? "," : "", i, (unsigned long long)v,
					   v & (1ull << 61) ? " UC" : "",
					   trust.mce_at_start >> i & 1 ? " (at start)" : "");
	}
	return true;
}
