/*
 * bw_test.c: the bandwidth arithmetic and verdicts (loads/bw.c, loads/bw_sync.c) on the
 * stream model (tests/model/stream_model.c) and the virtual clock: bytes per pass of every
 * mode (mixes read:write 1:1, 2:1, 3:1 in program bytes), GB/s from bytes, ticks and the TSC
 * rate, a measurement whose figure follows from the model's rate to the last digit, the
 * per-level ordering verdict on model data (and hierarchies with L3 well above L2, L1 well
 * below L2, DRAM as fast as L3, which must FAIL; ties within 10 % above DRAM pass), the SMBIOS peak and its bounds, the sum check (a wrong load FAILs it), and the
 * worker protocol: a leader alone, a worker that never hears go, a leader whose workers never
 * get ready (bounded, never a hang).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "loads/bw.h"
#include "kernel/hw_stream.h"
#include "platform/smbios.h"
#include "model/stream_model.h"
#include "model/vclock.h"

#define HZ 1000000000ull

static uint8_t *buf_of(uint64_t bytes)
{
	uint8_t *b = aligned_alloc(4096, bytes);

	assert_non_null(b);
	return b;
}

static void test_names(void **state)
{
	(void)state;
	for (unsigned m = 0; m < BW_NMODES; m++)
		assert_int_equal(bw_mode_parse(bw_mode_name((enum bw_mode)m)), m);
	assert_int_equal(bw_mode_parse("rw4:1"), BW_NMODES);
	assert_int_equal(bw_mode_parse("rea"), BW_NMODES);
}

static void test_layout(void **state)
{
	struct bw_layout l;

	(void)state;
	assert_int_equal(bw_layout(BW_READ, 1000, &l), 0);	/* rounded down to 256 */
	assert_int_equal(l.rd, 768);
	assert_int_equal(l.wr, 0);
	assert_int_equal(bw_layout(BW_WRITE_NT, 4096, &l), 0);
	assert_int_equal(l.rd, 0);
	assert_int_equal(l.wr, 4096);
	/* mixes: R read streams and one write stream of ws / (R + 1) */
	assert_int_equal(bw_layout(BW_MIX1, 4096, &l), 0);
	assert_int_equal(l.rd, 2048);
	assert_int_equal(l.wr, 2048);
	assert_int_equal(bw_layout(BW_MIX2, 4096, &l), 0);
	assert_int_equal(l.rd, 2 * 1344);
	assert_int_equal(l.wr, 1344);
	assert_int_equal(l.ws, 3 * 1344);
	assert_int_equal(bw_layout(BW_MIX3, 4096, &l), 0);
	assert_int_equal(l.rd, 3072);
	assert_int_equal(l.wr, 1024);
	/* too small for one iteration */
	assert_int_equal(bw_layout(BW_READ, 255, &l), -1);
	assert_int_equal(bw_layout(BW_MIX3, 255, &l), -1);
	assert_int_equal(bw_layout(BW_NMODES, 4096, &l), -1);
}

static void test_gbps(void **state)
{
	(void)state;
	assert_int_equal(bw_gbps_x100(1000000000ull, HZ, HZ), 100);		/* 1 GB in 1 s */
	assert_int_equal(bw_gbps_x100(64, 1, 3000000000ull), 19200);		/* 64 B/tick at 3 GHz */
	/* 10^12 bytes in 2.5 s at 4 GHz: the product needs 128 bits */
	assert_int_equal(bw_gbps_x100(1000000000000ull, 10000000000ull, 4000000000ull), 40000);
	assert_int_equal(bw_gbps_x100(1, 0, HZ), 0);
	assert_int_equal(bw_gbps_x100(1, 1, 0), 0);
	assert_int_equal(bw_sum_of(4096, 3), 1536);
}

