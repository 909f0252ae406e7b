/*
 * pebs_disarm_test.c: a PEBS measurement that never reaches pebs_stop leaves nothing armed
 * (pebs/disarm.c). The PMU model (tests/model/pmu_model.h) counts and writes records for as
 * long as the PMU is armed, through IA32_DS_AREA into whatever memory that is now (SDM
 * Vol. 3B 18.4.9 "Debug Store (DS) Mechanism"); an assist into memory not allocated is a
 * violation (model_stats stray). Abandoned here = the workload jumps out of
 * pebs_measure_run, as the per-test watchdog or an exception does on the boot CPU
 * (ktests/run.c: recovery jump, kt_undo_run, mm_release) and as an AP's fault does in
 * smp/smp_ap.c (recovery jump, the hooks of smp_on_ap_recovery). After the runner's undo or
 * the AP's hook and the release, the model runs more loads: no record, no stray write, the
 * counter stopped, IA32_PEBS_ENABLE and IA32_DS_AREA 0 (arch PEBS: IA32_PEBS_INDEX.EN and
 * IA32_PEBS_BASE), no rule broken (the teardown order of Linux ds.c
 * intel_pmu_pebs_disable_all / release_ds_buffers).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/ktap_undo.h"
#include "model/pmu_fixture.h"
#include "model/pmu_model.h"
#include "pebs/arch_msr.h"
#include "pebs/msr.h"
#include "pebs/percpu.h"

static jmp_buf abandon;
static struct pebs_measure m;
static struct pebs_caps caps;
static struct cpu_info ci;

struct feed {
	uint64_t chunks, abandon_at;
};

static void loads(uint64_t n)
{
	struct model_load ld = { 0x200040, 0x1, 60, 0x401000 };

	model_feed(model_cpu()->ll_event, n, &ld);
}

/* One chunk; at abandon_at the test is abandoned inside the session (the watchdog's jump). */
static bool work(void *ctx)
{
	struct feed *f = ctx;

	loads(2000);
	if (++f->chunks == f->abandon_at)
		longjmp(abandon, 1);
	return f->chunks < 1000;
}

static void cfg_init(struct pebs_measure_cfg *cfg, struct feed *f)
{
	memset(cfg, 0, sizeof(*cfg));
	pebs_config_init(&cfg->pc, PEBS_LOAD_LATENCY, NULL, NULL);
	cfg->pc.sav = 101;
	cfg->target_records = 1000000;	/* never reached: the jump ends it */
	cfg->work = work;
	cfg->work_ctx = f;
}

/* After the release: more loads on the CPU selected must write nothing anywhere. */
static void assert_disarmed(unsigned counter, bool arch)
{
	uint64_t written = model_stats()->records_written, pmc = model_msr(MSR_IA32_PMC(counter));

	loads(200000);
	assert_int_equal(model_stats()->stray, 0);
	assert_int_equal(model_stats()->records_written, written);
	assert_int_equal(model_msr(MSR_IA32_PMC(counter)), pmc);	/* stopped */
	assert_int_equal(model_msr(MSR_IA32_PERF_GLOBAL_CTRL) & (1ull << counter), 0);
	if (arch) {
		assert_int_equal(model_msr(MSR_IA32_PEBS_INDEX) & ARCH_INDEX_EN, 0);
		assert_int_equal(model_msr(MSR_IA32_PEBS_BASE), 0);
	} else {
		assert_int_equal(model_msr(MSR_IA32_PEBS_ENABLE), 0);
		assert_int_equal(model_msr(MSR_IA32_DS_AREA), 0);
	}
}

/* The boot CPU: watchdog abandon in the middle of pebs_measure_run, then the runner's order
 * (ktests/run.c run_one): undos, then the test's memory released. Legacy DS (Skylake),
 * adaptive DS (Ice Lake SP) and architectural PEBS (Panther Lake P). */
