/*
 * kpebs_ktap.c: KTAP glue for the PEBS lines of a load kernel (see kpebs_ktap.h).
 */
#include "loads/kpebs_ktap.h"
#include "kernel/console.h"
#include "sample/agg_print.h"

#include <string.h>

void kpk_line(void *ctx, const char *s)
{
	if (strlen(s) < 240)
		kt_info(ctx, "%s", s);
	else
		kprintf("  # %s\n", s);	/* raw dump lines, longer than kt_info's line */
}

struct full_ctx {
	struct ktest *t;
	const char *name;
	char buf[200];
	size_t o;
};

static void full_sink(void *ctx, const char *s, size_t n)
{
	struct full_ctx *f = ctx;

	for (; n; n--, s++) {
		if (*s == '\n' || f->o + 1 >= sizeof(f->buf)) {
			f->buf[f->o] = 0;
			kt_info(f->t, "%s: | %s", f->name, f->buf);
			f->o = 0;
			continue;
		}
		f->buf[f->o++] = *s;
	}
}

void kpk_judge(struct ktest *t, const char *name, const char *sub, enum pv_result v,
	       const char *detail, const struct pebs_agg *agg)
{
	struct full_ctx f = { .t = t, .name = name };

	if (v == PV_SKIP) {
		kt_skip_sub(t, sub, "%s", detail);
		return;
	}
	if (v != PV_PASS)	/* the evidence comes before the result line it explains */
		pebs_agg_print(agg, full_sink, &f);
	kt_check(t, v == PV_PASS, "%s # %s", sub, detail);
}
