/*
 * pmu_caps_test.c: the capability probe (pebs/caps, uarch) per modelled CPU and under QEMU
 * TCG, every SKIP reason with one capability changed at a time, the printed header, the
 * command-line keys ldlat/sav/pebs_buf, and INST_RETIRED.ANY counting (pebs/count) against
 * the PMU model (tests/model/pmu_model.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cmdline.h"
#include "kernel/cpu.h"
#include "kernel/ktap_detail.h"
#include "model/pmu_model.h"
#include "model/pmu_fixture.h"
#include "pebs/caps.h"
#include "pebs/count.h"
#include "pebs/msr.h"
#include "pebs/pebs.h"
#include "stubs/console_capture.h"

static struct pebs_caps caps;
static struct cpu_info ci;

static void probe(const struct model_cpu *m)
{
	pmu_fixture_probe(m, &ci, &caps);
}

static void test_probe_every_cpu(void **state)
{
	static const char *const uarch[] = { "Nehalem/Westmere", "Sandy/Ivy Bridge",
		"Haswell/Broadwell", "Skylake", "Ice Lake-SP", "Sapphire/Emerald Rapids",
		"Gracemont", "Golden/Raptor Cove (ADL/RPL P)", "Lion Cove", "Granite Rapids",
		"Redwood Cove (MTL P)" };
	static const unsigned fmt[] = { 1, 1, 2, 3, 4, 5, 4, 5, 6, 4, 5 };
	/* timed PEBS (PERF_CAPABILITIES[17]): Lion Cove, Granite Rapids, Meteor Lake P */
	static const bool timed[] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1 };
	const char *why;

	(void)state;
	for (unsigned k = 0; model_cpus[k]; k++) {
		probe(model_cpus[k]);
		assert_true(pebs_caps_pmu_ok(&caps, &why));
		assert_true(pebs_caps_pebs_ok(&caps, &why));
		if (!pebs_caps_ll_ok(&caps, &why))
			fail_msg("%s: %s", model_cpus[k]->name, why);
		assert_non_null(caps.uarch);
		assert_string_equal(caps.uarch->name, uarch[k]);
		assert_int_equal(caps.pebs_fmt, fmt[k]);
		assert_int_equal(caps.microcode, model_cpus[k]->microcode);
		assert_int_equal(caps.n_gp, model_cpus[k]->n_gp);
		assert_int_equal(caps.baseline, fmt[k] >= 4);
		assert_int_equal(caps.timing_info, timed[k]);
		assert_int_equal(caps.emon, 1);
		assert_int_equal(caps.pebs_unavail, 0);
		stub_console_reset();
		pebs_caps_print(&caps);
		assert_non_null(strstr(stub_console_text(), "# pmu: pebs usable, load latency usable"));
		assert_non_null(strstr(stub_console_text(), caps.uarch->name));
		pmu_fixture_assert_clean();
	}
	/* the hybrid E-core is found through CPUID.1AH */
	probe(&model_gracemont);
	assert_true(caps.hybrid);
	assert_int_equal(caps.core_type, 0x20);
}

static void test_qemu_tcg_skips(void **state)
{
	const char *why;

	(void)state;
	probe(&model_qemu_tcg_skl);
	assert_false(pebs_caps_pmu_ok(&caps, &why));
	assert_string_equal(why, "CPUID.0AH: perfmon version 0");
	assert_false(pebs_caps_pebs_ok(&caps, &why));
	assert_string_equal(why, "CPUID.0AH: perfmon version 0");
	assert_false(pebs_caps_ll_ok(&caps, &why));
	assert_string_equal(why, "CPUID.0AH: perfmon version 0");
	stub_console_reset();
	pebs_caps_print(&caps);
	/* under a hypervisor the `pmu: cpu` line restates `# cpu:`: log=full only */
	assert_null(strstr(stub_console_text(), "06_5EH"));
	log_set_full(true);
	pebs_caps_print(&caps);
	log_set_full(false);
	assert_non_null(strstr(stub_console_text(), "# pmu: cpu Intel 06_5EH"));
	assert_non_null(strstr(stub_console_text(), "uarch Skylake "));
	assert_non_null(strstr(stub_console_text(), "# pmu: pebs: CPUID.0AH: perfmon version 0"));

	probe(&model_qemu_tcg_icx);
	assert_false(pebs_caps_pebs_ok(&caps, &why));
	assert_string_equal(why, "CPUID.0AH: perfmon version 0");
	stub_console_reset();
	log_set_full(true);
	pebs_caps_print(&caps);
	log_set_full(false);
	assert_non_null(strstr(stub_console_text(), "06_86H"));
	assert_non_null(strstr(stub_console_text(), "uarch Tremont"));
	pmu_fixture_assert_clean();
}

/* One capability changed at a time: the reason names it exactly. */
static void edit(int id, struct model_cpu *m)
{
	switch (id) {
	case 0: m->misc_enable |= 1 << 12; break;
	case 1: m->misc_enable |= 1 << 12; break;	/* EMON[7] = 0 warns only (pmu_probe_test) */
	case 2: m->ds = false; break;
	case 3: m->dtes64 = false; break;
	case 4: m->pdcm = false; break;
	case 5: m->version = 1; break;
	case 6: m->perf_cap = (m->perf_cap & ~0xf00ull) | 0xf00; break;
	case 7: m->perf_cap = (m->perf_cap & ~0xf00ull) | 0x900; break;
	case 8: m->signature = 0x206a7; m->microcode = 0x27; break;
	case 9: m->signature = 0x306b0; break;		/* 06_3B: not a PEBS model */
	case 10: m->ldlat_faults = true; break;
	case 11: m->version = 0; break;
	}
}

