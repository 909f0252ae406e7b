/*
 * loaded_test.c: load_loaded's pure parts (loads/loaded.c) and its injector (loads/inject.c)
 * on the host, over the load-dependent DRAM latency model (tests/model/loaded_model.h) and the
 * virtual clock: the delay sweep, the bandwidth arithmetic, the step's percentiles, shares and
 * accounting, its one line, the curve judge (a model curve passes, a non-monotone one and an
 * idle step far from load_dram fail), the injector's passes (what they read and write) and
 * its run loop (bytes and ticks on its own clock, stop and bound).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <stdio.h>

#include "loads/inject.h"
#include "loads/loaded.h"
#include "model/loaded_model.h"
#include "model/vclock.h"
#include "sample/dsrc.h"

static void test_sweep(void **state)
{
	uint64_t d[LOADED_MAX_STEPS];
	unsigned n = loaded_sweep(d, LOADED_MAX_STEPS);

	(void)state;
	assert_true(n >= 8);
	assert_int_equal(d[0], 0);
	assert_true(d[n - 1] == LOADED_IDLE);
	for (unsigned i = 1; i < n; i++)
		assert_true(d[i] > d[i - 1]);
	assert_int_equal(loaded_sweep(d, 4), 4);
	assert_true(d[3] == LOADED_IDLE);
	assert_int_equal(d[2], 8);
}

static void test_bandwidth(void **state)
{
	struct loaded_inj in[3] = { { .bytes = 64000000000ull, .ticks = 3400000000ull },
				    { .bytes = 32000000000ull, .ticks = 3400000000ull },
				    { .bytes = 0, .ticks = 100 } };

	(void)state;
	/* 64e9 bytes in one second at 3.4 GHz: 64000 MB/s */
	assert_int_equal(loaded_mbps(in[0].bytes, in[0].ticks, 3400000000ull), 64000);
	assert_int_equal(loaded_total_mbps(in, 3, 3400000000ull), 96000);
	/* 65536 B in 2 ms at 2 GHz: 32.768 MB/s, rounded */
	assert_int_equal(loaded_mbps(65536, 4000000, 2000000000ull), 33);
	assert_int_equal(loaded_mbps(0, 1, 1), 0);
	assert_int_equal(loaded_mbps(1, 0, 1), 0);
	assert_int_equal(loaded_mbps(1, 1, 0), 0);
	/* 1e15 bytes in 1000 s at 3 GHz: 1e6 MB/s, no overflow */
	assert_int_equal(loaded_mbps(1000000000000000ull, 3000000000000ull, 3000000000ull),
			 1000000);
}

static struct pebs_agg agg;

static void add(enum pebs_level l, unsigned n, uint64_t lat)
{
	struct pebs_dsrc d = { .level = l, .has_level = true };

	for (unsigned i = 0; i < n; i++)
		pebs_agg_add_sample(&agg, &d, true, lat);
}

static void test_samples(void **state)
{
	struct loaded_point p = { .delay = 50, .mbps = 12345, .ns_x100 = 9512,
				  .core_x100 = 21000 };
	char b[200], d[200];

	(void)state;
	pebs_agg_init(&agg);
	add(PEBS_LVL_RAM, 960, 200);
	add(PEBS_LVL_L3, 20, 30);
	add(PEBS_LVL_RAM, 20, 900);
	loaded_point_samples(&p, &agg);
	assert_int_equal(p.records, 1000);
	assert_int_equal(p.unaccounted, 0);
	assert_int_equal(p.share_x10[PEBS_LVL_RAM], 980);
	assert_int_equal(p.share_x10[PEBS_LVL_L3], 20);
	/* over every level's samples; a bucket's midpoint, within 3.125 % (aggregate.h) */
	assert_true(p.p50 >= 194 && p.p50 <= 206);
	assert_true(p.p99 >= 872 && p.p99 <= 900);
	loaded_line(b, sizeof(b), "load_loaded", 3, &p);
	snprintf(d, sizeof(d), "load_loaded: step 3 delay=50 bw=12.345GB/s lat=95.12ns "
		 "core=210.00 p50=%llu p99=%llu n=1000 src L3=2.0,RAM=98.0",
		 (unsigned long long)p.p50, (unsigned long long)p.p99);
	assert_string_equal(b, d);
	assert_true(loaded_accounted(&p, 1, d, sizeof(d)));

	/* samples without a data source (level NA) and walker errors are unaccounted */
	add(PEBS_LVL_NA, 5, 100);
	pebs_agg_add_error(&agg);
	loaded_point_samples(&p, &agg);
	assert_int_equal(p.unaccounted, 6);
	assert_false(loaded_accounted(&p, 1, d, sizeof(d)));
	assert_non_null(strstr(d, "step 0: 6 of 1006 samples in no data source"));

	/* a step the sampler did not run, and the idle step */
	p = (struct loaded_point){ .delay = LOADED_IDLE, .ns_x100 = 9000 };
	loaded_line(b, sizeof(b), "load_loaded", 10, &p);
	assert_string_equal(b, "load_loaded: step 10 delay=idle bw=0.000GB/s lat=90.00ns core=- "
			    "p50=- p99=- n=- src -");
	assert_false(loaded_accounted(&p, 1, d, sizeof(d)));	/* nothing was sampled */
}

