/*
 * amd_cycles_test.c: the core clock on AMD (ibs/amd_cycles.c) over the IBS model's core
 * counters and APERF (tests/model/ibs_model_pmc.c): the highest free legacy counter with
 * PMCx076, firmware's counters left alone, the count read as core clocks of the virtual TSC,
 * a counter stopped by someone enabled again, APERF where the counters are swallowed, and the
 * exact reason where neither counts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/ibs_model.h"
#include "model/vclock.h"
#include "ibs/amd_cycles.h"
#include "kernel/cpu.h"
#include "kernel/hw.h"

static struct cpu_info ci;
static struct amd_cycles ac;
static char line[200];

static int start(const struct ibs_model_cpu *m)
{
	int rc;

	vclock_reset(1000, 20);
	ibs_model_init(m, APIC_XAPIC, PMI_FIXED_VECTOR);
	cpu_probe(&ci);
	rc = amd_cycles_init(&ac, &ci);
	amd_cycles_header_line(&ac, rc, line, sizeof(line));
	return rc;
}

static void test_pmc(void **state)
{
	uint64_t a, b;

	(void)state;
	assert_int_equal(start(&ibs_model_zen4), 0);
	assert_string_equal(line, "core clock: PerfCtr3 (PMCx076 CPU clocks not halted)");
	assert_int_equal(ibs_model_pmc_sel(3), 0x430076);	/* En, Os, Usr, PMCx076 */
	a = amd_cycles_read(&ac);
	vclock_advance(1000);
	b = amd_cycles_read(&ac);
	assert_int_equal(b - a, 1100);	/* 1.10 core clocks per TSC tick */
	ibs_model_wrmsr_safe(MSR_AMD_PERF_CTL(3), 0);	/* stopped by someone */
	a = amd_cycles_read(&ac);			/* on again */
	vclock_advance(100);
	assert_int_equal(amd_cycles_read(&ac) - a, 110);
	assert_int_equal(ibs_model_violation_count(), 0);
}

static void test_firmware_counter(void **state)
{
	struct ibs_model_cpu m = ibs_model_zen4;

	(void)state;
	m.fw_pmc = 0x8;		/* firmware runs PerfCtr3 */
	assert_int_equal(start(&m), 0);
	assert_string_equal(ac.name, "PerfCtr2 (PMCx076 CPU clocks not halted)");
	m.fw_pmc = 0xf;
	assert_int_equal(start(&m), 0);		/* APERF */
	assert_string_equal(line, "core clock: IA32_APERF (C0 core clocks, CPUID 06H:ECX[0])");
	assert_int_equal(ibs_model_violation_count(), 0);
}

static void test_swallowed(void **state)
{
	struct ibs_model_cpu m = ibs_model_zen4;
	uint64_t a;

	(void)state;
	m.pmc_swallowed = true;
	assert_int_equal(start(&m), 0);
	assert_int_equal(ac.src, AMD_CYC_APERF);
	a = amd_cycles_read(&ac);
	vclock_advance(500);
	assert_int_equal(amd_cycles_read(&ac) - a, 550);
	assert_int_equal(start(&ibs_model_qemu_epyc), -1);
	assert_string_equal(line, "core clock: none (PerfEvtSel3 not kept; CPUID 06H:ECX[0] = 0); "
			    "TSC only, TSC != core clock");
	assert_true(strlen(line) <= 100);	/* the header's line budget */
	assert_int_equal(amd_cycles_read(&ac), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pmc),
		cmocka_unit_test(test_firmware_counter),
		cmocka_unit_test(test_swallowed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
