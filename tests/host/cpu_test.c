/*
 * cpu_test.c: CPUID probe and the SDM's DisplayFamily/DisplayModel rule (Vol. 2A, CPUID,
 * "Family/Model/Stepping"): extended model only for base family 6 or 15, extended family only
 * for 15. Signatures are real ones: Nehalem-EP, Skylake-SP, Sapphire Rapids, Zen 3, and the
 * family-19 Diamond Rapids signature the reference lists for architectural PEBS.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cpu.h"
#include "tests/host/fake_cpuid.h"

static void decode(uint32_t eax, uint32_t f, uint32_t m, uint32_t s)
{
	uint32_t fam, mod, step;

	cpu_decode_signature(eax, &fam, &mod, &step);
	assert_int_equal(fam, f);
	assert_int_equal(mod, m);
	assert_int_equal(step, s);
}

static void test_signatures(void **state)
{
	(void)state;
	decode(0x000106a5, 0x06, 0x1a, 5);	/* Nehalem-EP 06_1AH */
	decode(0x00050654, 0x06, 0x55, 4);	/* Skylake-SP 06_55H */
	decode(0x000806f8, 0x06, 0x8f, 8);	/* Sapphire Rapids 06_8FH */
	decode(0x00a00f11, 0x19, 0x01, 1);	/* AMD Zen 3: family 0x19 */
	decode(0x00000f41, 0x0f, 0x04, 1);	/* NetBurst: family 15, ext model 0 */
	decode(0x00010531, 0x05, 0x03, 1);	/* family 5: extended model ignored */
}

static void cpuid_vendor(const char *v, uint32_t max)
{
	uint32_t b, d, c;

	memcpy(&b, v, 4);
	memcpy(&d, v + 4, 4);
	memcpy(&c, v + 8, 4);
	fake_cpuid_set(0, 0, max, b, c, d);
}

static void test_probe_intel_hybrid(void **state)
{
	struct cpu_info ci;

	(void)state;
	fake_cpuid_clear();
	cpuid_vendor("GenuineIntel", 0x1a);
	/* 06_97H Alder Lake; DS, DTES64, PDCM, x2APIC, hypervisor clear */
	fake_cpuid_set(1, 0, 0x00090672, 0x02000000, (1u << 2) | (1u << 15) | (1u << 21),
		       (1u << 21) | (1u << 9) | (1u << 5) | (1u << 4));
	fake_cpuid_set(7, 0, 0, 0, 0, 1u << 15);
	fake_cpuid_set(0x1a, 0, 0x20000000, 0, 0, 0);
	fake_cpuid_set(0x80000000, 0, 0x80000008, 0, 0, 0);
	fake_cpuid_set(0x80000001, 0, 0, 0, 0, (1u << 20) | (1u << 26) | (1u << 29));
	fake_cpuid_set(0x80000008, 0, 46, 0, 0, 0);
	cpu_probe(&ci);
	assert_int_equal(ci.vendor, VENDOR_INTEL);
	assert_string_equal(ci.vendor_str, "GenuineIntel");
	assert_int_equal(ci.family, 6);
	assert_int_equal(ci.model, 0x97);
	assert_true(ci.ds && ci.dtes64 && ci.pdcm && ci.x2apic && ci.apic);
	assert_false(ci.hypervisor);
	assert_true(ci.hybrid);
	assert_int_equal(ci.core_type, 0x20);
	assert_string_equal(cpu_core_type_name(ci.core_type), "E-core");
	assert_true(ci.nx && ci.page1g && ci.lm);
	assert_int_equal(ci.phys_addr_bits, 46);
	assert_int_equal(ci.initial_apic_id, 2);
	assert_string_equal(ci.hv_sig, "");
}

/* The 32-bit x2APIC ID from CPUID 1FH, else 0BH (SDM Vol. 2A CPUID "Extended Topology
 * Enumeration", subleaf 0 EDX), not CPUID.1:EBX[31:24]: QEMU with 300 CPUs writes the count
 * 300 (12CH) into EBX[23:16] unclamped, so bit 24 reads 1 (docs/smp.md "APIC IDs"). */
static void test_probe_x2apic_id(void **state)
{
	struct cpu_info ci;

	(void)state;
	fake_cpuid_clear();
	cpuid_vendor("GenuineIntel", 0x1f);
	fake_cpuid_set(1, 0, 0x000806f8, (300u << 16) | 0x0800, 1u << 21, 1u << 9);
	fake_cpuid_set(0xb, 0, 0, 1, 0x100, 300);	/* SMT level, x2APIC ID 300 */
	cpu_probe(&ci);
	assert_int_equal(ci.initial_apic_id, 1);	/* the spill */
	assert_int_equal(ci.x2apic_id_leaf, 0xb);	/* 1FH lists no level: 0BH */
	assert_int_equal(ci.x2apic_id, 300);
	fake_cpuid_set(0x1f, 0, 0, 1, 0x100, 4096);
	cpu_probe(&ci);
	assert_int_equal(ci.x2apic_id_leaf, 0x1f);
	assert_int_equal(ci.x2apic_id, 4096);
	cpuid_vendor("GenuineIntel", 0xa);	/* neither leaf */
	cpu_probe(&ci);
	assert_int_equal(ci.x2apic_id_leaf, 0);
	/* exactly 1FH and 0BH are asked, whatever the maximum leaf: the leaf below 0BH in steps
	 * of 14H wraps to FFFFFFF7H (an unsigned count down once walked ~2^28 leaves there) */
	fake_cpuid_clear();
	cpuid_vendor("GenuineIntel", 0xffffffff);
	fake_cpuid_set(0xfffffff7, 0, 0, 1, 0x100, 77);
	cpu_probe(&ci);
	assert_int_equal(ci.x2apic_id_leaf, 0);
	assert_int_equal(ci.x2apic_id, 0);
}

