/*
 * ibs_model.c: kernel/hw.h over the IBS model (see ibs_model.h): CPUID for the modelled AMD
 * part, the IBS MSRs (C001_1033h..C001_103Dh) with their reserved bits, the extended APIC LVT
 * through xAPIC MMIO (offsets 400h, 500h..530h) or x2APIC MSRs (840h, 850h..853h), and the
 * rules on them. Anything else #GPs (MSRs) or reads 0 (MMIO), as an absent register would.
 * Named ibs_model_*: tests/model/ibs_model_hw.c binds them to the kernel/hw.h names, and
 * tools/model-log dispatches to them or to the PMU model per modelled CPU.
 * Sources: APM Vol. 2 "Instruction-Based Sampling", "Extended Interrupts"; docs/ibs.md.
 */
#include "model/ibs_model_int.h"
#include "kernel/hw.h"
#include "model/violations.h"
#include "ibs/ibs_regs.h"
#include "apic/apic_eilvt.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define GP 13

struct ibs_model_state IM;

const struct ibs_model_cpu ibs_model_zen3 = {
	.name = "Zen 3 (19h 21h)", .signature = 0x00a20f10, .ibs = true, .flags = 0x3ff,
	.ext_dsrc = false, .ibs_ctl = IBS_CTL_LVT_OFFSET_VALID | 1, .ext_lvt_count = 4,
	.aperf = true };
const struct ibs_model_cpu ibs_model_zen4 = {
	.name = "Zen 4 (19h 11h)", .signature = 0x00a10f11, .ibs = true, .flags = 0xbff,
	.ext_dsrc = true, .ibs_ctl = IBS_CTL_LVT_OFFSET_VALID | 0, .ext_lvt_count = 4,
	.aperf = true };
/* Zen 5 (1A_02H Turin): OpLdLat (8000_001BH EAX[12]) and erratum 1606 */
const struct ibs_model_cpu ibs_model_zen5 = {
	.name = "Zen 5 (1Ah 02h)", .signature = 0x00b00f20, .ibs = true, .flags = 0x1bff,
	.ext_dsrc = true, .ibs_ctl = IBS_CTL_LVT_OFFSET_VALID | 0, .ext_lvt_count = 4,
	.aperf = true, .erratum_1606 = true };
/* Zen 6 (1A_50H): OpLdLat without the erratum, DATA2 StrmSt/RmtSocket (EAX[16]) */
const struct ibs_model_cpu ibs_model_zen6 = {
	.name = "Zen 6 (1Ah 50h)", .signature = 0x00b50f00, .ibs = true, .flags = 0x11bff,
	.ext_dsrc = true, .ibs_ctl = IBS_CTL_LVT_OFFSET_VALID | 0, .ext_lvt_count = 4,
	.aperf = true, .op_ctl2 = IBS_OP2_EXCL_RIP_63_EQ_1 };	/* kernel RIPs excluded */
const struct ibs_model_cpu ibs_model_qemu_epyc = {
	.name = "QEMU EPYC (17h 01h)", .signature = 0x00800f12, .ibs = false, .hypervisor = true,
	.pmc_swallowed = true };
const struct ibs_model_cpu ibs_model_zen3_no_lvt = {
	.name = "Zen 3, firmware without IBS LVT", .signature = 0x00a20f10, .ibs = true,
	.flags = 0x3ff, .ibs_ctl = 0, .ext_lvt_count = 4 };

void im_violate(const char *fmt, ...)
{
	char b[sizeof(IM.viol[0])];
	va_list ap;

	va_start(ap, fmt);
	viol_addv(IM.viol[0], sizeof(IM.viol[0]), &IM.nviol, IM_MAX_VIOL, b, fmt, ap);
	va_end(ap);
}

static uint64_t reserved_ctl(void)
{
	uint64_t r = IBS_OP_RESERVED;

	if (!(IM.cpu->flags & IBS_CAPS_OPCNTEXT))
		r |= IBS_OP_MAX_CNT_EXT;
	if (!(IM.cpu->flags & IBS_CAPS_OPCNT))
		r |= IBS_OP_CNT_CTL;
	if (!(IM.cpu->flags & IBS_CAPS_ZEN4))
		r |= IBS_OP_L3MISSONLY;
	if (IM.cpu->flags & IBS_CAPS_OPLDLAT)
		r &= ~(IBS_OP_LDLAT_EN | IBS_OP_LDLAT_THRSH);
	return r;
}

static bool apic_msr(uint32_t msr, unsigned *n, bool *efeat)
{
	if (IM.mode != APIC_X2APIC)
		return false;
	*efeat = msr == 0x800 + (APIC_EFEAT >> 4);
	*n = msr - (0x800 + (APIC_EILVT(0) >> 4));
	return *efeat || *n < IM.cpu->ext_lvt_count;
}

static int msr_read(uint32_t msr, uint64_t *v)
{
	bool valid = IM.op_ctl & IBS_OP_VAL, ef;
	unsigned n;
	int r;

	if (!IM.cpu->ibs && msr >= MSR_IBS_OP_CTL && msr <= MSR_IBS_OP_DATA4)
		return GP;
	switch (msr) {
	case MSR_IBS_OP_CTL: *v = IM.op_ctl; return 0;
	case MSR_IBS_CTL: *v = IM.cpu->ibs_ctl; return 0;
	case MSR_IBS_OP_CTL2:
		if (!(IM.cpu->flags & IBS_CAPS_CTL2))
			return GP;
		*v = IM.op_ctl2;
		return 0;
	case MSR_IBS_OP_RIP: *v = IM.rip; break;
	case MSR_IBS_OP_DATA: *v = IM.data; break;
	case MSR_IBS_OP_DATA2: *v = IM.data2; break;
	case MSR_IBS_OP_DATA3: *v = IM.data3; break;
	case MSR_IBS_DC_LINADDR: *v = IM.linaddr; break;
	case MSR_IBS_DC_PHYSADDR: *v = IM.physaddr; break;
	case MSR_IBS_OP_DATA4:
		if (!(IM.cpu->flags & IBS_CAPS_OPDATA4))
			return GP;
		*v = 0;
		break;
	default:
		if ((r = im_pmc_read(msr, v)) >= 0)
			return r;
		if (!apic_msr(msr, &n, &ef))
			return GP;
		*v = ef ? (uint64_t)IM.cpu->ext_lvt_count << APIC_EFEAT_XLC_SHIFT : IM.eilvt[n];
		return 0;
	}
	if (!valid)
		im_violate("sample register 0x%x read with IbsOpVal clear", msr);
	return 0;
}

