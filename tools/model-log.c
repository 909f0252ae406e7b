/*
 * model-log.c: print a complete pebs-kernel serial log (KTAP version 1, docs/output.md
 * output-format 2) for a CPU of the PMU model (tests/model/pmu_model.h), from the kernel's own
 * code: kernel/ktap.c (plan, subtests, results, totals), pebs/caps_print.c (`# pmu:` lines),
 * pebs/cycles.c (the `core clock` counter, programmed in the model), loads/plan.c (working sets
 * and the step_over margins) and, per load kernel, the PEBS step of model_log_pebs.c
 * (pebs/measure.c + loads/kpebs_print.c + loads/pebs_verdict.c). Test logs for
 * tools/pebs-report (tests/scripts/pebs-report.t) come from here.
 * SYNTHESIZED, because the host cannot run them: the `chain` and `time` lines (no chain is
 * built, nothing is timed: core cycles/load = the target level's modelled median latency with
 * a seeded +-3 % jitter, TSC = core / 1.10), the cache geometry (the model has no CPUID 04H:
 * the CPU's published sizes) and the TSC frequency; the `cpu:` line's brand is the model name.
 * AMD parts (zen3, zen4, zen5, zen6) run the same kernels' PEBS step through IBS over the IBS model
 * (tests/model/ibs_model.h, tools/model_log_ibs.c); the header adds the `# pmu: amd` lines.
 * --cpu alderlake: the modelled hybrid part (model_init_cpus): Golden Cove P-core as CPU 0
 * (the boot CPU, tests load_l1..load_dram) and Gracemont E-core as CPU 1 (test load_cpus, as
 * ktests/load_cpus.c prints it: the CPU line, kernels load_<lvl>@cpu1, subtests cpu1_<lvl>_,
 * the PEBS step through CPU 1's own struct pebs_cpu, decoded with its core type). Also
 * SYNTHESIZED there: the `smp-cpu` / `cpus` header lines and both CPUs' cache geometry (the
 * P-core's published sizes, which the kernel too takes from the boot CPU).
 * --kernels all: also the other load kernels after load_dram, in the kernel's order: load_lfb,
 * load_store, load_stlb, load_remote, load_snoop, load_hitm (tools/model_log_special.c; on
 * zen3/zen4 through IBS); default `levels`: load_l1..load_dram only (what the fixtures were
 * made from).
 * --kernels loaded: load_l1..load_dram, then test load_loaded (tools/model_log_loaded.c; Intel
 * parts): --injectors N of them (default 15) over the CPU's modelled memory (.mem below, the
 * load-dependent DRAM latency model tests/model/loaded_model.h).
 * --kernels matrix: load_l1..load_dram, then the latency matrices load_matrix and load_c2c
 * (tools/model_log_matrix.c) over the topology --topo names (tests/model/topo_model.h, default
 * 2s-snc2-cxl); --remote-faster N: the topology's hostile knob (node 1 -> node 0 loads N %
 * faster than node 1's own: remote_over_local fails). Intel parts.
 * Usage: model-log --cpu haswell|skylake|icelake_sp|sapphire_rapids|zen3|zen4|zen5|zen6|lnl-p|nvl-p|nvl-e|alderlake|
 *                        gnr|mtl-p
 *                  [--seed N] [--kernels levels|all|loaded|matrix] [--injectors 1..512]
 *                  [--topo NAME] [--remote-faster N]
 *                  [--mix clean|mixed|l1] [--dump none|raw|decoded] [--sav N]
 *                  [--assist-ns N] [--pmi-ns N] [--ram-pct N] [--pebs-counters on|off]
 *                  [--retire-pct N] [--snap-skew N] > file.log
 * --assist-ns / --pmi-ns: what the model's virtual clock charges per PEBS assist (default 20)
 * and per PMI or IBS interrupt (default 2000): the cost the `pebs` line and pebs_overhead
 * report.
 * --ram-pct: RAM latencies in percent of the model's (default 100; 150 = a machine with slower
 * memory, the planted outlier of tests/fixtures/fleet/).
 * --pebs-counters on: the kernel's pebs_counters=on (counter snapshots in every record, their
 * `counters` lines and subtest pebs_counters; format 6 and arch PEBS). --retire-pct N /
 * --snap-skew N: the PMU model's hostile knobs (tests/model/pmu_model_hostile.h) on every
 * modelled CPU: retire latencies at N % of the load's latency (pebs_latency's retire
 * judgement), counter snapshots N above the counter (pebs_counters). Intel parts.
 * Exit: 0 the log was written (whatever its verdicts), 2 usage or a model violation.
 */
