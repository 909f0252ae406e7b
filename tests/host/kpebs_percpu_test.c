/*
 * kpebs_percpu_test.c: the kernel's per-CPU PEBS step (loads/kpebs.c kpebs_check_cpu, issue
 * 15) end to end on the modelled hybrid part (tests/model/pmu_model.h, model_init_cpus):
 * Alder Lake 06_97, CPU 0 a Golden Cove P-core (CPUID.1AH core type 40H, PEBS record format 5),
 * CPU 1 a Gracemont E-core (20H, format 4), each with its own MSRs, DS area and PMI. Each CPU
 * probes itself (pebs/percpu.c) and runs kpebs.c's step with its own session: its own PMU
 * programming, threshold PMIs drained into its own buffer, decoding with its core type's
 * data-source table (SDM Vol. 3B 20.3.x load latency facility; docs/hardware.md §5.3: _skl on
 * the P-core, _grt on the E-core), the `pebs`/`lvl` lines under the kernel's per-CPU name and
 * the verdicts as subtests with the CPU's prefix. The load kernel is played by the model:
 * chase_loads feeds load-latency events with one data-source code and latency per step and
 * moves the virtual TSC (tests/model/vclock.c) by the step's ticks. The same raw code 0CH is
 * Local RAM on the E-core's table and an any-cache hit on the P-core's, so load_dram's
 * pebs_source passes on one CPU and fails on the other. A CPU handed another CPU's state
 * refuses (no PMU programmed); the boot CPU's global path (kpebs_check) keeps its plain names.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cmdline.h"
#include "kernel/cpu.h"
#include "kernel/hw.h"
#include "loads/kpebs.h"
#include "loads/latmatrix.h"
#include "model/pmu_model.h"
#include "model/pmu_model_hostile.h"
#include "model/vclock.h"
#include "pebs/msr.h"
#include "kernel/console.h"

#include <stdio.h>
#include <stdlib.h>

struct cmdline kcmdline;	/* empty: ldlat, sav and dump at their defaults */
uint64_t tsc_hz = 2400000000ull;

/* The console, as ktap.c writes it (kernel/console.c), captured. */
static char out[1 << 16];
static size_t out_len;

static void capture(struct console_backend *be, const char *s, size_t n)
{
	(void)be;
	if (getenv("TEST_PRINT"))
		fwrite(s, 1, n, stderr);
	if (n > sizeof(out) - 1 - out_len)
		n = sizeof(out) - 1 - out_len;
	memcpy(out + out_len, s, n);
	out_len += n;
	out[out_len] = '\0';
}

static struct console_backend cap = { .name = "capture", .write = capture };

static const struct model_cpu *const adl[] = { &model_goldencove, &model_gracemont };
static struct pebs_cpu pc[2];
static struct { uint64_t code, lat, ticks; } step;	/* what one chase step is */

/* The load kernels (loads/chase.h), played by the model: `steps` loads of `step`. */
static uintptr_t play(uintptr_t p, uint64_t steps)
{
	struct model_load ld = { .addr = 0x200040, .dsrc = step.code, .lat = step.lat,
				 .ip = 0x401000 };

	model_feed(model_cpu()->ll_event, steps, &ld);
	vclock_advance(steps * step.ticks);
	return p;
}

uintptr_t chase_loads(uintptr_t p, uint64_t steps) { return play(p, steps); }
uintptr_t chase_lfb(uintptr_t p, uint64_t steps) { return play(p, steps); }
uintptr_t chase_store(uintptr_t p, uint64_t steps) { return play(p, steps); }

/* kload.c's registry, which kload_header (not run here) fills */
static struct cache_geometry geom;
const struct cache_geometry *kload_geometry(void) { return &geom; }
void kload_set_core_clock(uint64_t (*read)(void *), void *ctx, const char *name)
{
	(void)read, (void)ctx, (void)name;
}
void kload_set_sampler(const struct sampler *s) { (void)s; }

static const struct ktest_desc desc = { .name = "load_cpus" };

/* A load_run as load_run() leaves it: TSC-timed (no core clock), `ticks` per load. */
static struct load_run run_of(const char *name, uint64_t code, uint64_t lat)
{
	struct load_run r = { .name = name, .kind = CHASE_LOAD, .chain = { .head = 0x1000 } };