static void test_skip_reasons(void **state)
{
	static const struct {
		bool ll_only;
		const char *reason;
	} cases[] = {
		{ false, "IA32_MISC_ENABLE[12]: PEBS unavailable" },
		{ false, "IA32_MISC_ENABLE[12]: PEBS unavailable" },
		{ false, "CPUID.1:EDX.DS[21] = 0: no debug store" },
		{ false, "CPUID.1:ECX.DTES64[2] = 0: 32-bit DS layout not supported" },
		{ false, "CPUID.1:ECX.PDCM[15] = 0: no IA32_PERF_CAPABILITIES" },
		{ false, "CPUID.0AH: perfmon version 1 has no IA32_PERF_GLOBAL_* MSRs" },
		{ false, "IA32_PERF_CAPABILITIES[11:8] = 0xf but CPUID.(07H,1):EAX[8] = 0: leaf 23H not enumerated" },
		{ false, "IA32_PERF_CAPABILITIES[11:8] = 9: unknown PEBS record format" },
		{ false, "microcode 0x27 < 0x28: PEBS broken on 06_2AH stepping 7" },
		{ false, "model 06_3BH not in the PEBS table and no PEBS baseline" },
		{ true, "MSR_PEBS_LD_LAT_THRESHOLD: rdmsr fault (vector 13)" },
		{ false, "CPUID.0AH: perfmon version 0" },
	};
	struct model_cpu m;
	const char *why;

	(void)state;
	for (int i = 0; i < (int)(sizeof(cases) / sizeof(cases[0])); i++) {
		m = model_skylake;
		edit(i, &m);
		probe(&m);
		if (cases[i].ll_only) {
			assert_true(pebs_caps_pebs_ok(&caps, &why));
			assert_false(pebs_caps_ll_ok(&caps, &why));
		} else {
			assert_false(pebs_caps_pebs_ok(&caps, &why));
		}
		if (strcmp(why, cases[i].reason))
			fail_msg("case %d: got \"%s\", want \"%s\"", i, why, cases[i].reason);
		if (cases[i].ll_only) {	/* the header line names the load-latency reason */
			char want[200];

			snprintf(want, sizeof(want), "# pmu: pebs usable; load latency: %s\n",
				 cases[i].reason);
			stub_console_reset();
			pebs_caps_print(&caps);
			if (!strstr(stub_console_text(), want))
				fail_msg("case %d: no \"%s\" in\n%s", i, want, stub_console_text());
		}
		pmu_fixture_assert_clean();
	}
	/* an unknown model with baseline PEBS takes the architectural path */
	m = model_icelake_sp;
	m.signature = 0x606b0;	/* 06_6B: not in the table */
	probe(&m);
	assert_true(pebs_caps_pebs_ok(&caps, &why));
	assert_ptr_equal(caps.uarch, &pebs_uarch_arch);
	assert_false(pebs_caps_ll_ok(&caps, &why));
	assert_string_equal(why, "architectural (baseline): no load-latency event");
}

static const char *warned;
static void warn_fn(const char *msg) { warned = msg; }

static void test_cmdline_keys(void **state)
{
	struct cmdline cl;
	struct pebs_config cfg;
	static const char line[] = "ldlat=50 sav=1009 pebs_buf=16";
	static const char bad[] = "ldlat=2 pebs_buf=0";

	(void)state;
	cmdline_parse(&cl, line, sizeof(line), option_table, warn_fn);
	pebs_config_init(&cfg, PEBS_LOAD_LATENCY, &cl, warn_fn);
	assert_int_equal(cfg.ldlat, 50);
	assert_int_equal(cfg.sav, 1009);
	assert_int_equal(cfg.buf_bytes, 16 * 1024);
	warned = NULL;
	cmdline_parse(&cl, bad, sizeof(bad), option_table, warn_fn);
	pebs_config_init(&cfg, PEBS_LOAD_LATENCY, &cl, warn_fn);
	assert_non_null(warned);
	assert_int_equal(cfg.ldlat, 3);
	assert_int_equal(cfg.buf_bytes, PEBS_BUF_DEFAULT);
}

/* INST_RETIRED.ANY counting: fixed counter 0 on v2+, GP counter 0 on v1. */
static void test_count_inst_retired(void **state)
{
	struct pmu_count pc;
	struct model_cpu v1 = model_nehalem;

	(void)state;
	for (unsigned k = 0; model_cpus[k]; k++) {
		probe(model_cpus[k]);
		assert_int_equal(pmu_count_start(&pc, &caps), 0);
		assert_true(pc.fixed);
		model_feed(0x00c0, 12345, NULL);
		assert_int_equal(pmu_count_stop(&pc), 12345);
		model_feed(0x00c0, 100, NULL);		/* stopped: not counted */
		assert_int_equal(model_msr(MSR_IA32_FIXED_CTR(0)), 12345);
		pmu_fixture_assert_clean();
	}
	v1.version = 1;
	probe(&v1);
	assert_int_equal(pmu_count_start(&pc, &caps), 0);
	assert_false(pc.fixed);
	model_feed(0x00c0, 777, NULL);
	assert_int_equal(pmu_count_stop(&pc), 777);
	probe(&model_qemu_tcg_skl);
	assert_int_equal(pmu_count_start(&pc, &caps), -1);
	assert_string_equal(pc.err, "CPUID.0AH: perfmon version 0");
	pmu_fixture_assert_clean();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_every_cpu),
		cmocka_unit_test(test_qemu_tcg_skips),
		cmocka_unit_test(test_skip_reasons),
		cmocka_unit_test(test_cmdline_keys),
		cmocka_unit_test(test_count_inst_retired),
	};
	int r = cmocka_run_group_tests(tests, NULL, NULL);

	model_fini();
	return r;
}