#include "tools/model_log.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/ktap_detail.h"
#include "loads/geometry.h"
#include "loads/plan.h"
#include "model/ibs_model.h"
#include "model/loaded_model.h"
#include "model/pmu_model.h"
#include "model/pmu_model_hostile.h"
#include "model/topo_model.h"
#include "model/vclock.h"
#include "pebs/cycles.h"
#include "ibs/amd_cycles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct mcpu {
	const char *id;
	const struct model_cpu *mc;
	const struct ibs_model_cpu *amd;	/* AMD: the IBS model instead of mc */
	const struct model_cpu *ecore;	/* hybrid: CPU 1, an E-core; NULL: one CPU */
	uint64_t l1d, l2, l3;		/* published sizes, bytes */
	unsigned w1, w2, w3;
	uint64_t tsc_khz;
	const struct loaded_mem *mem;	/* --kernels loaded: the memory's load-latency model */
} cpus[] = {
	{ .id = "haswell", .mc = &model_haswell, .l1d = 32 << 10, .l2 = 256 << 10,
	  .l3 = 8 << 20, .w1 = 8, .w2 = 8, .w3 = 16, .tsc_khz = 3400000,
	  .mem = &loaded_mem_ddr4_2ch },
	{ .id = "skylake", .mc = &model_skylake, .l1d = 32 << 10, .l2 = 256 << 10,
	  .l3 = 8 << 20, .w1 = 8, .w2 = 4, .w3 = 16, .tsc_khz = 3400000,
	  .mem = &loaded_mem_ddr4_2ch },
	{ .id = "icelake_sp", .mc = &model_icelake_sp, .l1d = 48 << 10, .l2 = 1280 << 10,
	  .l3 = 36ull << 20, .w1 = 12, .w2 = 20, .w3 = 12, .tsc_khz = 2300000,
	  .mem = &loaded_mem_ddr4_6ch },
	{ .id = "sapphire_rapids", .mc = &model_sapphire_rapids, .l1d = 48 << 10, .l2 = 2 << 20,
	  .l3 = 105ull << 20, .w1 = 12, .w2 = 16, .w3 = 15, .tsc_khz = 2000000,
	  .mem = &loaded_mem_ddr5_8ch },
	{ .id = "zen3", .amd = &ibs_model_zen3, .l1d = 32 << 10, .l2 = 512 << 10,
	  .l3 = 32ull << 20, .w1 = 8, .w2 = 8, .w3 = 16, .tsc_khz = 3400000,
	  .mem = &loaded_mem_ddr4_2ch },
	{ .id = "zen4", .amd = &ibs_model_zen4, .l1d = 32 << 10, .l2 = 1 << 20,
	  .l3 = 32ull << 20, .w1 = 8, .w2 = 8, .w3 = 16, .tsc_khz = 2400000,
	  .mem = &loaded_mem_ddr5_8ch },
	{ .id = "zen5", .amd = &ibs_model_zen5, .l1d = 48 << 10, .l2 = 1 << 20,
	  .l3 = 32ull << 20, .w1 = 12, .w2 = 16, .w3 = 16, .tsc_khz = 2400000 },
	{ .id = "zen6", .amd = &ibs_model_zen6, .l1d = 48 << 10, .l2 = 1 << 20,
	  .l3 = 32ull << 20, .w1 = 12, .w2 = 16, .w3 = 16, .tsc_khz = 2400000 },
	/* Lunar Lake 06_BDH P-core (Lion Cove: PEBS format 6, timed PEBS, counter snapshots):
	 * Core Ultra 9 288V's 48K/2.5M/12M (tests/host/preflight_fixtures.c); TSC illustrative */
	{ .id = "lnl-p", .mc = &model_lion_cove, .l1d = 48 << 10, .l2 = 2560 << 10,
	  .l3 = 12ull << 20, .w1 = 12, .w2 = 10, .w3 = 12, .tsc_khz = 3300000,
	  .mem = &loaded_mem_ddr4_2ch },
	/* Nova Lake 12_01H (family 18; arch PEBS): one core type each; sizes illustrative (no published
	 * figures at hand): P-core 48K/3M, E-core 32K/4M (its cluster's L2), 36M L3 */
	{ .id = "nvl-p", .mc = &model_nvl_p, .l1d = 48 << 10, .l2 = 3 << 20,
	  .l3 = 36ull << 20, .w1 = 12, .w2 = 12, .w3 = 12, .tsc_khz = 2400000,
	  .mem = &loaded_mem_ddr4_2ch },
	{ .id = "nvl-e", .mc = &model_nvl_e, .l1d = 32 << 10, .l2 = 4 << 20,
	  .l3 = 36ull << 20, .w1 = 8, .w2 = 16, .w3 = 12, .tsc_khz = 2400000,
	  .mem = &loaded_mem_ddr4_2ch },
	{ .id = "alderlake", .mc = &model_goldencove, .ecore = &model_gracemont, .l1d = 48 << 10,
	  .l2 = 1280 << 10, .l3 = 30ull << 20, .w1 = 12, .w2 = 10, .w3 = 12, .tsc_khz = 2400000,
	  .mem = &loaded_mem_ddr4_2ch },
	/* Granite Rapids-X 06_ADH (Redwood Cove; timed PEBS, no aux event): Xeon 6980P's 48K L1D,
	 * 2M L2 per core, 504M L3; ways, TSC and the memory model (it has 12 DDR5 channels)
	 * illustrative */
	{ .id = "gnr", .mc = &model_gnr, .l1d = 48 << 10, .l2 = 2 << 20, .l3 = 504ull << 20,
	  .w1 = 12, .w2 = 16, .w3 = 16, .tsc_khz = 2000000, .mem = &loaded_mem_ddr5_8ch },
	/* Meteor Lake 06_AAH P-core (Redwood Cove; timed PEBS): Core Ultra 7 155H's P-core 48K L1D,
	 * 2M L2, 24M L3; ways, TSC and the memory model illustrative */
	{ .id = "mtl-p", .mc = &model_mtl_p, .l1d = 48 << 10, .l2 = 2 << 20, .l3 = 24ull << 20,
	  .w1 = 12, .w2 = 16, .w3 = 12, .tsc_khz = 3000000, .mem = &loaded_mem_ddr4_2ch },
};

