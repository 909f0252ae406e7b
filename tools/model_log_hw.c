/*
 * model_log_hw.c: tools/model-log runs either the PMU model (Intel CPUs) or the IBS model (AMD
 * CPUs) behind kernel/hw.h. Both models define the seam for their own tests, so model-log
 * links with the linker's --wrap for each seam function (tools/model-log.mk): every call goes
 * to __wrap_X here, which hands it to the IBS model when ml_amd is set and to the PMU model's
 * own X (__real_X) otherwise. apic_mode and apic_pmi_delivery exist only on the IBS side.
 */
#include "tools/model_log.h"
#include "kernel/hw.h"
#include "model/ibs_model.h"

bool ml_amd;

#define DECL(ret, name, params) ret __real_##name params; ret __wrap_##name params;
DECL(uint64_t, rdmsr, (uint32_t msr))
DECL(void, wrmsr, (uint32_t msr, uint64_t val))
DECL(int, rdmsr_safe, (uint32_t msr, uint64_t *val))
DECL(int, wrmsr_safe, (uint32_t msr, uint64_t val))
DECL(int, rdpmc_safe, (uint32_t counter, uint64_t *val))
DECL(void, cpuid_count, (uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r))
DECL(uint32_t, mmio_read32, (uintptr_t addr))
DECL(void, mmio_write32, (uintptr_t addr, uint32_t val))
DECL(void, apic_set_pmi_handler, (irq_handler_fn fn))
DECL(void, apic_pmi_rearm, (void))

void hw_wrmsr_fence(void) { }	/* ordering is modelled by tests/model/lapic_model.c */
void apic_set_pmi_pending(bool (*fn)(void)) { (void)fn; }	/* the models deliver PMIs */

uint64_t __wrap_rdmsr(uint32_t msr)
{
	return ml_amd ? ibs_model_rdmsr(msr) : __real_rdmsr(msr);
}

void __wrap_wrmsr(uint32_t msr, uint64_t val)
{
	if (ml_amd)
		ibs_model_wrmsr(msr, val);
	else
		__real_wrmsr(msr, val);
}

int __wrap_rdmsr_safe(uint32_t msr, uint64_t *val)
{
	return ml_amd ? ibs_model_rdmsr_safe(msr, val) : __real_rdmsr_safe(msr, val);
}

int __wrap_wrmsr_safe(uint32_t msr, uint64_t val)
{
	return ml_amd ? ibs_model_wrmsr_safe(msr, val) : __real_wrmsr_safe(msr, val);
}

int __wrap_rdpmc_safe(uint32_t counter, uint64_t *val)
{
	return ml_amd ? ibs_model_rdpmc_safe(counter, val) : __real_rdpmc_safe(counter, val);
}

void __wrap_cpuid_count(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	if (ml_amd)
		ibs_model_cpuid(leaf, subleaf, r);
	else
		__real_cpuid_count(leaf, subleaf, r);
}

uint32_t __wrap_mmio_read32(uintptr_t addr)
{
	return ml_amd ? ibs_model_mmio_read32(addr) : __real_mmio_read32(addr);
}

void __wrap_mmio_write32(uintptr_t addr, uint32_t val)
{
	if (ml_amd)
		ibs_model_mmio_write32(addr, val);
	else
		__real_mmio_write32(addr, val);
}

void __wrap_apic_set_pmi_handler(irq_handler_fn fn)
{
	if (ml_amd)
		ibs_model_set_handler(fn);
	else
		__real_apic_set_pmi_handler(fn);
}

void __wrap_apic_pmi_rearm(void)
{
	if (!ml_amd)
		__real_apic_pmi_rearm();
}

enum apic_mode apic_mode(void) { return ibs_model_apic_mode(); }
enum pmi_delivery apic_pmi_delivery(void) { return ibs_model_pmi_delivery(); }