static void test_probe_hypervisor_and_missing_leaves(void **state)
{
	struct cpu_info ci;

	(void)state;
	fake_cpuid_clear();
	cpuid_vendor("AuthenticAMD", 1);
	fake_cpuid_set(1, 0, 0x00a00f11, 0, 1u << 31, 0);
	fake_cpuid_set(0x40000000, 0, 0x40000001, 0x54474354, 0x43544743, 0x47435447);
	cpu_probe(&ci);	/* no extended leaves at all: defaults, no garbage */
	assert_int_equal(ci.vendor, VENDOR_AMD);
	assert_true(ci.hypervisor);
	assert_string_equal(ci.hv_sig, "TCGTCGTCGTCG");
	assert_int_equal(ci.max_ext_leaf, 0);
	assert_false(ci.nx);
	assert_int_equal(ci.phys_addr_bits, 36);
	assert_false(ci.hybrid);	/* leaf 7 above max leaf: not read */
}

static void hv(const char *sig12, bool present)
{
	uint32_t r[3];

	fake_cpuid_clear();
	cpuid_vendor("GenuineIntel", 1);
	fake_cpuid_set(1, 0, 0x00050654, 0, present ? 1u << 31 : 0, 0);
	memcpy(r, sig12, 12);
	fake_cpuid_set(0x40000000, 0, 0x40000001, r[0], r[1], r[2]);
}

/* Signatures as the hypervisors return them (EBX, ECX, EDX): KVM pads with NULs. */
static void test_hypervisor_names(void **state)
{
	struct cpu_info ci;
	char b[200];

	(void)state;
	hv("KVMKVMKVM\0\0\0", true);
	cpu_probe(&ci);
	assert_string_equal(ci.hv_sig, "KVMKVMKVM");
	assert_string_equal(cpu_hv_name(&ci), "KVM");
	assert_false(cpu_software_emulated(&ci));
	assert_null(cpu_timing_unjudgeable(&ci));	/* timing judged under KVM */
	assert_true(cpu_header_line(&ci, 1, b, sizeof(b)));
	assert_string_equal(b, "hypervisor: \"KVMKVMKVM\" (KVM): hardware virtualisation, the "
			    "host can deschedule this vCPU: timings include host noise");
	assert_false(cpu_header_line(&ci, 2, b, sizeof(b)));

	hv("TCGTCGTCGTCG", true);
	cpu_probe(&ci);
	assert_string_equal(cpu_hv_name(&ci), "QEMU TCG");
	assert_true(cpu_software_emulated(&ci));
	assert_string_equal(cpu_timing_unjudgeable(&ci), "software emulation (hypervisor "
			    "\"TCGTCGTCGTCG\"): no cache timing to judge");
	assert_true(cpu_header_line(&ci, 1, b, sizeof(b)));
	assert_string_equal(b, "hypervisor: \"TCGTCGTCGTCG\" (QEMU TCG): software emulation, "
			    "timing verdicts SKIP");

	hv("Microsoft Hv", true);
	cpu_probe(&ci);
	assert_string_equal(cpu_hv_name(&ci), "Hyper-V");
	hv("VMwareVMware", true);
	cpu_probe(&ci);
	assert_string_equal(cpu_hv_name(&ci), "VMware");
	hv("XenVMMXenVMM", true);
	cpu_probe(&ci);
	assert_string_equal(cpu_hv_name(&ci), "Xen");
	hv("NotAKnownOne", true);
	cpu_probe(&ci);
	assert_string_equal(cpu_hv_name(&ci), "unknown hypervisor");
	assert_false(cpu_software_emulated(&ci));

	/* bare metal: leaf 40000000H is not read, whatever it returns */
	hv("TCGTCGTCGTCG", false);
	cpu_probe(&ci);
	assert_string_equal(cpu_hv_name(&ci), "");
	assert_false(cpu_software_emulated(&ci));
	assert_true(cpu_header_line(&ci, 0, b, sizeof(b)));
	assert_string_equal(b, "cpu: GenuineIntel 06_55H stepping 4 \"\"");
	assert_false(cpu_header_line(&ci, 1, b, sizeof(b)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signatures),
		cmocka_unit_test(test_probe_intel_hybrid),
		cmocka_unit_test(test_probe_x2apic_id),
		cmocka_unit_test(test_probe_hypervisor_and_missing_leaves),
		cmocka_unit_test(test_hypervisor_names),
	};
	return cmocka_run_group_tests_name("cpu", tests, NULL, NULL);
}
