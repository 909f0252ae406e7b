/*
 * load_special.c: tests load_lfb, load_store, load_stlb: the kernels for the other PEBS
 * record kinds, each timed against a plain chase on the same working set so a verdict can
 * tell whether the kernel did what it claims (SKIP under software emulation):
 *   load_lfb   DRAM-sized chase + 7 loads to the line in flight (SDM "pending core cache
 *              hit" / LFB); lfb_rides_fill: a step costs <= 150% of a plain load's miss
 *              (7 more misses would cost several times that; in-flight hits add little).
 *   load_store L2-sized chase + one store per node; store_off_path: <= 150% of the plain
 *              load (stores retire to the store buffer, off the dependency chain).
 *   load_stlb  one node per 4 KiB page over KLOAD_STLB_WS (a random line in each page);
 *              walk_cost: >= 120% of the same chain on 2 MiB pages (every load a page walk).
 *              Where timing is not judged and no PEBS step runs, the working set is capped
 *              (kload_ws_cap): the chain checks need no more, and 16384 4 KiB mappings cost.
 * Then the PEBS step (SKIP with the reason until it can run), subtests chain_cycle/placement.
 */
#include "ktests/tests.h"
#include "kernel/fmt.h"
#include "loads/kload.h"

#define X100(v) (unsigned long long)((v) / 100), (unsigned long long)((v) % 100)

/*
 * Run reference then subject (the subject's chain stays live for the PEBS step). A subject
 * with sub->stride == 0 re-times the reference's chain with sub->kind instead of building.
 */
static enum kt_result pair_test(struct ktest *t, struct load_run *ref, struct load_run *sub,
				enum load_target tgt, const char *verdict, unsigned max_pct,
				bool sub_slower)
{
	const char *emu = kload_timing_unjudgeable();
	int rc;

	kload_test_begin();
	kload_print_geometry(t);
	rc = load_run(ref);
	if (rc == -1)
		return kt_skip(t, "%s", ref->why);
	if (rc == 0) {
		load_run_print(t, ref);
		rc = sub->stride ? load_run(sub) : load_retime(sub, ref, sub->name, sub->kind);
		if (rc == -1)
			return kt_skip(t, "%s", sub->why);
	}
	if (rc == 0) {
		load_run_print(t, sub);
		kload_pebs_step(t, sub, tgt);
	}
	kload_check_chain(t, rc == 0 ? sub : ref);
	if (rc)
		return kt_verdict(t);
	if (emu)
		kt_skip_sub(t, verdict, "%s", emu);
	else if (sub_slower)	/* subject must be at least max_pct of the reference */
		kt_check(t, load_step_ok(ref->ns_x100, sub->ns_x100, max_pct),
			 "%s # %llu.%02llu ns >= %u%% of %llu.%02llu ns", verdict,
			 X100(sub->ns_x100), max_pct, X100(ref->ns_x100));
	else			/* subject at most max_pct of the reference */
		kt_check(t, load_step_ok(sub->ns_x100, ref->ns_x100 * max_pct / 100, 100),
			 "%s # %llu.%02llu ns <= %u%% of %llu.%02llu ns", verdict,
			 X100(sub->ns_x100), max_pct, X100(ref->ns_x100));
	return kt_verdict(t);
}

enum kt_result test_load_lfb(struct ktest *t)
{
	const char *note;
	uint64_t ws = kload_ws(LOAD_DRAM, &note);
	struct load_run ref = { .name = "load_lfb/ref", .kind = CHASE_LOAD, .ws = ws,
				.ps = PS_2M, .stride = 64 };
	struct load_run sub = { .name = "load_lfb", .kind = CHASE_LFB };	/* same chain */

	return pair_test(t, &ref, &sub, TGT_LFB, "lfb_rides_fill", 150, false);
}

enum kt_result test_load_store(struct ktest *t)
{
	const char *note;
	uint64_t ws = kload_ws(LOAD_L2, &note);
	struct load_run ref = { .name = "load_store/ref", .kind = CHASE_LOAD, .ws = ws,
				.ps = PS_2M, .stride = 64 };
	struct load_run sub = { .name = "load_store", .kind = CHASE_STORE };	/* same chain */

	return pair_test(t, &ref, &sub, TGT_STORE, "store_off_path", 150, false);
}

enum kt_result test_load_stlb(struct ktest *t)
{
	const char *note = "";
	struct load_run ref = { .name = "load_stlb/2M", .kind = CHASE_LOAD,
				.ws = kload_ws_cap(KLOAD_STLB_WS, &note), .ps = PS_2M,
				.stride = 4096 };
	struct load_run sub = ref;
	char ws[24];

	sub.name = "load_stlb";
	sub.ps = PS_4K;
	if (*note && log_full())	/* the ws= of its time line shows the size */
		kt_info(t, "load_stlb: working set %s%s", geometry_size_str(ref.ws, ws, sizeof(ws)),
			note);
	return pair_test(t, &ref, &sub, TGT_STLB, "walk_cost", 120, true);
}