static int msr_write(uint32_t msr, uint64_t v)
{
	bool ef;
	unsigned n;
	int r;

	if (!IM.cpu->ibs && msr >= MSR_IBS_OP_CTL && msr <= MSR_IBS_OP_DATA4)
		return GP;
	if (msr == MSR_IBS_OP_CTL) {
		if (v & reserved_ctl())
			return GP;
		im_op_ctl_write(v);
		return 0;
	}
	if (msr == MSR_IBS_CTL)
		return GP;	/* read-only: firmware's */
	if (msr == MSR_IBS_OP_CTL2) {
		if (!(IM.cpu->flags & IBS_CAPS_CTL2) || (v & IBS_OP2_RESERVED))
			return GP;
		IM.op_ctl2 = v;
		return 0;
	}
	if (msr > MSR_IBS_OP_CTL && msr <= MSR_IBS_OP_DATA4) {
		im_violate("sample register 0x%x written", msr);
		return 0;
	}
	if ((r = im_pmc_write(msr, v)) >= 0)
		return r;
	if (!apic_msr(msr, &n, &ef) || ef)
		return GP;
	IM.eilvt[n] = (uint32_t)v;
	return 0;
}

int ibs_model_rdmsr_safe(uint32_t msr, uint64_t *val)
{
	int r;

	*val = 0;
	r = msr_read(msr, val);
	im_access();
	return r;
}

int ibs_model_wrmsr_safe(uint32_t msr, uint64_t val)
{
	int r = msr_write(msr, val);

	im_access();
	return r;
}

uint64_t ibs_model_rdmsr(uint32_t msr)
{
	uint64_t v = 0;

	if (msr_read(msr, &v))
		im_violate("rdmsr 0x%x #GP (not through rdmsr_safe)", msr);
	im_access();
	return v;
}

void ibs_model_wrmsr(uint32_t msr, uint64_t val)
{
	if (msr_write(msr, val))
		im_violate("wrmsr 0x%x <- 0x%llx #GP (not through wrmsr_safe)", msr,
			   (unsigned long long)val);
	im_access();
}

int ibs_model_rdpmc_safe(uint32_t counter, uint64_t *val)
{
	(void)counter;
	*val = 0;
	return GP;
}

static bool xapic_reg(uintptr_t addr, unsigned *n, bool *efeat)
{
	if (IM.mode != APIC_XAPIC || addr < IM_XAPIC_BASE || addr >= IM_XAPIC_BASE + 0x1000)
		return false;
	*efeat = addr - IM_XAPIC_BASE == APIC_EFEAT;
	*n = (unsigned)((addr - IM_XAPIC_BASE - APIC_EILVT(0)) >> 4);
	return *efeat || ((addr & 15) == 0 && *n < IM.cpu->ext_lvt_count);
}

uint32_t ibs_model_mmio_read32(uintptr_t addr)
{
	bool ef;
	unsigned n;

	uint32_t v = 0;

	if (xapic_reg(addr, &n, &ef))
		v = ef ? IM.cpu->ext_lvt_count << APIC_EFEAT_XLC_SHIFT : IM.eilvt[n];
	im_access();
	return v;
}

void ibs_model_mmio_write32(uintptr_t addr, uint32_t val)
{
	bool ef;
	unsigned n;

	if (xapic_reg(addr, &n, &ef) && !ef)
		IM.eilvt[n] = val;
	im_access();
}

void ibs_model_cpuid(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	static const char brand[48] = "AMD IBS model";

	(void)subleaf;
	memset(r, 0, sizeof(*r));
	if (leaf == 0) {
		r->eax = 0x10;
		memcpy(&r->ebx, "Auth", 4);	/* "AuthenticAMD" in EBX, EDX, ECX */
		memcpy(&r->edx, "enti", 4);
		memcpy(&r->ecx, "cAMD", 4);
	} else if (leaf == 1) {
		r->eax = IM.cpu->signature;
		r->edx = 1u << 5 | 1u << 9 | 1u << 4;	/* MSR, APIC, TSC */
		r->ecx = (IM.mode == APIC_X2APIC ? 1u << 21 : 0) |
			 (IM.cpu->hypervisor ? 1u << 31 : 0);
	} else if (leaf == 6) {
		r->ecx = IM.cpu->aperf;		/* EffFreq: APERF/MPERF */
	} else if (leaf == 0x80000000) {
		r->eax = 0x80000021;
	} else if (leaf == 0x80000001) {
		r->ecx = (IM.cpu->ibs ? IBS_CPUID_ECX_IBS : 0) | 1u << 3;	/* ExtApicSpace */
		r->edx = 1u << 29;	/* LM */
	} else if (leaf >= 0x80000002 && leaf <= 0x80000004) {
		memcpy(r, brand + 16 * (leaf - 0x80000002), 16);
	} else if (leaf == IBS_CPUID_FEATURES && IM.cpu->ibs) {
		r->eax = IM.cpu->flags;
	}
}
