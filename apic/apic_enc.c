/*
 * apic_enc.c: pure local-APIC encoders and decisions (see apic_enc.h). SDM Vol. 3A ch. 11:
 * 11.5.1 LVT (Figure 11-8), 11.5.3 ESR (Figure 11-9), 11.5.4 timer divide (Figure 11-10),
 * 11.6.1 ICR (Figure 11-12), 11.12.1/11.12.5 x2APIC mode and its state transitions
 * (Table 11-5, Figure 11-27), 11.12.9 x2APIC ICR (Figure 11-28).
 */
#include "apic/apic_enc.h"
#include "apic/apic_regs.h"

#include <string.h>

uint32_t apic_lvt_pack(uint8_t vector, unsigned dm, bool masked, unsigned timer_mode)
{
	uint32_t v = vector;

	v |= (dm << APIC_LVT_DM_SHIFT) & APIC_LVT_DM_MASK;
	if (masked)
		v |= APIC_LVT_MASKED;
	v |= (timer_mode << APIC_LVT_TIMER_MODE_SHIFT) & APIC_LVT_TIMER_MODE_MASK;
	return v;
}

uint64_t apic_icr_encode(enum apic_mode mode, uint8_t vector, unsigned dm, unsigned shorthand,
			 uint32_t dest)
{
	uint64_t lo = vector;

	lo |= (uint64_t)((dm & 7u) << APIC_ICR_DM_SHIFT);
	/* INIT de-assert is the only level-deasserted IPI; everything else asserts (11.6.1) */
	lo |= APIC_ICR_LEVEL_ASSERT;
	lo |= (uint64_t)((shorthand & 3u) << APIC_ICR_SHORTHAND_SHIFT);
	if (shorthand != APIC_DEST_NOSHORT)
		dest = 0;	/* destination field ignored with a shorthand */
	if (mode == APIC_X2APIC)
		return lo | ((uint64_t)dest << APIC_ICR_X2APIC_DEST_SHIFT);
	/* xAPIC: 8-bit physical destination in ICR2[31:24], i.e. ICR bits 63:56 */
	return lo | ((uint64_t)(dest & 0xffu) << (32 + APIC_ICR2_DEST_SHIFT));
}

/* Figure 11-10: divide value in bits 3,1,0; divisor 2^(value+1) for 000..110, 111 = by 1 */
bool apic_tdcr_encode(unsigned divisor, uint32_t *tdcr)
{
	unsigned v;

	if (divisor == 1) {
		v = 7;
	} else {
		if (divisor < 2 || divisor > 128 || (divisor & (divisor - 1)))
			return false;
		v = (unsigned)__builtin_ctz(divisor) - 1;
	}
	*tdcr = ((v & 4u) << 1) | (v & 3u);
	return true;
}

unsigned apic_tdcr_divisor(uint32_t tdcr)
{
	unsigned v = ((tdcr >> 1) & 4u) | (tdcr & 3u);

	return v == 7 ? 1u : 2u << v;
}

bool apic_base_invalid(uint64_t base)
{
	return (base & APIC_BASE_EXTD) && !(base & APIC_BASE_EN);
}

enum apic_mode apic_mode_of_base(uint64_t base)
{
	if (!(base & APIC_BASE_EN))
		return APIC_DISABLED;
	return (base & APIC_BASE_EXTD) ? APIC_X2APIC : APIC_XAPIC;
}

bool apic_request_parse(const char *s, enum apic_request *out)
{
	if (!s || !strcmp(s, "auto") || !*s)
		*out = APIC_REQ_AUTO;
	else if (!strcmp(s, "xapic"))
		*out = APIC_REQ_XAPIC;
	else if (!strcmp(s, "x2apic"))
		*out = APIC_REQ_X2APIC;
	else
		return false;
	return true;
}

/*
 * Transitions used (Figure 11-27): disabled -> xAPIC (set EN), xAPIC -> x2APIC (set EXTD).
 * x2APIC -> xAPIC is only possible through disabled, and a firmware lock (XAPIC_DISABLE_STATUS)
 * forbids even that: x2APIC is always kept. One step per call; apic_init calls again after
 * each write, so disabled + apic=x2apic takes two steps.
 */
struct apic_plan apic_plan_mode(uint64_t base, bool cpuid_apic, bool cpuid_x2apic,
				enum apic_request req)
{
	struct apic_plan p = { .mode = apic_mode_of_base(base), .new_base = base };