/* A curve from the model: n injectors, the kernel's sweep. */
static unsigned model_curve(const struct loaded_mem *m, unsigned inj, struct loaded_point *pt)
{
	uint64_t d[LOADED_MAX_STEPS];
	unsigned n = loaded_sweep(d, LOADED_MAX_STEPS);

	for (unsigned i = 0; i < n; i++) {
		pt[i] = (struct loaded_point){ .delay = d[i] };
		pt[i].mbps = loaded_model_mbps(m, inj, d[i]);
		pt[i].ns_x100 = loaded_model_ns_x100(m, pt[i].mbps);
	}
	return n;
}

static void test_model(void **state)
{
	const struct loaded_mem *const mems[] = { &loaded_mem_ddr4_6ch, &loaded_mem_ddr5_8ch,
						  &loaded_mem_ddr4_2ch };
	struct loaded_point pt[LOADED_MAX_STEPS];

	(void)state;
	for (unsigned k = 0; k < 3; k++) {
		const struct loaded_mem *m = mems[k];
		unsigned n = model_curve(m, 16, pt);

		assert_int_equal(pt[n - 1].mbps, 0);
		assert_int_equal(pt[n - 1].ns_x100, m->idle_ns_x100);
		/* saturated at delay 0: RHO_MAX of the peak, latency 1 + q x 19 */
		assert_int_equal(pt[0].mbps, m->peak_mbps * LOADED_MODEL_RHO_MAX / 100);
		assert_int_equal(loaded_model_pct(m, pt[0].mbps), 100 + m->q_pct * 19);
		for (unsigned i = 1; i < n; i++) {
			assert_true(pt[i].mbps <= pt[i - 1].mbps);
			assert_true(pt[i].ns_x100 <= pt[i - 1].ns_x100);
		}
	}
	/* one injector cannot saturate: its own rate at delay 0 */
	assert_int_equal(loaded_model_mbps(&loaded_mem_ddr4_6ch, 1, 0), 12000);
	assert_int_equal(loaded_model_mbps(&loaded_mem_ddr4_6ch, 0, 0), 0);
}