static const char *const knames[4] = { "load_l1", "load_l2", "load_l3", "load_dram" };

/* The console backend (kernel/console.c fans kprintf out to it): the log goes to stdout. */
static void out_write(struct console_backend *be, const char *s, size_t n)
{
	(void)be;
	fwrite(s, 1, n, stdout);
}

static struct console_backend out = { .name = "stdout", .write = out_write };

static void usage(void)
{
	fprintf(stderr, "usage: model-log --cpu haswell|skylake|icelake_sp|sapphire_rapids|zen3|zen4|zen5|zen6|lnl-p|nvl-p|nvl-e|"
		"alderlake|gnr|mtl-p "
		"[--seed N] [--kernels levels|all|loaded|matrix] [--injectors N] [--topo %s] [--remote-faster 0..99] [--mix clean|mixed|l1] [--dump none|raw|decoded] [--sav N] "
		"[--assist-ns N] [--pmi-ns N] [--ram-pct 50..400] [--pebs-counters on|off] "
		"[--retire-pct 1..1000] [--snap-skew N]\n", topo_model_names());
	exit(2);
}

static int pick(const char *v, const char *const *names, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(v, names[i]))
			return (int)i;
	usage();
	return -1;
}

static void header(const struct mcpu *m, const struct cpu_info *ci, const struct pebs_caps *c,
		   const struct ibs_caps *ic, const struct cache_geometry *g, char *const *argv,
		   int argc, bool all, bool loaded, bool matrix)
{
	static struct pmu_cycles cyc;
	static struct amd_cycles acyc;
	char cmd[256] = "", b[200];

	for (int i = 1; i < argc; i++)
		snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), "%s%s", i > 1 ? " " : "",
			 argv[i]);
	/* main.c: version and plan lines, then print_header() order and formats */
	ktap_begin();
	ktap_plan((m->ecore ? 5 : 4) + (all ? 6 : 0) + loaded + (matrix ? 2 : 0));
	ktap_diag("output-format: %u", OUTPUT_FORMAT);
	ktap_diag("pebs-kernel model-log");
	/* docs/output.md: every report treats a log with this line as simulated, no machine's */
	ktap_diag("simulated: model-log, the PMU model of %s: records from the model, chain and "
		  "time lines synthesized; no hardware ran this", m->amd ? m->amd->name : m->mc->name);
	ktap_diag("cmdline: model-log %s", cmd);
	ktap_diag("cpu: %s %02X_%02XH stepping %u \"%s (PMU model)\"", ci->vendor_str, ci->family,
		  ci->model, ci->stepping, m->amd ? m->amd->name : m->mc->name);
	ktap_diag("tsc: %llu kHz (model), invariant", (unsigned long long)m->tsc_khz);
	pebs_caps_print(c);
	if (m->amd)
		ibs_caps_print(ic);	/* main.c on AMD */
	if (m->ecore) {		/* smp/smp_print.c formats */
		ktap_diag("smp-cpu: 0 apic 0 package 0 core 0 thread 0 type P-core node 0 online "
			  "(SIPIs 0)");
		ktap_diag("smp-cpu: 1 apic 1 package 0 core 8 thread 0 type E-core node 0 online "
			  "(SIPIs 1)");
		ktap_diag("cpus: all: 0 1");
	}
	/* kpebs.c kload_header() */
	for (unsigned i = 0; geometry_header_line(g, i, b, sizeof(b)); i++)
		ktap_diag("%s", b);
	if (m->amd)	/* kpebs.c kload_header() on AMD */
		amd_cycles_header_line(&acyc, amd_cycles_init(&acyc, ci), b, sizeof(b));
	else
		pmu_cycles_header_line(&cyc, pmu_cycles_init(&cyc, c), b, sizeof(b));
	ktap_diag("%s", b);
}

