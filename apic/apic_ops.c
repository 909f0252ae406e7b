/*
 * apic_ops.c: the two register-access instances behind struct apic_ops (SDM Vol. 3A
 * 11.4.1 memory-mapped xAPIC registers, 11.12.1.2 x2APIC MSR address space, 11.6.1 and
 * 11.12.9 ICR). xAPIC: 32-bit MMIO at base + offset, ICR as ICR2 (destination) then ICR
 * (the write of ICR low sends). x2APIC: RDMSR/WRMSR at 0x800 + offset/16, the ICR one
 * 64-bit WRMSR to 0x830, the ID a full 32 bits; the x2APIC EOI and ESR writes must be 0.
 */
#include "apic/apic_ops.h"
#include "apic/apic_regs.h"
#include "kernel/hw.h"

#include <stdbool.h>

#define ICR_IDLE_POLLS	1000000u	/* bounded: an ICR stuck busy is reported, not hung on */

static uintptr_t xapic_base;
static const struct apic_ops *ops = &apic_xapic_ops;
static struct apic_fault_log faults;

/* ---- xAPIC: MMIO ---- */
static uint32_t xapic_read(unsigned reg)
{
	return mmio_read32(xapic_base + reg);
}

static void xapic_write(unsigned reg, uint32_t val)
{
	mmio_write32(xapic_base + reg, val);
}

bool apic_icr_idle_wait(void)
{
	if (ops != &apic_xapic_ops)
		return true;	/* x2APIC has no delivery-status bit (11.12.9) */
	for (unsigned i = 0; i < ICR_IDLE_POLLS; i++)
		if (!(xapic_read(APIC_ICR) & APIC_ICR_BUSY))
			return true;
	return false;
}

static void xapic_icr_write(uint64_t icr)
{
	apic_icr_idle_wait();
	xapic_write(APIC_ICR2, (uint32_t)(icr >> 32));
	xapic_write(APIC_ICR, (uint32_t)icr);
}

static uint32_t xapic_id(void)
{
	return xapic_read(APIC_ID) >> APIC_XAPIC_ID_SHIFT;
}

const struct apic_ops apic_xapic_ops = {
	.name = "xAPIC",
	.read = xapic_read,
	.write = xapic_write,
	.icr_write = xapic_icr_write,
	.id = xapic_id,
};

/* ---- x2APIC: MSRs ---- */
static void note_fault(uint32_t msr, int vec, bool write)
{
	faults.count++;
	faults.last_msr = msr;
	faults.last_vector = vec;
	faults.last_was_write = write;
}

static uint32_t x2apic_read(unsigned reg)
{
	uint32_t msr = APIC_X2APIC_MSR(reg);
	uint64_t v = 0;
	int vec = rdmsr_safe(msr, &v);

	if (vec) {
		note_fault(msr, vec, false);
		return 0;
	}
	return (uint32_t)v;
}

static void x2apic_write(unsigned reg, uint32_t val)
{
	uint32_t msr = APIC_X2APIC_MSR(reg);
	int vec;

	if (reg == APIC_EOI || reg == APIC_ESR)
		val = 0;	/* non-zero #GPs in x2APIC mode (11.12.1.2) */
	vec = wrmsr_safe(msr, val);
	if (vec)
		note_fault(msr, vec, true);
}

static void x2apic_icr_write(uint64_t icr)
{
	uint32_t msr = APIC_X2APIC_MSR(APIC_ICR);
	int vec;

	hw_wrmsr_fence();	/* the stores the IPI announces first (kernel/hw.h) */
	vec = wrmsr_safe(msr, icr & ~(uint64_t)APIC_ICR_BUSY);

	if (vec)
		note_fault(msr, vec, true);
}

static uint32_t x2apic_id(void)
{
	return x2apic_read(APIC_ID);
}

const struct apic_ops apic_x2apic_ops = {
	.name = "x2APIC",
	.read = x2apic_read,
	.write = x2apic_write,
	.icr_write = x2apic_icr_write,
	.id = x2apic_id,
};

void apic_ops_select(enum apic_mode mode, uintptr_t mmio_base)
{
	xapic_base = mmio_base;
	ops = mode == APIC_X2APIC ? &apic_x2apic_ops : &apic_xapic_ops;
}

const struct apic_ops *apic_ops_current(void)
{
	return ops;
}

uint32_t apic_read(unsigned reg)
{
	return ops->read(reg);
}

void apic_write(unsigned reg, uint32_t val)
{
	ops->write(reg, val);
}

void apic_icr_write(uint64_t icr)
{
	ops->icr_write(icr);
}

const struct apic_fault_log *apic_ops_faults(void)
{
	return &faults;
}