static void test_measure_exact(void **state)
{
	uint8_t *b = buf_of(16384);
	struct bw_result r;

	(void)state;
	stream_model_reset();
	vclock_reset(0, 1);
	/* 16 KiB in L1 at 64 B/tick: a pass is 256 ticks; calibration 258 (two reads) -> 99
	 * passes per repetition of 128000 / 5 ticks; a repetition 99 * 256 + 1 ticks */
	assert_int_equal(bw_measure(BW_READ, b, 16384, 5, 128000, HZ, &r), 0);
	assert_int_equal(r.passes, 99);
	assert_int_equal(r.ticks_med, 25345);
	assert_int_equal(r.gbps_x100, 6399);	/* 99 * 16384 B / 25345 ns */
	assert_true(r.sum_ok);
	assert_int_equal(smod.bytes_read, (1 + 5 * 99) * 16384);

	/* 3:1 over the same 16 KiB: 12 KiB read + 4 KiB written per pass, same rate */
	stream_model_reset();
	vclock_reset(0, 1);
	assert_int_equal(bw_measure(BW_MIX3, b, 16384, 5, 128000, HZ, &r), 0);
	assert_int_equal(r.lay.rd, 12288);
	assert_int_equal(r.lay.wr, 4096);
	assert_int_equal(r.gbps_x100, 6399);
	assert_int_equal(smod.bytes_read * 1, smod.bytes_written * 3);
	assert_true(r.sum_ok);

	/* non-temporal writes go through MOVNTI's kernel, read back once */
	stream_model_reset();
	vclock_reset(0, 1);
	assert_int_equal(bw_measure(BW_WRITE_NT, b, 16384, 3, 30000, HZ, &r), 0);
	assert_int_equal(smod.nt_calls, 1 + 3 * r.passes);
	assert_true(r.sum_ok);
	free(b);
}

static void test_sum_check_fails(void **state)
{
	uint8_t *b = buf_of(16384);
	struct bw_result r;

	(void)state;
	stream_model_reset();
	vclock_reset(0, 1);
	smod.bad_sum_call = 3;		/* the second timed pass loads one wrong word */
	assert_int_equal(bw_measure(BW_MIX1, b, 16384, 3, 30000, HZ, &r), 0);
	assert_false(r.sum_ok);
	free(b);
}

/* One read figure per level on the model: L1 16 KiB, L2 128 KiB, L3 512 KiB, DRAM 4 MiB. */
static void levels(uint64_t g[LOAD_NLEVELS])
{
	static const uint64_t ws[LOAD_NLEVELS] = { 16u << 10, 128u << 10, 512u << 10, 4u << 20 };
	uint8_t *b = buf_of(ws[LOAD_DRAM]);
	struct bw_result r;

	for (unsigned l = 0; l < LOAD_NLEVELS; l++) {
		vclock_reset(0, 1);
		assert_int_equal(bw_measure(BW_READ, b, ws[l], 3, 3 * 70000, HZ, &r), 0);
		assert_true(r.sum_ok);
		g[l] = r.gbps_x100;
	}
	free(b);
}

static void test_order(void **state)
{
	uint64_t g[LOAD_NLEVELS];

	(void)state;
	stream_model_reset();
	smod.l1 = 32u << 10;
	smod.l2 = 256u << 10;
	smod.l3 = 1u << 20;
	levels(g);
	assert_true(g[0] > g[1] && g[1] > g[2] && g[2] > g[3]);
	assert_int_equal(bw_order_check(g), -1);
	assert_in_range(g[3], 790, 800);	/* 8 B/tick at 1 GHz, less the clock reads */

	/* a hierarchy no cache has: L3 25 % faster than L2 -> the verdict names L2 */
	smod.rate[2] = 40000;
	levels(g);
	assert_int_equal(bw_order_check(g), 1);
	/* L2 and L3 tied (the load ports bound both): passes; L2 at 85% of L3 fails */
	smod.rate[2] = 32000;
	levels(g);
	assert_int_equal(bw_order_check(g), -1);
	smod.rate[2] = 32000 * 100 / 85;
	levels(g);
	assert_int_equal(bw_order_check(g), 1);
	/* L1 and L2 both bound by the load ports: L1 at 91% of L2 passes, at 85% fails */
	smod.rate[2] = 16000;
	smod.rate[0] = 32000 * 91 / 100;
	levels(g);
	assert_int_equal(bw_order_check(g), -1);
	smod.rate[0] = 32000 * 85 / 100;
	levels(g);
	assert_int_equal(bw_order_check(g), 0);
	/* DRAM as fast as L3: the last step fails */
	smod.rate[0] = 64000;
	smod.rate[3] = 16000;
	levels(g);
	assert_int_equal(bw_order_check(g), 2);
}