	step.code = code;
	step.lat = lat;
	step.ticks = lat;
	r.res.steps_per_rep = 4096;
	r.res.tsc_med_x100 = lat * 100;
	r.ns_x100 = lat * 100 * 1000000000ull / tsc_hz;
	return r;
}

static void assert_clean(void)
{
	assert_int_equal(model_cpu_violations(0) + model_cpu_violations(1), 0);
}

static int setup(void **state)
{
	(void)state;
	model_init_cpus(adl, 2);
	vclock_reset(0, 1);
	for (unsigned i = 0; i < 2; i++) {
		model_select(i);
		pebs_cpu_init(&pc[i]);
	}
	out_len = 0;
	out[0] = '\0';
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	model_fini();
	return 0;
}

static void has(const char *needle)
{
	if (!strstr(out, needle)) {
		print_error("missing: %s\nin:\n%s\n", needle, out);
		fail();
	}
}

/* The E-core: L1, L2, L3 and DRAM kernels, each through its own state: every verdict holds. */
static void test_e_core_levels(void **state)
{
	static const struct { const char *name, *sub; uint64_t code, lat; enum load_target tg; }
	lv[] = {
		{ "load_l1@cpu1", "cpu1_l1_", 0x1, 5, TGT_L1 },
		{ "load_l2@cpu1", "cpu1_l2_", 0x3, 15, TGT_L2 },
		{ "load_l3@cpu1", "cpu1_l3_", 0x4, 60, TGT_L3 },
		{ "load_dram@cpu1", "cpu1_dram_", 0xc, 300, TGT_DRAM },
	};
	struct ktest t = { .desc = &desc };
	struct kpebs_levels levels = { 0 };

	(void)state;
	model_select(1);
	assert_int_equal(pc[1].caps.pebs_fmt, 4);
	assert_int_equal(pebs_cpu_core(&pc[1]), PEBS_CORE_E);
	for (unsigned i = 0; i < 4; i++) {
		struct load_run r = run_of(lv[i].name, lv[i].code, lv[i].lat);

		assert_int_equal(kpebs_check_cpu(&t, &r, lv[i].tg, &pc[1], &levels, lv[i].sub),
				 KT_PASS);
	}
	assert_null(strstr(out, "not ok"));
	has("# load_l1@cpu1: pebs event=load ldlat=3 ");
	has("# load_dram@cpu1: lvl RAM hit ");
	has(" cpu1_l2_pebs_source # L2 hit 100.0%");
	has(" cpu1_dram_pebs_rises # p50 300 > L3 p50 60");
	has(" cpu1_dram_pebs_latency # p50 300 ");
	assert_true(pc[1].meas.st.pmis > 0);	/* drained by its own PMI */
	assert_int_equal(pc[1].meas.format, 4);
	assert_true(model_stats()->records_written > 0);
	assert_clean();
}

/* The same raw code 0CH on the P-core: its own (_skl) table reads it as an any-cache hit, so
 * the DRAM verdict fails there, with the full table before the result line. */
static void test_p_core_decodes_its_own_way(void **state)
{
	struct ktest t = { .desc = &desc };
	struct kpebs_levels levels = { 0 };
	struct load_run r = run_of("load_dram@cpu0", 0xc, 300);

	(void)state;
	model_select(0);
	assert_int_equal(pc[0].caps.pebs_fmt, 5);
	assert_int_equal(pebs_cpu_core(&pc[0]), PEBS_CORE_P);
	assert_int_equal(kpebs_check_cpu(&t, &r, TGT_DRAM, &pc[0], &levels, "cpu0_dram_"),
			 KT_FAIL);
	has("# load_dram@cpu0: lvl Any cache hit ");
	has("# load_dram@cpu0: | ");
	has("not ok 2 cpu0_dram_pebs_source # ");
	assert_int_equal(pc[0].meas.format, 5);
	assert_clean();
}