static void level(struct cache_level *l, uint64_t size, unsigned ways)
{
	l->size = size;
	l->ways = ways;
	l->line = 64;
	l->src = CSRC_LEAF4;
}

int main(int argc, char **argv)
{
	static const char *const cpu_ids[] = { "haswell", "skylake", "icelake_sp",
					       "sapphire_rapids", "zen3", "zen4", "zen5", "zen6",
					       "lnl-p", "nvl-p", "nvl-e", "alderlake", "gnr",
					       "mtl-p" };
	static const char *const mix_ids[] = { "clean", "mixed", "l1" };
	static const char *const dump_ids[] = { "none", "raw", "decoded" };
	static const char *const kernel_ids[] = { "levels", "all", "loaded", "matrix" };
	static const char *const onoff[] = { "off", "on" };
	struct model_hostile h = { 0 };
	static struct topo_model topo;
	const char *topo_name = "2s-snc2-cxl";
	unsigned remote_faster = 0, injectors = 15;
	bool all = false, loaded = false, matrix = false;
	uint64_t dram_core = 0;
	unsigned next = 5;
	struct ml_opts o = { .mix = ML_CLEAN, .dump = ML_DUMP_NONE, .seed = 1, .sav = 1009,
			     .assist_ns = 20, .pmi_ns = 2000, .ram_pct = 100 };
	const struct mcpu *m = NULL;
	struct cache_geometry g;
	struct pebs_caps caps;
	struct ibs_caps ibs;
	struct cpu_info ci;
	uint64_t ns[4];

	log_set_full(true);	/* a model's log shows every line the kernel can print */
	for (int i = 1; i < argc; i += 2) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v)
			usage();
		if (!strcmp(argv[i], "--cpu"))
			m = &cpus[pick(v, cpu_ids, 14)];
		else if (!strcmp(argv[i], "--seed"))
			o.seed = strtoull(v, NULL, 0);
		else if (!strcmp(argv[i], "--kernels")) {
			int k = pick(v, kernel_ids, 4);

			all = k == 1;
			loaded = k == 2;
			matrix = k == 3;
		} else if (!strcmp(argv[i], "--injectors") && strtoull(v, NULL, 0) >= 1 &&
			   strtoull(v, NULL, 0) <= 512)
			injectors = (unsigned)strtoull(v, NULL, 0);
		else if (!strcmp(argv[i], "--topo"))
			topo_name = v;
		else if (!strcmp(argv[i], "--remote-faster") && strtoull(v, NULL, 0) < 100)
			remote_faster = (unsigned)strtoull(v, NULL, 0);
		else if (!strcmp(argv[i], "--mix"))
			o.mix = (enum ml_mix)pick(v, mix_ids, 3);
		else if (!strcmp(argv[i], "--dump"))
			o.dump = (enum ml_dump)pick(v, dump_ids, 3);
		else if (!strcmp(argv[i], "--sav") && strtoull(v, NULL, 0) > 0)
			o.sav = strtoull(v, NULL, 0), o.sav_given = true;
		else if (!strcmp(argv[i], "--assist-ns") && strtoull(v, NULL, 0) < 1000000)
			o.assist_ns = strtoull(v, NULL, 0);
		else if (!strcmp(argv[i], "--pmi-ns") && strtoull(v, NULL, 0) < 100000000)
			o.pmi_ns = strtoull(v, NULL, 0);
		else if (!strcmp(argv[i], "--ram-pct") && strtoull(v, NULL, 0) >= 50 &&
			 strtoull(v, NULL, 0) <= 400)
			o.ram_pct = (unsigned)strtoull(v, NULL, 0);
		else if (!strcmp(argv[i], "--pebs-counters"))
			o.counters = pick(v, onoff, 2) == 1;
		else if (!strcmp(argv[i], "--retire-pct") && strtoull(v, NULL, 0) >= 1 &&
			 strtoull(v, NULL, 0) <= 1000)
			h.retire_pct = (unsigned)strtoull(v, NULL, 0);
		else if (!strcmp(argv[i], "--snap-skew") && strtoull(v, NULL, 0) > 0)
			h.snap_skew = strtoull(v, NULL, 0);
		else
			usage();
	}
	if (!m || ((loaded || matrix) && m->amd)) {
		if (m)
			fprintf(stderr, "model-log: --kernels %s: Intel parts only (the IBS path has "
				"no %s model)\n", loaded ? "loaded" : "matrix",
				loaded ? "load_loaded" : "per-CPU sampling");
		usage();
	}
	if (m->amd && (o.counters || h.retire_pct || h.snap_skew)) {
		fprintf(stderr, "model-log: --pebs-counters, --retire-pct, --snap-skew: Intel parts "
			"only (the PMU model's)\n");
		usage();
	}
	if (!topo_model_init(&topo, topo_name, remote_faster)) {
		fprintf(stderr, "model-log: --topo %s: want %s\n", topo_name, topo_model_names());
		usage();
	}
	ml_srand(o.seed);
	o.tsc_khz = m->tsc_khz;
	ml_amd = m->amd != NULL;
	if (ml_amd) {
		vclock_reset(0, 20);	/* an RDTSC takes ~20 TSC ticks (the core clock's check) */
		ibs_model_init(m->amd, APIC_X2APIC, PMI_NMI);
	} else if (m->ecore) {
		const struct model_cpu *const two[] = { m->mc, m->ecore };

		model_init_cpus(two, 2);
		for (unsigned i = 2; i--;)
			model_select(i), model_hostile(&h);
	} else {
		model_init(m->mc);
		model_hostile(&h);
	}
	cpu_probe(&ci);
	pebs_caps_probe(&caps, &ci);
	ibs_caps_probe(&ibs, &ci);
	memset(&g, 0, sizeof(g));
	level(&g.l1d, m->l1d, m->w1);
	level(&g.l2, m->l2, m->w2);
	level(&g.l3, m->l3, m->w3);
	console_register(&out);
	header(m, &ci, &caps, &ibs, &g, argv, argc, all, loaded, matrix);
	for (unsigned k = 0; k < 4; k++) {
		const struct ktest_desc desc = { .name = knames[k], .needs = NEED_NONE };
		struct ktest t = { .desc = &desc };
		uint64_t core;

		ktap_test_start(&t, k + 1);	/* ktests/run.c run_one */
		core = ml_timing(&t, k, knames[k], m->tsc_khz, load_ws((enum load_level)k, &g), &o);

		ns[k] = core * 100 / 110 * 1000000 / m->tsc_khz;
		dram_core = core;
		if (ml_amd)
			ml_ibs_step(&t, k, knames[k], &ibs, &o, core);
		else
			ml_pebs_step(&t, k, knames[k], &caps, &o, core);
		/* ktests/load.c level_test(): chain checks, then l1_core_cycles or step_over */
		kt_check(&t, true, "chain_cycle");
		kt_check(&t, true, "chain_placement");
		if (k == 0)
			kt_check(&t, core >= 300 && core <= 700, "l1_core_cycles # %llu.%02llu in 3..7",
				 X100(core));
		else
			kt_check(&t, load_step_ok(ns[k - 1], ns[k], load_step_margin_pct[k]),
				 "step_over_%s # %llu.%02llu ns >= %u%% of %llu.%02llu ns",
				 load_level_name((enum load_level)(k - 1)), X100(ns[k]),
				 load_step_margin_pct[k], X100(ns[k - 1]));
		ktap_result(&t, k + 1, kt_verdict(&t), NULL);
	}
	if (all)
		next = ml_special_tests(next, m->tsc_khz, &caps, &ibs, &g, &o);
	if (matrix)
		next = ml_matrix_tests(next, &caps, &g, &o, &topo);
	if (m->ecore)
		ml_ecore_test(next++, m->tsc_khz, &g, &o);
	if (loaded)	/* the kernel's table order: load_cpus, then load_loaded */
		ml_loaded_test(next, &caps, &g, &o, m->mem, injectors, dram_core);
	ktap_totals();
	kprintf("# EXIT: STATUS=%d\n", ktap_get_totals()->fail ? 1 : 0);	/* kernel/exit.c */
	for (unsigned i = 0; i < ibs_model_violation_count(); i++)
		fprintf(stderr, "model-log: IBS model violation: %s\n", ibs_model_violation(i));
	if (ibs_model_violation_count())
		return 2;
	if (model_violation_count()) {
		for (unsigned i = 0; i < model_violation_count(); i++)
			fprintf(stderr, "model-log: model violation: %s\n", model_violation(i));
		return 2;
	}
	return 0;
}
