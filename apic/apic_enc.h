/*
 * apic_enc.h: pure encoders and decisions for the local APIC (no hardware access; host-tested
 * in tests/host/apic_enc_test.c). LVT packing (SDM Vol. 3A 11.5.1), ICR encoding for xAPIC
 * and x2APIC (11.6.1, 11.12.9), timer divide configuration (11.5.4), the mode of an
 * IA32_APIC_BASE value and the mode plan for apic= (11.12.1, 11.12.5), ESR names (11.5.3),
 * and the timer calibration arithmetic.
 */
#ifndef APIC_APIC_ENC_H
#define APIC_APIC_ENC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "apic/apic_regs.h"

/* An LVT entry: vector, delivery mode (APIC_DM_*), mask, timer mode (LVTT only). */
uint32_t apic_lvt_pack(uint8_t vector, unsigned dm, bool masked, unsigned timer_mode);
static inline uint8_t apic_lvt_vector(uint32_t lvt) { return (uint8_t)(lvt & 0xffu); }
static inline unsigned apic_lvt_dm(uint32_t lvt) { return (lvt >> 8) & 7u; }
static inline bool apic_lvt_masked(uint32_t lvt) { return lvt & (1u << 16); }

/* ICR value: low 32 bits as sent; dest is placed per mode (xAPIC: ICR2[31:24], 8 bits;
 * x2APIC: ICR[63:32]). The delivery-status bit is never set by us. */
uint64_t apic_icr_encode(enum apic_mode mode, uint8_t vector, unsigned dm, unsigned shorthand,
			 uint32_t dest);

/* Divide Configuration Register value for divisor 1,2,4..128 (Figure 11-10); false if bad. */
bool apic_tdcr_encode(unsigned divisor, uint32_t *tdcr);
unsigned apic_tdcr_divisor(uint32_t tdcr);

/* Mode of an IA32_APIC_BASE value (Table 11-5); EN=0,EXTD=1 is invalid: APIC_DISABLED. */
enum apic_mode apic_mode_of_base(uint64_t base);
bool apic_base_invalid(uint64_t base);

/* What apic_init asks for: apic=auto|xapic|x2apic. */
enum apic_request { APIC_REQ_AUTO, APIC_REQ_XAPIC, APIC_REQ_X2APIC };
bool apic_request_parse(const char *s, enum apic_request *out);

/* The mode decision: from the firmware's IA32_APIC_BASE, CPUID and the request. */
struct apic_plan {
	enum apic_mode mode;	/* the mode to run in (APIC_DISABLED: none usable) */
	bool write_base;	/* write new_base to IA32_APIC_BASE first */
	uint64_t new_base;
	const char *note;	/* why, when it differs from what was asked; NULL otherwise */
};
struct apic_plan apic_plan_mode(uint64_t base, bool cpuid_apic, bool cpuid_x2apic,
				enum apic_request req);

const char *apic_mode_name(enum apic_mode m);

/* "send-accept,recv-illegal-vector" for ESR bits into buf; returns buf. */
const char *apic_esr_describe(uint32_t esr, char *buf, size_t size);

/* floor(a * b / c) without overflow (c != 0); UINT64_MAX when the result does not fit. */
uint64_t apic_muldiv64(uint64_t a, uint64_t b, uint64_t c);
/* Timer counts per second from counts elapsed over tsc_delta TSC ticks at tsc_hz. */
uint64_t apic_calib_hz(uint64_t counts, uint64_t tsc_delta, uint64_t tsc_hz);
/* Initial count for `us` microseconds at timer_hz, clamped to [1, 0xffffffff]. */
uint32_t apic_timer_count_for_us(uint64_t timer_hz, uint64_t us);
/* Signed error of `measured` against `expected` in parts per million. */
int64_t apic_error_ppm(uint64_t measured, uint64_t expected);
/* Median of n (<= 16) values (sorts a copy). */
uint64_t apic_median(const uint64_t *v, unsigned n);

#endif
