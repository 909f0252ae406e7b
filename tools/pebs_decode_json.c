/*
 * pebs_decode_json.c: pebs-decode's JSON line per record (see pebs_decode_json.h); field
 * validity comes from the walker's PEBS_F_* bits (pebs/record.h), names from pebs/datasrc.c.
 */
#include "tools/pebs_decode_json.h"

#include <stdbool.h>
#include <stdio.h>

static void hex_or_null(const char *key, bool valid, uint64_t v)
{
	if (valid)
		printf(",\"%s\":\"0x%llx\"", key, (unsigned long long)v);
	else
		printf(",\"%s\":null", key);
}

static void int_or_null(const char *key, bool valid, uint64_t v)
{
	if (valid)
		printf(",\"%s\":%llu", key, (unsigned long long)v);
	else
		printf(",\"%s\":null", key);
}

static void tri(const char *key, uint8_t t)
{
	printf(",\"%s\":%s", key, t == PEBS_YES ? "true" : t == PEBS_NO ? "false" : "null");
}

/* A data-source name: null when the record or its layout has no such field, else the
 * table's id ("NA" when the table marks the code not available or reserved). */
static void id_or_null(const char *key, bool present, const char *id)
{
	if (present)
		printf(",\"%s\":\"%s\"", key, id);
	else
		printf(",\"%s\":null", key);
}

void pd_print_record(const struct pebs_record *r, const struct pebs_dsrc *d)
{
	uint32_t v = r->valid;

	printf("{\"index\":%u,\"offset\":%u,\"format\":%u,\"size\":%u", r->index, r->offset,
	       r->format, r->size);
	hex_or_null("ip", v & PEBS_F_IP, r->ip);
	hex_or_null("eventing_ip", v & PEBS_F_EVENTING_IP, r->eventing_ip);
	hex_or_null("applicable_counters", v & PEBS_F_APPLICABLE, r->applicable_counters);
	hex_or_null("tsc", v & PEBS_F_TSC, r->tsc);
	hex_or_null("addr", v & PEBS_F_ADDR, r->addr);
	hex_or_null("aux", v & PEBS_F_AUX, r->aux);
	int_or_null("latency", v & PEBS_F_LATENCY, r->latency);
	int_or_null("instr_latency", v & PEBS_F_INSTR_LATENCY, r->instr_latency);
	id_or_null("level", d->has_level, pebs_level_id(d->level));
	tri("hit", d->hit);
	tri("remote", d->remote);
	id_or_null("snoop", d->has_snoop, pebs_snoop_id(d->snoop));
	tri("stlb_miss", d->stlb_miss);
	tri("locked", d->locked);
	if (r->err)
		printf(",\"error\":\"%s\"}\n", pebs_rec_strerror(r->err));
	else
		printf(",\"error\":null}\n");
}