/* CPU 0 handed CPU 1's state: refused before anything is programmed on CPU 0. */
static void test_other_cpus_state_refused(void **state)
{
	struct ktest t = { .desc = &desc };
	struct kpebs_levels levels = { 0 };
	struct load_run r = run_of("load_l1@cpu1", 0x1, 5);
	uint64_t v = 1;

	(void)state;
	model_select(0);
	assert_int_equal(kpebs_check_cpu(&t, &r, TGT_L1, &pc[1], &levels, "cpu1_l1_"), KT_FAIL);
	has("not ok 1 cpu1_l1_pebs_source # PEBS state of APIC id 1 used on APIC id 0: a CPU "
	    "programs only its own PMU");
	assert_int_equal(rdmsr_safe(MSR_IA32_PEBS_ENABLE, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(rdmsr_safe(MSR_IA32_DS_AREA, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(model_stats()->records_written, 0);
	assert_clean();
}

/* Issue 27 H4: the E-core's PEBS counter cross-mapped by a host (it overflows, no assist
 * writes a record): the step SKIPs with the register and the reason, never "no records". */
static void test_cross_mapped_skips(void **state)
{
	const struct model_hostile h = { .xmap_gp = 0x1 };
	struct ktest t = { .desc = &desc };
	struct kpebs_levels levels = { 0 };
	struct load_run r = run_of("load_l1@cpu1", 0x1, 5);

	(void)state;
	model_select(1);
	model_hostile(&h);
	assert_int_equal(kpebs_check_cpu(&t, &r, TGT_L1, &pc[1], &levels, "cpu1_l1_"), KT_SKIP);
	has("ok 1 cpu1_l1_pebs_source # SKIP IA32_PERF_GLOBAL_STATUS[0] set, 0 records: counter "
	    "overflowed, no PEBS assist: virtualised or cross-mapped counter");
	has("ok 2 cpu1_l1_pebs_overhead # SKIP same as load_cpus.cpu1_l1_pebs_source");	/* log=brief */
	assert_null(strstr(out, "no records"));
	assert_int_equal(model_stats()->records_written, 0);
	assert_clean();
}

/* The boot CPU's path (kpebs_check, the global probe): plain subtest names, as before. */
static void test_boot_cpu_path(void **state)
{
	struct ktest t = { .desc = &desc };
	struct load_run r = run_of("load_l2", 0x3, 15);

	(void)state;
	model_select(0);
	cpu_probe(&cpu);	/* main.c does it first on the boot CPU; pebs_caps_init reads it */
	assert_int_equal(kpebs_check(&t, &r, TGT_L2), KT_PASS);
	has("# load_l2: pebs event=load ");
	has("  ok 2 pebs_source # L2 hit 100.0%");
	assert_null(strstr(out, "cpu0_"));
	assert_clean();
}

/* A latency matrix's cell on the E-core (ktests/load_matrix.c, an AP's row): one measurement
 * through CPU 1's own state, nothing printed, its records labelled local DRAM by the E-core's
 * table; CPU 0 handed CPU 1's state gets the refusal, not an aggregate. */
static void test_matrix_cell(void **state)
{
	struct load_run r = run_of("load_matrix", 0xc, 300);
	const struct pebs_agg *a = NULL;
	const char *why = "unset";
	char b[LATM_SRC_LEN];

	(void)state;
	model_select(1);
	assert_int_equal(kpebs_cpu_agg(&pc[1], &r, TGT_REMOTE, &a, &why), 0);
	assert_null(why);
	assert_non_null(a);
	assert_true(a->records > 0);
	latm_src_label(a, b, sizeof(b));
	assert_string_equal(b, "L-DRAM");
	assert_int_equal(out_len, 0);	/* nothing printed: the matrix prints its rows */
	model_select(0);
	assert_int_equal(kpebs_cpu_agg(&pc[1], &r, TGT_REMOTE, &a, &why), -1);
	assert_null(a);
	assert_non_null(why);
	assert_clean();
}

int main(void)
{
	console_register(&cap);
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_e_core_levels, setup, teardown),
		cmocka_unit_test_setup_teardown(test_p_core_decodes_its_own_way, setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_cpus_state_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cross_mapped_skips, setup, teardown),
		cmocka_unit_test_setup_teardown(test_boot_cpu_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_matrix_cell, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
