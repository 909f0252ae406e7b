/*
 * lapic_model.c: host model of a local APIC behind kernel/hw.h (see lapic_model.h).
 * SDM Vol. 3A 11.4.4 (IA32_APIC_BASE), 11.12.1.2 and Table 11-6 (x2APIC MSRs: which exist,
 * which are read-only or write-only, EOI/ESR writes of 0 only), 11.12.5 / Figure 11-27
 * (mode transitions), 11.8.3-11.8.5 (IRR, ISR, priority classes, EOI), 11.5.3 (ESR latching),
 * 11.5.4 (timer current count, on the virtual TSC of tests/model/vclock.c: the count is read
 * at the time of the last TSC read, and writing TMICT starts it then). WRMSR ordering: a WRMSR
 * to the x2APIC ICR or to IA32_TSC_DEADLINE is not serializing and may pass earlier stores
 * (SDM Vol. 3A 11.12.3, 11.5.4.1); the model counts each one that hw_wrmsr_fence (MFENCE;
 * LFENCE, Linux barrier.h weak_wrmsr_fence) did not precede since the previous WRMSR.
 */
#include "model/lapic_model.h"
#include "apic/apic_regs.h"
#include "kernel/hw.h"
#include "model/vclock.h"

#include <string.h>

#define GP 13

struct lapic_model lm;

void lm_reset(uint64_t base, bool cpuid_x2apic, uint32_t id)
{
	memset(&lm, 0, sizeof(lm));
	lm_banks_reset();
	lm.apic_base = base;
	lm.cpuid_x2apic = cpuid_x2apic;
	lm.id = id;
	lm.max_lvt = 6;
	lm.regs[APIC_SPIV >> 4] = 0xff;
	for (unsigned r = APIC_LVTT; r <= APIC_LVTERR; r += 0x10)
		lm.regs[r >> 4] = APIC_LVT_MASKED;
	lm.regs[APIC_LVTCMCI >> 4] = APIC_LVT_MASKED;
}

static bool x2apic_on(void)
{
	return (lm.apic_base & APIC_BASE_EN) && (lm.apic_base & APIC_BASE_EXTD);
}

static bool xapic_on(void)
{
	return (lm.apic_base & APIC_BASE_EN) && !(lm.apic_base & APIC_BASE_EXTD);
}

static int highest(const uint32_t *bits)
{
	for (int v = 255; v >= 0; v--)
		if (bits[v >> 5] & (1u << (v & 31)))
			return v;
	return -1;
}

int lm_deliver(void)
{
	int p = highest(lm.irr), s = highest(lm.isr);

	if (p < 0 || (s >= 0 && (p >> 4) <= (s >> 4)))
		return -1;
	lm.irr[p >> 5] &= ~(1u << (p & 31));
	lm.isr[p >> 5] |= 1u << (p & 31);
	return p;
}

bool lm_isr_set(uint8_t v)
{
	return lm.isr[v >> 5] & (1u << (v & 31));
}

int lm_last_write(unsigned reg)
{
	for (int i = (int)lm.nlog - 1; i >= 0; i--)
		if (lm.log[i].reg == reg)
			return i;
	return -1;
}

static uint32_t reg_read(unsigned reg)
{
	if (reg == APIC_ID)
		return x2apic_on() ? lm.id : lm.id << 24;
	if (reg == APIC_LVR)
		return 0x14 | (lm.max_lvt << 16);
	if (reg >= APIC_ISR && reg < APIC_ISR + 0x80)
		return lm.isr[(reg - APIC_ISR) >> 4];
	if (reg >= APIC_IRR && reg < APIC_IRR + 0x80)
		return lm.irr[(reg - APIC_IRR) >> 4];
	if (reg == APIC_TMCCT) {
		uint64_t init = lm.regs[APIC_TMICT >> 4], n;

		if (!lm.tsc_per_count)
			return (uint32_t)init;
		n = (vclock.now - lm.tmict_tsc) / lm.tsc_per_count;
		return n >= init ? 0 : (uint32_t)(init - n);
	}
	return lm.regs[(reg >> 4) & 63];
}

