/*
 * lapic_model_nmi.c: the local-APIC model's hostile knobs (lapic_model.h).
 * - A PMI raised while LVTPC is masked (SDM Vol. 3B 20.x "Generic PMI": the delivery masks
 *   LVTPC; whether bare metal latches a PMI raised then is not stated): pmi_latch_masked
 *   latches it and delivers it at the unmask; otherwise it is dropped, as KVM does:
 *   arch/x86/kvm/lapic.c kvm_apic_local_deliver() delivers only when the APIC is enabled
 *   and the LVT entry is not masked (else returns 0, nothing kept), and since "KVM: x86:
 *   Mask LVTPC when handling a PMI" sets APIC_LVT_MASKED after delivering an LVTPC
 *   interrupt to an Intel-compatible guest. Tests pass both ways.
 * - Platform NMIs at random points: after any register access, with nmi_per_mille chance
 *   (seeded xorshift, deterministic), an NMI (a BMC, PCIe SERR, QEMU's `nmi`): on_nmi runs
 *   at that instruction boundary. NMI blocking (SDM Vol. 3A 6.7.1): while one is handled a
 *   second is latched (one only: a third merges with it, counted in nmis_merged) and runs
 *   after the handler returns.
 * - Several CPUs: lm is the running CPU's APIC; lm_select switches banks.
 */
#include "model/lapic_model.h"
#include "apic/apic_regs.h"

static struct lapic_model banks[LM_CPUS];
static unsigned cur;

void lm_banks_reset(void)
{
	cur = 0;
}

void lm_clone(unsigned cpu, uint32_t id)
{
	banks[cpu] = lm;
	banks[cpu].id = id;
	banks[cpu].nlog = 0;
	for (unsigned i = 0; i < 8; i++)
		banks[cpu].isr[i] = banks[cpu].irr[i] = 0;
}

void lm_select(unsigned cpu)
{
	banks[cur] = lm;
	lm = banks[cpu];
	cur = cpu;
}

static int deliver_pmi(void)
{
	uint32_t *lvt = &lm.regs[APIC_LVTPC >> 4];

	*lvt |= APIC_LVT_MASKED;	/* delivery of a PMI masks LVTPC */
	lm.pmis_delivered++;
	if (((*lvt >> 8) & 7) == APIC_DM_NMI)
		return 2;
	lm.irr[(*lvt & 0xff) >> 5] |= 1u << (*lvt & 31);
	return 1;
}

int lm_pmi(void)
{
	if (lm.regs[APIC_LVTPC >> 4] & APIC_LVT_MASKED) {
		if (lm.pmi_latch_masked) {
			lm.pmi_latched = true;
			lm.pmis_latched++;
		} else {
			lm.pmis_dropped++;
		}
		return 0;
	}
	return deliver_pmi();
}

void lm_lvtpc_written(void)
{
	if (!lm.pmi_latched || (lm.regs[APIC_LVTPC >> 4] & APIC_LVT_MASKED))
		return;
	lm.pmi_latched = false;
	if (deliver_pmi() == 2)
		lm_nmi();
}

void lm_nmi(void)
{
	if (lm.in_nmi) {
		lm.nmis_merged += lm.nmi_latched;	/* one latch: two NMIs become one */
		lm.nmi_latched = true;
		return;
	}
	do {
		lm.nmi_latched = false;
		lm.in_nmi = true;
		if (lm.on_nmi)
			lm.on_nmi();
		lm.in_nmi = false;
	} while (lm.nmi_latched);
}

void lm_access_done(void)
{
	uint64_t x = lm.nmi_seed;

	if (!x || !lm.nmi_per_mille)
		return;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	lm.nmi_seed = x;
	if (x % 1000 < lm.nmi_per_mille) {
		lm.platform_nmis++;
		lm_nmi();
	}
}
