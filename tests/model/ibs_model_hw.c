/*
 * ibs_model_hw.c: binds the IBS model (tests/model/ibs_model.h) to the names of kernel/hw.h and
 * of apic/'s PMI calls, for host tests that run the IBS driver alone (tests/host/ibs_test.c).
 * Ports and byte MMIO are not modelled: reads float high / zero, writes are dropped.
 */
#include "model/ibs_model.h"
#include "kernel/hw.h"

uint64_t rdmsr(uint32_t msr) { return ibs_model_rdmsr(msr); }
void wrmsr(uint32_t msr, uint64_t val) { ibs_model_wrmsr(msr, val); }
int rdmsr_safe(uint32_t msr, uint64_t *val) { return ibs_model_rdmsr_safe(msr, val); }
int wrmsr_safe(uint32_t msr, uint64_t val) { return ibs_model_wrmsr_safe(msr, val); }
int rdpmc_safe(uint32_t counter, uint64_t *val) { return ibs_model_rdpmc_safe(counter, val); }
void hw_wrmsr_fence(void) { }	/* the IBS model has no x2APIC: tests/model/lapic_model.c */

void cpuid_count(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	ibs_model_cpuid(leaf, subleaf, r);
}

uint32_t mmio_read32(uintptr_t addr) { return ibs_model_mmio_read32(addr); }
void mmio_write32(uintptr_t addr, uint32_t val) { ibs_model_mmio_write32(addr, val); }
uint8_t mmio_read8(uintptr_t addr) { (void)addr; return 0; }
void mmio_write8(uintptr_t addr, uint8_t val) { (void)addr; (void)val; }
uint8_t inb(uint16_t port) { (void)port; return 0xff; }
void outb(uint16_t port, uint8_t val) { (void)port; (void)val; }
uint16_t inw(uint16_t port) { (void)port; return 0xffff; }
void outw(uint16_t port, uint16_t val) { (void)port; (void)val; }

void apic_set_pmi_handler(irq_handler_fn fn) { ibs_model_set_handler(fn); }
void apic_pmi_rearm(void) { }
void apic_set_pmi_pending(bool (*fn)(void)) { ibs_model_set_pending(fn); }
enum pmi_delivery apic_pmi_delivery(void) { return ibs_model_pmi_delivery(); }
enum apic_mode apic_mode(void) { return ibs_model_apic_mode(); }
