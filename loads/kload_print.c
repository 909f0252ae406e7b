/*
 * kload_print.c: the `chain` and `time` lines of a load kernel (docs/output.md §3), pure, so
 * that the kernel (loads/kload.c) and tools/loadbench --pebs print them the same way. The
 * chain line restates what chain_cycle and chain_placement check: log=brief prints it only
 * when the walk or the rules break, and a time line of the measurement alone (unit, tsc, ns,
 * core); both time lines end in the working set (`ws=`) where a chain was built.
 */
#include "loads/kload.h"
#include "kernel/fmt.h"
#include "kernel/ktap_detail.h"

#define X100(v) (unsigned long long)((v) / 100), (unsigned long long)((v) % 100)

void load_run_lines(void (*out)(void *ctx, const char *line), void *ctx,
		    const struct load_run *r, uint64_t hz)
{
	static const char *const unit[] = { "load", "step8", "ldst" };
	const struct chase_result *s = &r->res;
	char ws[24], core[24] = "-", ratio[24] = "-", line[256];
	bool broken = r->chain.near_left || r->chain.page_left || r->walk_len != r->chain.nodes;

	if (r->build_ticks)
		geometry_size_str(r->ws, ws, sizeof(ws));
	if (r->build_ticks && (broken || log_full())) {
		fmt_snprintf(line, sizeof(line), "%s: chain ws=%s pages=%s nodes=%llu stride=%u "
			     "walk=%llu/%llu rules=%s build_ms=%llu", r->name,
			     ws, r->ps == PS_4K ? "4K" : "2M",
			     (unsigned long long)r->chain.nodes, r->chain.stride,
			     (unsigned long long)r->walk_len, (unsigned long long)r->chain.nodes,
			     r->chain.near_left || r->chain.page_left ? "BROKEN" : "held",
			     (unsigned long long)(hz ? r->build_ticks * 1000 / hz : 0));
		out(ctx, line);
	}
	if (s->have_core) {
		fmt_snprintf(core, sizeof(core), "%llu.%02llu", X100(s->core_med_x100));
		fmt_snprintf(ratio, sizeof(ratio), "%llu.%02llu",
			     X100(s->tsc_med_x100 ? s->core_med_x100 * 100 / s->tsc_med_x100 : 0));
	}
	if (!log_full()) {	/* log=brief (output-format 3): the measurement and the ws */
		fmt_snprintf(line, sizeof(line), "%s: time unit=%s tsc=%llu.%02llu ns=%llu.%02llu "
			     "core=%s%s%s", r->name, unit[r->kind], X100(s->tsc_med_x100),
			     X100(r->ns_x100), core, r->build_ticks ? " ws=" : "",
			     r->build_ticks ? ws : "");
		out(ctx, line);
		return;
	}
	fmt_snprintf(line, sizeof(line), "%s: time unit=%s tsc=%llu.%02llu min=%llu.%02llu "
		     "max=%llu.%02llu ns=%llu.%02llu core=%s ratio=%s steps=%llu ms=%llu "
		     "warm=%u%s remeasure=%u%s%s%s", r->name,
		     unit[r->kind], X100(s->tsc_med_x100), X100(s->tsc_min_x100),
		     X100(s->tsc_max_x100), X100(r->ns_x100), core, ratio,
		     (unsigned long long)s->steps_per_rep,
		     (unsigned long long)(hz ? s->total_ticks * 1000 / hz : 0),
		     s->warm_laps, s->warm_bound ? ",bound" : "", r->remeasured,
		     r->noisy ? ",noisy" : "", r->build_ticks ? " ws=" : "",
		     r->build_ticks ? ws : "");
	out(ctx, line);
}

