/*
 * hypervisor.c: which hypervisor a run is under, from the CPUID 40000000H vendor signature
 * (EBX, ECX, EDX; present when CPUID.1:ECX[31] is set, SDM Vol. 2A CPUID "Hypervisor present"
 * is reserved for this use by the hypervisors below), and what that means for the run: under
 * software emulation (QEMU TCG) there is no cache timing to judge; under hardware
 * virtualisation the timing is real but the host can deschedule the vCPU.
 */
#include "kernel/cpu.h"
#include "kernel/fmt.h"

#include <string.h>

struct hv_row {
	const char *sig;	/* CPUID.40000000H EBX:ECX:EDX as text */
	const char *name;
	bool software;		/* every instruction emulated: no real timing */
};

static const struct hv_row hv_table[] = {
	/* QEMU target/i386/cpu.c (TCG's "TCGTCGTCGTCG" signature) */
	{ .sig = "TCGTCGTCGTCG", .name = "QEMU TCG", .software = true },
	/* Linux Documentation/virt/kvm/x86/cpuid.rst: "KVMKVMKVM\0\0\0" */
	{ .sig = "KVMKVMKVM", .name = "KVM", .software = false },
	/* Microsoft Hypervisor Top Level Functional Specification, 2.4 "Hypervisor CPUID Leaves" */
	{ .sig = "Microsoft Hv", .name = "Hyper-V", .software = false },
	/* VMware KB 1009458 "Mechanisms to determine if software is running in a VMware VM" */
	{ .sig = "VMwareVMware", .name = "VMware", .software = false },
	/* Xen xen/include/public/arch-x86/cpuid.h XEN_CPUID_SIGNATURE_* */
	{ .sig = "XenVMMXenVMM", .name = "Xen", .software = false },
	/* VirtualBox src/VBox/VMM/VMMR3/CPUM.cpp (paravirt interface "VBoxVBoxVBox") */
	{ .sig = "VBoxVBoxVBox", .name = "VirtualBox", .software = false },
	/* FreeBSD sys/amd64/vmm/x86.c: "bhyve bhyve " */
	{ .sig = "bhyve bhyve ", .name = "bhyve", .software = false },
	/* ACRN hypervisor/arch/x86/guest/vcpuid.c: "ACRNACRNACRN" */
	{ .sig = "ACRNACRNACRN", .name = "ACRN", .software = false },
};

static const struct hv_row *hv_find(const struct cpu_info *ci)
{
	if (!ci->hypervisor)
		return NULL;
	for (size_t i = 0; i < sizeof(hv_table) / sizeof(hv_table[0]); i++)
		if (!strcmp(ci->hv_sig, hv_table[i].sig))
			return &hv_table[i];
	return NULL;
}

const char *cpu_hv_name(const struct cpu_info *ci)
{
	const struct hv_row *r = hv_find(ci);

	return !ci->hypervisor ? "" : r ? r->name : "unknown hypervisor";
}

bool cpu_software_emulated(const struct cpu_info *ci)
{
	const struct hv_row *r = hv_find(ci);

	return r && r->software;
}

const char *cpu_timing_unjudgeable(const struct cpu_info *ci)
{
	if (cpu_software_emulated(ci))
		return "software emulation (hypervisor \"TCGTCGTCGTCG\"): no cache timing to judge";
	return NULL;
}

bool cpu_header_line(const struct cpu_info *ci, unsigned i, char *b, size_t n)
{
	switch (i) {
	case 0:
		fmt_snprintf(b, n, "cpu: %s %02X_%02XH stepping %u \"%s\"", ci->vendor_str,
			     ci->family, ci->model, ci->stepping, ci->brand);
		return true;
	case 1:
		if (!ci->hypervisor)
			return false;
		if (cpu_software_emulated(ci))
			fmt_snprintf(b, n, "hypervisor: \"%s\" (%s): software emulation, timing "
				     "verdicts SKIP", ci->hv_sig, cpu_hv_name(ci));
		else
			fmt_snprintf(b, n, "hypervisor: \"%s\" (%s): hardware virtualisation, the "
				     "host can deschedule this vCPU: timings include host noise",
				     ci->hv_sig, cpu_hv_name(ci));
		return true;
	default:
		return false;
	}
}