static void test_judge(void **state)
{
	struct loaded_point pt[LOADED_MAX_STEPS];
	unsigned n = model_curve(&loaded_mem_ddr4_6ch, 16, pt);
	char d[200];

	(void)state;
	assert_true(loaded_monotone(pt, n, LOADED_NOISE_PCT, d, sizeof(d)));
	assert_non_null(strstr(d, "11 steps, 295.20 ns at 99.750 GB/s down to 90.00 ns idle"));
	assert_true(loaded_idle_ok(&pt[n - 1], 9000, LOADED_FLOOR_PCT, d, sizeof(d)));
	assert_true(loaded_idle_ok(&pt[n - 1], 9400, LOADED_FLOOR_PCT, d, sizeof(d)));

	/* noise: a lighter step 4 % above the one before passes, 6 % fails */
	pt[n - 1].ns_x100 = pt[n - 2].ns_x100 * 104 / 100;
	assert_true(loaded_monotone(pt, n, LOADED_NOISE_PCT, d, sizeof(d)));
	pt[n - 1].ns_x100 = pt[n - 2].ns_x100 * 106 / 100;
	assert_false(loaded_monotone(pt, n, LOADED_NOISE_PCT, d, sizeof(d)));
	assert_non_null(strstr(d, "step 10 ("));

	/* the steps' own noise widens the tolerance, up to LOADED_NOISE_MAX_PCT */
	pt[n - 2].noise_pct = 8;
	assert_true(loaded_monotone(pt, n, LOADED_NOISE_PCT, d, sizeof(d)));
	assert_non_null(strstr(d, "within 8% of the step before"));
	pt[n - 1].ns_x100 = pt[n - 2].ns_x100 * 130 / 100;
	pt[n - 1].noise_pct = 60;
	assert_false(loaded_monotone(pt, n, LOADED_NOISE_PCT, d, sizeof(d)));
	assert_non_null(strstr(d, "+ 25%"));
	assert_int_equal(loaded_noise_pct(11000, 10000), 10);
	assert_int_equal(loaded_noise_pct(9000, 10000), 0);
	assert_int_equal(loaded_noise_pct(100, 0), 0);

	/* non-monotone: the heaviest step faster than a lighter one */
	n = model_curve(&loaded_mem_ddr4_6ch, 16, pt);
	pt[0].ns_x100 = pt[5].ns_x100 / 2;
	assert_false(loaded_monotone(pt, n, LOADED_NOISE_PCT, d, sizeof(d)));
	assert_non_null(strstr(d, "step 1 ("));
	assert_false(loaded_monotone(pt, 1, LOADED_NOISE_PCT, d, sizeof(d)));	/* no curve */

	/* the idle step far from load_dram fails, either way; no load_dram figure fails */
	assert_false(loaded_idle_ok(&pt[n - 1], 12000, LOADED_FLOOR_PCT, d, sizeof(d)));
	assert_non_null(strstr(d, "idle 90.00 ns vs load_dram 120.00 ns: not within 5%"));
	assert_false(loaded_idle_ok(&pt[n - 1], 8000, LOADED_FLOOR_PCT, d, sizeof(d)));
	assert_false(loaded_idle_ok(&pt[n - 1], 0, LOADED_FLOOR_PCT, d, sizeof(d)));
}

static void test_inject_passes(void **state)
{
	static uint64_t buf[64] __attribute__((aligned(64)));	/* 8 lines */
	uint64_t want = 0;

	(void)state;
	for (unsigned i = 0; i < 64; i++) {
		buf[i] = i * 0x10001ull + 3;
		want += buf[i];
	}
	assert_true(inject_read_pass(buf, sizeof(buf), 0) == want);
	assert_true(inject_read_pass(buf, sizeof(buf), 7) == want);
	assert_true(inject_read_pass(buf, 0, 0) == 0);
	assert_true(inject_read_pass(buf, 64, 0) == 8 * 3 + 0x10001ull * 28);
	/* rw: the running sum after each line is written to each of its 8 qwords */
	want = 0;
	for (unsigned l = 0; l < 8; l++)
		for (unsigned i = 0; i < 8; i++)
			want += buf[l * 8 + i];
	assert_true(inject_rw_pass(buf, sizeof(buf), 3) == want);
	assert_true(buf[63] == want && buf[56] == want);
	assert_true(buf[0] == 8 * 3 + 0x10001ull * 28);
	inject_delay(1000);
	assert_int_equal(inject_line_bytes(LOADED_READ), 64);
	assert_int_equal(inject_line_bytes(LOADED_RW), 128);
}

static void test_inject_run(void **state)
{
	static uint8_t buf[2 * LOADED_CHUNK] __attribute__((aligned(64)));
	struct inject_job j = { .buf = buf, .bytes = sizeof(buf), .delay = 0, .mix = LOADED_READ,
				.bound_ticks = 1000 };

	(void)state;
	/* every read of the virtual clock is 100 ticks: t0, then one read per chunk; the bound
	 * (1000 ticks) is passed after the 11th chunk */
	vclock_reset(0, 100);
	inject_run(&j);
	assert_true(j.res.started && j.res.stopped && j.running);
	assert_int_equal(j.res.bytes, 11 * LOADED_CHUNK);
	assert_int_equal(j.res.ticks, 1100);
	j.mix = LOADED_RW;
	inject_run(&j);
	assert_int_equal(j.res.bytes, 11 * 2 * LOADED_CHUNK);	/* 64 B read + 64 B written */
	/* stopped before it began: nothing counted, no time */
	j.stop = 1;
	inject_run(&j);
	assert_int_equal(j.res.bytes, 0);
	assert_int_equal(j.res.ticks, 0);
	assert_true(j.res.stopped);
	/* calibration: 1000 iterations between two reads 100 ticks apart: 0.10 ticks each */
	vclock_reset(0, 100);
	assert_int_equal(inject_calibrate(1000), 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep),
		cmocka_unit_test(test_bandwidth),
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_model),
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_inject_passes),
		cmocka_unit_test(test_inject_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