static void test_peak(void **state)
{
	(void)state;
	assert_int_equal(bw_peak_gbps_x100(3200, 2), 5120);	/* DDR4-3200 dual channel */
	assert_int_equal(bw_peak_gbps_x100(4800, 8), 30720);	/* DDR5-4800, 8 channels */
	assert_int_equal(bw_peak_gbps_x100(0, 8), 0);
	assert_true(bw_peak_ok(1280, 5120));			/* exactly peak / 4 */
	assert_false(bw_peak_ok(1279, 5120));
	assert_true(bw_peak_ok(5632, 5120));			/* 110% */
	assert_false(bw_peak_ok(5633, 5120));
	assert_false(bw_peak_ok(1000, 0));
}

static void test_peak_smbios(void **state)
{
	struct smbios_info s = { .present = true, .speed = 3200, .channels = "AB",
				 .sockets_populated = 1 };
	unsigned mts, ch;
	char why[96];

	(void)state;
	assert_int_equal(bw_peak_smbios(&s, &mts, &ch, why, sizeof(why)), 5120);
	assert_int_equal(ch, 2);
	s.conf_speed = 2933;		/* the configured speed wins over the module's */
	assert_int_equal(bw_peak_smbios(&s, &mts, &ch, why, sizeof(why)), 2933 * 16 / 10);
	assert_int_equal(mts, 2933);
	/* two sockets, 8 channel letters each (the letters repeat per socket) */
	s = (struct smbios_info){ .present = true, .conf_speed = 4800, .channels = "ABCDEFGH",
				  .sockets_populated = 2 };
	assert_int_equal(bw_peak_smbios(&s, &mts, &ch, why, sizeof(why)), 61440);
	assert_int_equal(ch, 16);
	/* what the firmware does not tell: SKIP reasons, never a peak */
	s.mixed_speed = true;
	assert_int_equal(bw_peak_smbios(&s, &mts, &ch, why, sizeof(why)), 0);
	assert_string_equal(why, "SMBIOS type 17 gives mixed speeds");
	s = (struct smbios_info){ .present = true, .channels = "A" };	/* QEMU: speed 0 */
	assert_int_equal(bw_peak_smbios(&s, &mts, &ch, why, sizeof(why)), 0);
	assert_string_equal(why, "SMBIOS type 17 gives no speed");
	s = (struct smbios_info){ .present = true, .speed = 3200 };
	assert_int_equal(bw_peak_smbios(&s, &mts, &ch, why, sizeof(why)), 0);
	assert_string_equal(why, "SMBIOS type 17 gives no channel letters");
	s = (struct smbios_info){ .present = true };
	assert_int_equal(bw_peak_smbios(&s, &mts, &ch, why, sizeof(why)), 0);
	assert_string_equal(why, "SMBIOS type 17 gives no speed and no channel letters");
	s = (struct smbios_info){ .why = "no entry point" };
	assert_int_equal(bw_peak_smbios(&s, &mts, &ch, why, sizeof(why)), 0);
	assert_string_equal(why, "no SMBIOS tables: no entry point");
	assert_int_equal(bw_peak_smbios(NULL, &mts, &ch, why, sizeof(why)), 0);
	assert_string_equal(why, "no SMBIOS tables");
}

static void test_lead_alone(void **state)
{
	uint8_t *b = buf_of(65536);
	struct bw_sync s = { .wait_ticks = 100000 };
	struct bw_worker w = { .mode = BW_MIX2, .buf = b, .ws = 65536 };

	(void)state;
	stream_model_reset();
	vclock_reset(0, 1);
	assert_int_equal(bw_lead_run(&w, &s, 0, 10000), 0);
	assert_int_equal(w.state, BW_W_DONE);
	assert_true(s.go && s.stop);
	assert_true(w.passes >= 1);
	assert_int_equal(w.bytes, w.passes * (w.lay.rd + w.lay.wr));
	assert_true(w.ticks >= 10000);
	assert_true(w.sum_ok);
	free(b);
}

