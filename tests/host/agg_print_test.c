/*
 * agg_print_test.c: the compact record line and the per-level table (sample/agg_print.c) against
 * expected text, built from records decoded by the real decoder (Skylake Table A + _skl).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sample/agg_print.h"
#include "pebs/record_print.h"
#include "pebs/aggbuf.h"

static char out[4096];
static size_t outlen;

static void sink(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	assert_true(outlen + n < sizeof(out));
	memcpy(out + outlen, s, n);
	outlen += n;
	out[outlen] = '\0';
}

static const struct pebs_model *skl(void)
{
	const struct pebs_model *m = pebs_model_lookup(6, 0x5E, PEBS_CORE_ANY);

	assert_non_null(m);
	return m;
}

static void test_record_line(void **state)
{
	struct pebs_record r = { .index = 3, .valid = PEBS_F_IP | PEBS_F_EVENTING_IP |
				 PEBS_F_ADDR | PEBS_F_AUX | PEBS_F_LATENCY, .ip = 0x401003,
				 .eventing_ip = 0x401000, .addr = 0x7f0000001000, .aux = 0x11,
				 .latency = 5 };
	struct pebs_dsrc d;

	(void)state;
	pebs_dsrc_decode(skl(), PEBS_EV_LOAD, r.aux, &d);
	outlen = 0;
	pebs_record_print(&r, &d, sink, NULL);
	assert_string_equal(out, "rec 3 ip 0x401000 addr 0x7f0000001000 lat 5 L1 hit snoop None "
			    "stlb yes lock no\n");
	r.aux = 0x2d;	/* remote any cache HitM, locked */
	pebs_dsrc_decode(skl(), PEBS_EV_LOAD, r.aux, &d);
	outlen = 0;
	pebs_record_print(&r, &d, sink, NULL);
	assert_string_equal(out, "rec 3 ip 0x401000 addr 0x7f0000001000 lat 5 Remote Any cache hit "
			    "snoop HitM stlb no lock yes\n");
	pebs_dsrc_decode(pebs_model_lookup(6, 0x1A, PEBS_CORE_ANY), PEBS_EV_LOAD, 0x39, &d);
	outlen = 0;
	pebs_record_print(&r, &d, sink, NULL);
	assert_string_equal(out, "rec 3 ip 0x401000 addr 0x7f0000001000 lat 5 unknown(0x39) "
			    "stlb - lock -\n");
	r.err = PEBS_REC_ZERO_SIZE;
	r.offset = 64;
	outlen = 0;
	pebs_record_print(&r, &d, sink, NULL);
	assert_string_equal(out, "rec 3 off 64 error: record size field is zero\n");
}

static void test_table(void **state)
{
	static struct pebs_agg a;
	struct pebs_record r = { .valid = PEBS_F_LATENCY | PEBS_F_AUX };
	struct pebs_dsrc d;

	(void)state;
	pebs_agg_init(&a);
	for (unsigned i = 0; i < 100; i++) {
		r.aux = i < 90 ? 0x01 : 0x1b;	/* L1 hit / remote RAM (snoop None) + STLB miss */
		r.latency = i < 90 ? 4 + i % 2 : 300 + i;
		pebs_dsrc_decode(skl(), PEBS_EV_LOAD, r.aux, &d);
		pebs_agg_add(&a, &r, &d);
	}
	r.err = PEBS_REC_TRUNCATED;
	pebs_agg_add(&a, &r, &d);
	outlen = 0;
	pebs_agg_print(&a, sink, NULL);
	assert_string_equal(out,
		"pebs: 101 records, 1 errors\n"
		"  level                   count   min   p50   p90   p99   max  mean  stlb  snoop\n"
		"  L1 hit                     90     4     4     5     5     5     4     0  None:90\n"
		"    log2 2^2:90\n"
		/* 390..399 share the bucket [384, 400): midpoint 391, clamped to [min, max] */
		"  RAM hit                    10   390   391   391   391   399   394    10  None:10\n"
		"    log2 2^8:10\n");
	assert_string_equal(pebs_agg_level_name(PEBS_LVL_L2_MHB), "L2 MHB hit");
	assert_string_equal(pebs_agg_level_name(999), "N/A");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_line),
		cmocka_unit_test(test_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