static void reg_write(bool msr, unsigned reg, uint64_t val)
{
	if (lm.nlog < LM_LOG_MAX)
		lm.log[lm.nlog++] = (struct lm_access){ msr, reg, val };
	switch (reg) {
	case APIC_EOI: {
		int s = highest(lm.isr);

		lm.eois++;
		if (s >= 0)
			lm.isr[s >> 5] &= ~(1u << (s & 31));
		return;
	}
	case APIC_ESR:
		lm.regs[APIC_ESR >> 4] = lm.esr_pending;	/* a write latches the errors */
		lm.esr_pending = 0;
		return;
	case APIC_ICR:
		lm.regs[APIC_ICR >> 4] = (uint32_t)val & ~APIC_ICR_BUSY;
		lm.last_icr = msr ? val : ((uint64_t)lm.regs[APIC_ICR2 >> 4] << 32) | (uint32_t)val;
		lm.icr_sends++;
		if (lm.on_ipi)
			lm.on_ipi(lm.last_icr);
		if (((lm.last_icr >> APIC_ICR_SHORTHAND_SHIFT) & 3) == APIC_DEST_SELF &&
		    ((lm.last_icr >> 8) & 7) == APIC_DM_FIXED) {
			uint8_t v = (uint8_t)lm.last_icr;

			lm.irr[v >> 5] |= 1u << (v & 31);
		}
		return;
	case APIC_TMICT:
		lm.tmict_tsc = vclock.now;
		break;
	case APIC_TMCCT:
		return;
	}
	lm.regs[(reg >> 4) & 63] = (uint32_t)val;
	if (reg == APIC_LVTPC)
		lm_lvtpc_written();
}

/* ---- MMIO ---- */
static bool mmio_reg(uintptr_t addr, unsigned *reg)
{
	uintptr_t base = lm.apic_base & APIC_BASE_ADDR_MASK;

	if (!xapic_on())
		lm.mmio_wrong_mode++;
	if (addr < base || addr >= base + 0x400 || (addr & 0xf)) {
		lm.mmio_outside++;
		return false;
	}
	*reg = (unsigned)(addr - base);
	return true;
}

uint32_t mmio_read32(uintptr_t addr)
{
	unsigned reg;
	uint32_t v = 0xffffffffu;

	if (mmio_reg(addr, &reg) && xapic_on())
		v = reg_read(reg);
	lm_access_done();
	return v;
}

void mmio_write32(uintptr_t addr, uint32_t val)
{
	unsigned reg;

	if (mmio_reg(addr, &reg) && xapic_on())
		reg_write(false, reg, val);
	lm_access_done();
}

uint8_t mmio_read8(uintptr_t addr)
{
	(void)addr;
	lm.mmio_outside++;
	return 0xff;
}

void mmio_write8(uintptr_t addr, uint8_t val)
{
	(void)addr;
	(void)val;
	lm.mmio_outside++;
}

/* ---- MSRs ---- */
/* Table 11-6: registers with no x2APIC MSR, read-only and write-only ones */
static bool x2_exists(unsigned reg)
{
	return reg != APIC_ARBPRI && reg != APIC_RRR && reg != APIC_DFR && reg != APIC_ICR2 &&
	       reg < 0x400;
}

static bool x2_read_only(unsigned reg)
{
	return reg == APIC_ID || reg == APIC_LVR || reg == APIC_PROCPRI || reg == APIC_LDR ||
	       (reg >= APIC_ISR && reg < APIC_ESR) || reg == APIC_TMCCT;
}

static int base_write(uint64_t v)
{
	uint64_t old = lm.apic_base;
	bool old_x2 = x2apic_on(), new_en = v & APIC_BASE_EN, new_x2 = v & APIC_BASE_EXTD;

	if ((new_x2 && !lm.cpuid_x2apic) || (new_x2 && !new_en) ||
	    (old_x2 && new_en && !new_x2) ||		/* x2APIC -> xAPIC directly */
	    (!(old & APIC_BASE_EN) && new_x2) ||	/* disabled -> x2APIC directly */
	    (lm.locked && (!new_en || !new_x2)))	/* firmware lock */
		return GP;
	lm.apic_base = v;
	lm.base_writes++;
	return 0;
}