static void abandon_boot(const struct model_cpu *row)
{
	static struct feed f;
	static struct pebs_measure_cfg cfg;
	static unsigned mark;

	pmu_fixture_probe(row, &ci, &caps);
	memset(&m, 0, sizeof(m));
	f = (struct feed){ .abandon_at = 5 };
	cfg_init(&cfg, &f);
	mark = model_mm_mark();
	if (!setjmp(abandon)) {
		pebs_measure_run(&m, &caps, &cfg);
		fail_msg("%s: the workload was not abandoned", row->name);
	}
	assert_true(model_stats()->records_written > 0);	/* it was measuring */
	assert_int_equal(kt_undo_run(), 1);	/* the session's undo, and only it */
	model_mm_release(mark);
	assert_disarmed(m.s.counter, caps.pebs_fmt == 0xF);
	pmu_fixture_assert_clean();
	assert_null(pebs_pmi_session_here());	/* no PMI into it */
}

static void test_abandoned_on_boot_cpu(void **state)
{
	(void)state;
	abandon_boot(&model_skylake);
	abandon_boot(&model_icelake_sp);
	abandon_boot(&model_ptl_p);
}

/* A measurement that ends normally leaves no undo behind (the stop drops it). */
static void test_stopped_leaves_no_undo(void **state)
{
	struct feed f = { .abandon_at = 0 };
	struct pebs_measure_cfg cfg;

	(void)state;
	pmu_fixture_probe(&model_skylake, &ci, &caps);
	memset(&m, 0, sizeof(m));
	cfg_init(&cfg, &f);
	cfg.target_records = 100;
	assert_int_equal(pebs_measure_run(&m, &caps, &cfg), 0);
	assert_true(m.st.records >= 100);
	assert_int_equal(kt_undo_run(), 0);
	pmu_fixture_assert_clean();
}

static unsigned this_cpu(void)
{
	return model_current();
}

/* An AP (CPU 1 of a hybrid Alder Lake) faults inside its measurement: smp/smp_ap.c jumps back
 * to its loop and runs the recovery hooks (pebs_disarm_here) before the boot CPU sees the
 * call end and releases the test's memory. The AP put nothing on the boot CPU's undo list
 * (kt_undo_set_cpu, as smp_ap_install sets it); the boot CPU's PMU is left as it was. */
static void test_ap_fault(void **state)
{
	static const struct model_cpu *const adl[] = { &model_goldencove, &model_gracemont };
	static struct pebs_cpu pc[2];
	static struct feed f = { .abandon_at = 5 };
	static struct pebs_measure_cfg cfg;
	static uint64_t boot_ctrl;
	static unsigned mark;

	(void)state;
	model_init_cpus(adl, 2);
	for (unsigned i = 0; i < 2; i++) {
		model_select(i);
		pebs_cpu_init(&pc[i]);
	}
	kt_undo_set_cpu(this_cpu);
	model_select(0);
	boot_ctrl = model_msr(MSR_IA32_PERF_GLOBAL_CTRL);
	model_select(1);
	cfg_init(&cfg, &f);
	mark = model_mm_mark();
	if (!setjmp(abandon)) {
		pebs_cpu_measure(&pc[1], &cfg);
		fail_msg("the AP's workload did not fault");
	}
	assert_true(model_stats()->records_written > 0);
	pebs_disarm_here();	/* smp_ap.c ap_loop: the recovery hooks */
	model_select(0);
	assert_int_equal(kt_undo_run(), 0);	/* the boot CPU's list holds nothing of the AP */
	assert_int_equal(model_msr(MSR_IA32_PERF_GLOBAL_CTRL), boot_ctrl);
	model_mm_release(mark);
	model_select(1);
	assert_disarmed(pc[1].meas.s.counter, false);
	assert_null(pebs_pmi_session_here());
	assert_int_equal(model_cpu_violations(0), 0);
	assert_int_equal(model_cpu_violations(1), 0);
	kt_undo_set_cpu(NULL);
	model_select(0);
}

static int teardown(void **state)
{
	(void)state;
	model_fini();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_abandoned_on_boot_cpu, teardown),
		cmocka_unit_test_teardown(test_stopped_leaves_no_undo, teardown),
		cmocka_unit_test_teardown(test_ap_fault, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