	if (apic_base_invalid(base)) {
		p.mode = APIC_DISABLED;
		p.note = "IA32_APIC_BASE has EXTD=1 with EN=0 (invalid state): APIC not used";
		return p;
	}
	switch (p.mode) {
	case APIC_DISABLED:
		/* CPUID.1:EDX.APIC reads 0 while EN=0, so try to enable it either way */
		p.mode = APIC_XAPIC;
		p.write_base = true;
		p.new_base = (base & ~APIC_BASE_EXTD) | APIC_BASE_EN;
		p.note = cpuid_apic ? "APIC was globally disabled: enabling it"
				    : "APIC disabled and CPUID.1:EDX.APIC[9]=0: trying to enable it";
		break;
	case APIC_XAPIC:
		if (req != APIC_REQ_X2APIC)
			break;
		if (!cpuid_x2apic) {
			p.note = "apic=x2apic but CPUID.1:ECX.x2APIC[21]=0: staying in xAPIC mode";
			break;
		}
		p.mode = APIC_X2APIC;
		p.write_base = true;
		p.new_base = base | APIC_BASE_EXTD;
		break;
	case APIC_X2APIC:
		if (req == APIC_REQ_XAPIC)
			p.note = "x2APIC enabled by firmware: apic=xapic not honoured "
				 "(never dropped back to xAPIC)";
		break;
	}
	return p;
}

const char *apic_mode_name(enum apic_mode m)
{
	switch (m) {
	case APIC_XAPIC:
		return "xAPIC";
	case APIC_X2APIC:
		return "x2APIC";
	default:
		return "disabled";
	}
}

static const char *const esr_names[8] = {
	"send-checksum", "recv-checksum", "send-accept", "recv-accept",
	"redirectable-ipi", "send-illegal-vector", "recv-illegal-vector", "illegal-register",
};

const char *apic_esr_describe(uint32_t esr, char *buf, size_t size)
{
	size_t n = 0;

	if (!size)
		return buf;
	buf[0] = '\0';
	for (unsigned i = 0; i < 8; i++) {
		size_t l = strlen(esr_names[i]);

		if (!(esr & (1u << i)))
			continue;
		if (n + l + 2 > size)
			break;
		if (n)
			buf[n++] = ',';
		memcpy(buf + n, esr_names[i], l + 1);
		n += l;
	}
	if (!n && esr && size > 4)
		memcpy(buf, "other", 6);
	return buf;
}

uint64_t apic_muldiv64(uint64_t a, uint64_t b, uint64_t c)
{
	unsigned __int128 p = (unsigned __int128)a * b;
	uint64_t hi = (uint64_t)(p >> 64), lo = (uint64_t)p, q = 0, r = 0;

	if (hi >= c)
		return UINT64_MAX;	/* quotient needs more than 64 bits */
	/* 128-by-64 long division, bit by bit (no libgcc __udivti3 in the kernel) */
	r = hi;
	for (int i = 63; i >= 0; i--) {
		bool carry = r >> 63;

		r = (r << 1) | ((lo >> i) & 1);
		q <<= 1;
		if (carry || r >= c) {
			r -= c;
			q |= 1;
		}
	}
	return q;
}

uint64_t apic_calib_hz(uint64_t counts, uint64_t tsc_delta, uint64_t tsc_hz)
{
	if (!tsc_delta)
		return 0;
	return apic_muldiv64(counts, tsc_hz, tsc_delta);
}

uint32_t apic_timer_count_for_us(uint64_t timer_hz, uint64_t us)
{
	uint64_t n = apic_muldiv64(timer_hz, us, 1000000);

	if (n > 0xffffffffull)
		return 0xffffffffu;
	return n ? (uint32_t)n : 1;
}

int64_t apic_error_ppm(uint64_t measured, uint64_t expected)
{
	uint64_t d;

	if (!expected)
		return 0;
	d = measured > expected ? measured - expected : expected - measured;
	d = apic_muldiv64(d, 1000000, expected);
	if (d > INT64_MAX)
		d = INT64_MAX;
	return measured >= expected ? (int64_t)d : -(int64_t)d;
}

uint64_t apic_median(const uint64_t *v, unsigned n)
{
	uint64_t s[16];

	if (!n)
		return 0;
	if (n > 16)
		n = 16;
	memcpy(s, v, n * sizeof(*s));
	for (unsigned i = 1; i < n; i++)	/* insertion sort: n is tiny */
		for (unsigned j = i; j > 0 && s[j - 1] > s[j]; j--) {
			uint64_t t = s[j];

			s[j] = s[j - 1];
			s[j - 1] = t;
		}
	return s[n / 2];
}
