/*
 * cpu.c: the CPUID probe (SDM Vol. 2A, CPUID; leaf numbers cited per field in cpu.h).
 */
#include "kernel/cpu.h"
#include "kernel/hw.h"

#include <string.h>

struct cpu_info cpu;

void cpu_decode_signature(uint32_t eax, uint32_t *family, uint32_t *model, uint32_t *stepping)
{
	uint32_t base_family = (eax >> 8) & 0xf;
	uint32_t base_model = (eax >> 4) & 0xf;

	*stepping = eax & 0xf;
	*family = base_family;
	if (base_family == 0xf)
		*family += (eax >> 20) & 0xff;
	*model = base_model;
	if (base_family == 0x6 || base_family == 0xf)
		*model += ((eax >> 16) & 0xf) << 4;
}

static void regs_to_str(char *dst, uint32_t a, uint32_t b, uint32_t c)
{
	memcpy(dst, &a, 4);
	memcpy(dst + 4, &b, 4);
	memcpy(dst + 8, &c, 4);
	dst[12] = '\0';
}

void cpu_probe(struct cpu_info *out)
{
	struct cpuid_regs r;

	memset(out, 0, sizeof(*out));
	cpuid_count(0, 0, &r);
	out->max_leaf = r.eax;
	regs_to_str(out->vendor_str, r.ebx, r.edx, r.ecx);
	if (!strcmp(out->vendor_str, "GenuineIntel"))
		out->vendor = VENDOR_INTEL;
	else if (!strcmp(out->vendor_str, "AuthenticAMD"))
		out->vendor = VENDOR_AMD;

	if (out->max_leaf >= 1) {
		cpuid_count(1, 0, &r);
		out->signature = r.eax;
		cpu_decode_signature(r.eax, &out->family, &out->model, &out->stepping);
		out->initial_apic_id = (uint8_t)(r.ebx >> 24);
		out->dtes64 = r.ecx & (1u << 2);
		out->pdcm = r.ecx & (1u << 15);
		out->x2apic = r.ecx & (1u << 21);
		out->tsc_deadline = r.ecx & (1u << 24);
		out->hypervisor = r.ecx & (1u << 31);
		out->tsc = r.edx & (1u << 4);
		out->msr = r.edx & (1u << 5);
		out->apic = r.edx & (1u << 9);
		out->ds = r.edx & (1u << 21);
	}
	for (unsigned i = 0; i < 2 && !out->x2apic_id_leaf; i++) {
		uint32_t leaf = i ? 0xb : 0x1f;	/* V2 Extended Topology first */

		if (out->max_leaf < leaf)
			continue;
		cpuid_count(leaf, 0, &r);
		if ((r.ecx >> 8) & 0xff) {	/* level type 0: the leaf is invalid */
			out->x2apic_id = r.edx;
			out->x2apic_id_leaf = (uint8_t)leaf;
		}
	}
	if (out->max_leaf >= 7) {
		cpuid_count(7, 0, &r);
		out->hybrid = r.edx & (1u << 15);
	}
	if (out->hybrid && out->max_leaf >= 0x1a) {
		cpuid_count(0x1a, 0, &r);
		out->core_type = (uint8_t)(r.eax >> 24);
	}
	cpuid_count(0x80000000, 0, &r);
	out->max_ext_leaf = r.eax >= 0x80000000 && r.eax < 0x80010000 ? r.eax : 0;
	if (out->max_ext_leaf >= 0x80000001) {
		cpuid_count(0x80000001, 0, &r);
		out->nx = r.edx & (1u << 20);
		out->page1g = r.edx & (1u << 26);
		out->lm = r.edx & (1u << 29);
	}
	if (out->max_ext_leaf >= 0x80000004) {
		for (uint32_t i = 0; i < 3; i++) {
			cpuid_count(0x80000002 + i, 0, &r);
			memcpy(out->brand + 16 * i, &r, 16);	/* EAX, EBX, ECX, EDX in order */
		}
		out->brand[48] = '\0';
	}
	if (out->max_ext_leaf >= 0x80000007) {
		cpuid_count(0x80000007, 0, &r);
		out->invariant_tsc = r.edx & (1u << 8);
	}
	out->phys_addr_bits = 36;
	if (out->max_ext_leaf >= 0x80000008) {
		cpuid_count(0x80000008, 0, &r);
		out->phys_addr_bits = (uint8_t)(r.eax & 0xff);
	}
	if (out->hypervisor) {
		cpuid_count(0x40000000, 0, &r);
		regs_to_str(out->hv_sig, r.ebx, r.ecx, r.edx);
	}
}

const char *cpu_vendor_name(enum cpu_vendor v)
{
	switch (v) {
	case VENDOR_INTEL:
		return "Intel";
	case VENDOR_AMD:
		return "AMD";
	default:
		return "other";
	}
}

const char *cpu_core_type_name(uint8_t core_type)
{
	switch (core_type) {
	case 0x20:
		return "E-core";
	case 0x40:
		return "P-core";
	default:
		return "";
	}
}
