/*
 * cpu.h: CPUID, read once into struct cpu_info (SDM Vol. 2A, CPUID instruction). Every later
 * decision is a predicate on this struct. DisplayFamily/DisplayModel as the SDM defines them:
 * family = base + extended when base == 0xF; model = (ext << 4) + base when base is 6 or 0xF.
 */
#ifndef KERNEL_CPU_H
#define KERNEL_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cpu_vendor { VENDOR_OTHER, VENDOR_INTEL, VENDOR_AMD };

struct cpu_info {
	enum cpu_vendor vendor;
	char vendor_str[13];
	char brand[49];
	uint32_t max_leaf, max_ext_leaf;
	uint32_t signature;	/* CPUID.1:EAX */
	uint32_t family;	/* DisplayFamily */
	uint32_t model;		/* DisplayModel */
	uint32_t stepping;
	/* CPUID.1:ECX / EDX */
	bool ds, dtes64, pdcm, x2apic, tsc_deadline, hypervisor, apic, msr, tsc;
	/* CPUID.7.0 */
	bool hybrid;
	/* CPUID.80000001 */
	bool nx, page1g, lm;
	/* CPUID.80000007:EDX[8] */
	bool invariant_tsc;
	uint8_t phys_addr_bits;
	uint8_t initial_apic_id;	/* CPUID.1:EBX[31:24]: 8 bits, and unreliable past 255 */
	/* CPUID.1FH (else 0BH) subleaf 0 EDX: the full 32-bit x2APIC ID (SDM Vol. 2A CPUID
	 * "Extended Topology Enumeration"); x2apic_id_leaf 0 when neither leaf is valid */
	uint32_t x2apic_id;
	uint8_t x2apic_id_leaf;
	/* CPUID.1A.0:EAX[31:24] on hybrid parts: 0x20 Atom (E-core), 0x40 Core (P-core) */
	uint8_t core_type;
	char hv_sig[13];	/* CPUID.40000000 signature, "" on bare metal */
};

extern struct cpu_info cpu;

/* Fill `out` from CPUID (through hw.h, so host tests can feed a model). */
void cpu_probe(struct cpu_info *out);

/* Family/model/stepping decode from CPUID.1:EAX (SDM Vol. 2A, Figure 3-6). */
void cpu_decode_signature(uint32_t eax, uint32_t *family, uint32_t *model, uint32_t *stepping);

/* "GenuineIntel 06_55 stepping 4", or the core type name: "P-core", "E-core", "" */
const char *cpu_vendor_name(enum cpu_vendor v);
const char *cpu_core_type_name(uint8_t core_type);

/* The hypervisor (kernel/hypervisor.c, from hv_sig): "KVM", "QEMU TCG", ..., "unknown
 * hypervisor", "" on bare metal. Software emulation: no real cache timing (timing SKIPs). */
const char *cpu_hv_name(const struct cpu_info *ci);
bool cpu_software_emulated(const struct cpu_info *ci);
/* Why no cache timing can be judged on this CPU (software emulation), or NULL. */
const char *cpu_timing_unjudgeable(const struct cpu_info *ci);
/* Header line i (0: `cpu:`, 1: `hypervisor:` when there is one) into b, without "# " and
 * newline; false past the last line. */
bool cpu_header_line(const struct cpu_info *ci, unsigned i, char *b, size_t n);

#endif
