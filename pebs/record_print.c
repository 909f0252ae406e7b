/*
 * record_print.c: one walked PEBS record as text (see record_print.h; SDM Vol. 3B "PEBS
 * record format" for the fields, perf's names for the data source).
 */
#include "pebs/record_print.h"

static const char *tri_word(uint8_t t)
{
	return t == PEBS_YES ? "yes" : t == PEBS_NO ? "no" : "-";
}

void pebs_record_print(const struct pebs_record *r, const struct pebs_dsrc *d,
		       fmt_sink_fn sink, void *ctx)
{
	uint32_t v = r->valid;

	fmt_format(sink, ctx, "rec %u", r->index);
	if (r->err) {
		fmt_format(sink, ctx, " off %u error: %s\n", r->offset, pebs_rec_strerror(r->err));
		return;
	}
	if (v & PEBS_F_EVENTING_IP)
		fmt_format(sink, ctx, " ip 0x%llx", (unsigned long long)r->eventing_ip);
	else if (v & PEBS_F_IP)
		fmt_format(sink, ctx, " ip 0x%llx", (unsigned long long)r->ip);
	if (v & PEBS_F_ADDR)
		fmt_format(sink, ctx, " addr 0x%llx", (unsigned long long)r->addr);
	if (v & PEBS_F_LATENCY)
		fmt_format(sink, ctx, " lat %llu", (unsigned long long)r->latency);
	if (v & PEBS_F_INSTR_LATENCY)
		fmt_format(sink, ctx, " ilat %llu", (unsigned long long)r->instr_latency);
	if (v & PEBS_F_AUX) {
		if (d->reserved)
			fmt_format(sink, ctx, " unknown(0x%llx)", (unsigned long long)d->raw);
		else
			fmt_format(sink, ctx, " %s snoop %s", pebs_dsrc_level_name(d),
				   pebs_snoop_name(d->snoop));
		fmt_format(sink, ctx, " stlb %s lock %s", tri_word(d->stlb_miss),
			   tri_word(d->locked));
	}
	fmt_format(sink, ctx, "\n");
}