void hw_wrmsr_fence(void)
{
	lm.fenced = true;
}

static int msr_access(uint32_t msr, uint64_t *val, bool write)
{
	unsigned reg = (msr - APIC_X2APIC_MSR_BASE) << 4;

	if (write) {	/* the fence orders the stores before the next WRMSR only */
		if (!lm.fenced && (msr == MSR_IA32_TSC_DEADLINE ||
				   msr == APIC_X2APIC_MSR(APIC_ICR)))
			lm.unfenced_wrmsr++;
		lm.fenced = false;
	}

	if (lm.fault_msr && msr == lm.fault_msr)
		return GP;
	if (msr == MSR_IA32_APIC_BASE) {
		if (write)
			return base_write(*val);
		*val = lm.apic_base;
		return 0;
	}
	if (msr == MSR_IA32_ARCH_CAPABILITIES && !write) {
		*val = lm.arch_cap_xapic_status ? ARCH_CAP_XAPIC_DISABLE_STATUS : 0;
		return 0;
	}
	if (msr == MSR_IA32_XAPIC_DISABLE_STATUS && !write && lm.arch_cap_xapic_status) {
		*val = lm.locked ? LEGACY_XAPIC_DISABLED : 0;
		return 0;
	}
	if (msr == MSR_IA32_TSC_DEADLINE) {
		if (write)
			lm.tsc_deadline = *val;
		else
			*val = lm.tsc_deadline;
		return 0;
	}
	if (msr < APIC_X2APIC_MSR_BASE || msr > 0x8ff || !x2apic_on() || !x2_exists(reg))
		return GP;
	if (!write) {
		if (reg == APIC_EOI || reg == APIC_SELF_IPI)
			return GP;
		*val = reg == APIC_ICR ? lm.last_icr : reg_read(reg);
		return 0;
	}
	if (x2_read_only(reg) || ((reg == APIC_EOI || reg == APIC_ESR) && *val) ||
	    (reg != APIC_ICR && (*val >> 32)))
		return GP;
	reg_write(true, reg, *val);
	return 0;
}

int rdmsr_safe(uint32_t msr, uint64_t *val)
{
	int r = msr_access(msr, val, false);

	lm.gp_safe += r != 0;
	lm_access_done();
	return r;
}

int wrmsr_safe(uint32_t msr, uint64_t val)
{
	int r = msr_access(msr, &val, true);

	lm.gp_safe += r != 0;
	lm_access_done();
	return r;
}

uint64_t rdmsr(uint32_t msr)
{
	uint64_t v = 0;

	lm.gp_unsafe += msr_access(msr, &v, false) != 0;
	lm_access_done();
	return v;
}

void wrmsr(uint32_t msr, uint64_t val)
{
	lm.gp_unsafe += msr_access(msr, &val, true) != 0;
	lm_access_done();
}

int rdpmc_safe(uint32_t counter, uint64_t *val)
{
	(void)counter;
	*val = 0;
	return GP;
}

void cpuid_count(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	(void)leaf;
	(void)subleaf;
	memset(r, 0, sizeof(*r));
}

/* ---- 8259 ports: ICW2 (vector offset) is the second byte after ICW1 on the data port ---- */
static unsigned icw_step[2];

uint8_t inb(uint16_t port)
{
	return port == PIC1_DATA ? lm.pic_mask[0] : port == PIC2_DATA ? lm.pic_mask[1] : 0xff;
}

void outb(uint16_t port, uint8_t val)
{
	unsigned i = port == PIC2_CMD || port == PIC2_DATA;

	lm.pic_writes++;
	if (port == PIC1_CMD || port == PIC2_CMD) {
		if (val & 0x10)
			icw_step[i] = 1;	/* ICW1: expect ICW2..ICW4 on the data port */
		return;
	}
	if (port != PIC1_DATA && port != PIC2_DATA)
		return;
	if (icw_step[i] == 1)
		lm.pic_icw2[i] = val;
	if (icw_step[i] && ++icw_step[i] <= 4)
		return;
	icw_step[i] = 0;
	lm.pic_mask[i] = val;	/* OCW1 */
}