static void test_worker_paths(void **state)
{
	uint8_t *b = buf_of(65536);
	struct bw_sync s = { .wait_ticks = 5000 };
	struct bw_worker w = { .mode = BW_READ, .buf = b, .ws = 65536 };
	uint64_t reads;

	(void)state;
	stream_model_reset();
	vclock_reset(0, 1);
	/* nobody says go: the worker gives up at the bound */
	bw_worker_run(&w, &s);
	assert_int_equal(w.state, BW_W_NO_GO);
	assert_int_equal(s.ready, 1);
	assert_int_equal(w.passes, 0);
	/* go and stop already given: exactly one pass, counted */
	s = (struct bw_sync){ .wait_ticks = 5000, .go = 1, .stop = 1 };
	w.state = BW_W_IDLE;
	bw_worker_run(&w, &s);
	assert_int_equal(w.state, BW_W_DONE);
	assert_int_equal(w.passes, 1);
	assert_int_equal(w.bytes, 65536);
	assert_true(w.sum_ok);
	/* a working set too small for the mode: BAD, yet counted ready so nobody waits */
	s = (struct bw_sync){ .wait_ticks = 5000 };
	w = (struct bw_worker){ .mode = BW_MIX3, .buf = b, .ws = 100 };
	bw_worker_run(&w, &s);
	assert_int_equal(w.state, BW_W_BAD);
	assert_int_equal(s.ready, 1);
	/* a leader whose 2 workers never get ready: -1 within the bound, go and stop set */
	s = (struct bw_sync){ .wait_ticks = 5000 };
	w = (struct bw_worker){ .mode = BW_READ, .buf = b, .ws = 65536 };
	reads = vclock.reads;
	assert_int_equal(bw_lead_run(&w, &s, 2, 1000), -1);
	assert_true(vclock.reads - reads <= 5002);
	assert_int_equal(w.state, BW_W_NO_GO);
	assert_true(s.go && s.stop);
	free(b);
}

static void test_ws(void **state)
{
	struct cache_geometry g = { .l1d = { .size = 48u << 10 }, .l2 = { .size = 2u << 20 },
				    .l3 = { .size = 32u << 20 } };

	(void)state;
	/* one CPU: the load kernels' sizes */
	assert_int_equal(bw_ws(LOAD_L1, &g, 1), 24u << 10);
	assert_int_equal(bw_ws(LOAD_L3, &g, 1), load_ws(LOAD_L3, &g));
	assert_int_equal(bw_ws(LOAD_DRAM, &g, 1), 256u << 20);
	/* 8 CPUs: L1/L2 private as before, L3 shared: half of it split 8 ways, DRAM split */
	assert_int_equal(bw_ws(LOAD_L2, &g, 8), load_ws(LOAD_L2, &g));
	assert_int_equal(bw_ws(LOAD_L3, &g, 8), 2u << 20);
	assert_int_equal(bw_ws(LOAD_DRAM, &g, 8), 32u << 20);
	/* many CPUs: DRAM floor 2 MiB each, L3 at least a page */
	assert_int_equal(bw_ws(LOAD_DRAM, &g, 1000), 2u << 20);
	assert_int_equal(bw_ws(LOAD_L3, &g, 100000), 4096);
}

static void test_read_pass(void **state)
{
	uint8_t *b = buf_of(4096);

	(void)state;
	stream_model_reset();
	assert_int_equal(bw_read_pass(b, 1000), 768);
	assert_int_equal(smod.bytes_read, 768);
	assert_int_equal(bw_read_pass(b, 100), 0);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_gbps),
		cmocka_unit_test(test_measure_exact),
		cmocka_unit_test(test_sum_check_fails),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_peak),
		cmocka_unit_test(test_peak_smbios),
		cmocka_unit_test(test_lead_alone),
		cmocka_unit_test(test_worker_paths),
		cmocka_unit_test(test_ws),
		cmocka_unit_test(test_read_pass),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
