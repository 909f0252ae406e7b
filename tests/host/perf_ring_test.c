/*
 * perf_ring_test.c: tools/perf_ring.c on synthetic rings (records in order, a record and a
 * header wrapping the end, a record cut at data_head then completed, PERF_RECORD_LOST /
 * LOST_SAMPLES / THROTTLE, short samples, corrupt sizes, head too far ahead, counters near
 * 2^64, WEIGHT vs WEIGHT_STRUCT) and on a real kernel ring: tools/loadbench_perf.c opens the
 * software page-fault event (PERF_COUNT_SW_PAGE_FAULTS, one sample per fault) with the sample
 * type loadbench --pebs uses, the test faults in 256 fresh pages in a known order through a
 * one-page ring drained every 32 faults (so records straddle the ring's end), and every fault
 * must come back once, in order, with its address and thread. Where perf_event_open is
 * forbidden here, that test SKIPs with the errno.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tools/loadbench_perf.h"
#include "tools/perf_ring.h"

#define RING 256
#define ST (PR_SAMPLE_IP | PR_SAMPLE_TID | PR_SAMPLE_ADDR | PR_SAMPLE_WEIGHT_STRUCT | \
	    PR_SAMPLE_DATA_SRC)

static uint8_t ring[RING];
static uint64_t whead;		/* writer's free-running head */
static struct perf_sample got[64];
static unsigned ngot;

static void on_sample(void *ctx, const struct perf_sample *s)
{
	(void)ctx;
	if (ngot < 64)
		got[ngot++] = *s;
}

static void put(const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++, whead++)
		ring[whead & (RING - 1)] = ((const uint8_t *)p)[i];
}

static void hdr(uint32_t type, uint16_t size)
{
	uint16_t misc = 0;

	put(&type, 4);
	put(&misc, 2);
	put(&size, 2);
}

/* A sample of type ST: ip, pid/tid, addr, weight struct, data_src (8 + 40 bytes). */
static void sample(uint64_t ip, uint32_t tid, uint64_t addr, uint32_t lat, uint16_t ilat,
		   uint64_t dsrc)
{
	uint32_t pid = 7;
	uint16_t zero = 0;

	hdr(PR_RECORD_SAMPLE, 48);
	put(&ip, 8);
	put(&pid, 4);
	put(&tid, 4);
	put(&addr, 8);
	put(&lat, 4);
	put(&ilat, 2);
	put(&zero, 2);
	put(&dsrc, 8);
}

static void start(uint64_t at, struct perf_ring *r)
{
	memset(ring, 0xee, sizeof(ring));
	whead = at;
	ngot = 0;
	assert_int_equal(perf_ring_init(r, ST, on_sample, NULL), 0);
	assert_int_equal(r->sample_bytes, 40);
}

static void test_in_order(void **state)
{
	struct perf_ring r;

	(void)state;
	start(0, &r);
	for (unsigned i = 0; i < 3; i++)
		sample(0x401000 + i, 100 + i, 0x7f0000 + 64 * i, 5 + i, 2, 0x1234 + i);
	assert_int_equal(perf_ring_walk(&r, ring, RING, 0, whead), 144);
	assert_int_equal(ngot, 3);
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(got[i].ip, 0x401000 + i);
		assert_int_equal(got[i].pid, 7);
		assert_int_equal(got[i].tid, 100 + i);
		assert_int_equal(got[i].addr, 0x7f0000 + 64 * i);
		assert_int_equal(got[i].weight, 5 + i);
		assert_int_equal(got[i].weight2, 2);
		assert_int_equal(got[i].data_src, 0x1234 + i);
	}
	assert_false(r.st.cut);
	assert_null(r.err);
}

/* Records crossing the end, one of them with its header split (offsets 232 and 252). */
static void test_wraparound(void **state)
{
	struct perf_ring r;

	(void)state;
	for (uint64_t at = 200; at < 264; at += 4) {
		uint64_t t;

		start(at, &r);
		sample(1, 1, 0xa000, 10, 0, 0xaa);
		sample(2, 2, 0xb000, 20, 0, 0xbb);
		sample(3, 3, 0xc000, 30, 0, 0xcc);
		t = perf_ring_walk(&r, ring, RING, at, whead);
		assert_int_equal(t, whead);
		assert_int_equal(ngot, 3);
		assert_int_equal(got[1].addr, 0xb000);
		assert_int_equal(got[2].weight, 30);
		assert_int_equal(got[2].data_src, 0xcc);
	}
}

/* The counters are free-running u64: a walk across 2^64 works. */
static void test_counter_wrap(void **state)
{
	struct perf_ring r;
	uint64_t at = UINT64_MAX - 20;

	(void)state;
	start(at, &r);
	sample(9, 9, 0x9000, 9, 0, 9);
	assert_int_equal(perf_ring_walk(&r, ring, RING, at, whead), whead);
	assert_int_equal(ngot, 1);
	assert_int_equal(got[0].addr, 0x9000);
}

/* data_head inside a record (the writer has not finished it): it stays for the next walk. */
static void test_cut_then_complete(void **state)
{
	struct perf_ring r;
	uint64_t t;

	(void)state;
	start(0, &r);
	sample(1, 1, 0x1000, 4, 0, 1);
	sample(2, 2, 0x2000, 4, 0, 2);
	t = perf_ring_walk(&r, ring, RING, 0, 48 + 20);
	assert_int_equal(t, 48);
	assert_true(r.st.cut);
	assert_int_equal(ngot, 1);
	t = perf_ring_walk(&r, ring, RING, 0 + t, 48 + 5);	/* not even a header */
	assert_int_equal(t, 48);
	assert_true(r.st.cut);
	t = perf_ring_walk(&r, ring, RING, t, whead);
	assert_int_equal(t, 96);
	assert_false(r.st.cut);
	assert_int_equal(ngot, 2);
	assert_int_equal(got[1].addr, 0x2000);
}

static void test_lost_throttle_other(void **state)
{
	struct perf_ring r;
	uint64_t id = 1, lost = 17, lost2 = 5, x = 0;

	(void)state;
	start(0, &r);
	sample(1, 1, 0x1000, 4, 0, 1);
	hdr(PR_RECORD_LOST, 24);
	put(&id, 8);
	put(&lost, 8);
	hdr(PR_RECORD_LOST_SAMPLES, 16);
	put(&lost2, 8);
	hdr(PR_RECORD_THROTTLE, 32);
	put(&x, 8), put(&x, 8), put(&x, 8);
	hdr(PR_RECORD_UNTHROTTLE, 32);
	put(&x, 8), put(&x, 8), put(&x, 8);
	hdr(3 /* PERF_RECORD_COMM */, 16);
	put(&x, 8);
	sample(2, 2, 0x2000, 4, 0, 2);
	assert_int_equal(perf_ring_walk(&r, ring, RING, 0, whead), whead);
	assert_int_equal(ngot, 2);
	assert_int_equal(r.st.lost_records, 1);
	assert_int_equal(r.st.lost, 17);
	assert_int_equal(r.st.lost_samples, 5);
	assert_int_equal(r.st.throttle, 1);
	assert_int_equal(r.st.unthrottle, 1);
	assert_int_equal(r.st.other, 1);
	assert_int_equal(r.st.records, 7);
}

static void test_short_and_corrupt(void **state)
{
	struct perf_ring r;
	uint64_t x = 0;

	(void)state;
	start(0, &r);
	hdr(PR_RECORD_SAMPLE, 24);	/* 16 bytes of body, 40 needed */
	put(&x, 8), put(&x, 8);
	sample(2, 2, 0x2000, 4, 0, 2);
	assert_int_equal(perf_ring_walk(&r, ring, RING, 0, whead), whead);
	assert_int_equal(r.st.short_samples, 1);
	assert_int_equal(ngot, 1);

	for (uint16_t bad = 0; bad < 8; bad++) {	/* sizes 0..7, and 12 below */
		start(0, &r);
		hdr(PR_RECORD_SAMPLE, bad);
		put(&x, 8);
		assert_int_equal(perf_ring_walk(&r, ring, RING, 0, whead), whead);
		assert_non_null(r.err);
		/* once corrupt, later walks consume everything and report nothing */
		sample(1, 1, 1, 1, 0, 1);
		assert_int_equal(perf_ring_walk(&r, ring, RING, 16, whead), whead);
		assert_int_equal(ngot, 0);
	}
	start(0, &r);
	hdr(PR_RECORD_SAMPLE, 12);
	put(&x, 8);
	perf_ring_walk(&r, ring, RING, 0, whead);
	assert_non_null(r.err);

	start(0, &r);
	assert_int_equal(perf_ring_walk(&r, ring, RING, 0, RING + 8), RING + 8);
	assert_non_null(strstr(r.err, "ahead"));
	start(0, &r);
	perf_ring_walk(&r, ring, 200, 0, 8);
	assert_non_null(strstr(r.err, "power of two"));
}

static void test_sample_types(void **state)
{
	struct perf_ring r;
	struct perf_sample s;
	uint8_t body[96];
	uint64_t v[12];

	(void)state;
	assert_int_equal(perf_ring_init(&r, ST | (1ull << 5) /* CALLCHAIN */, NULL, NULL), -1);
	assert_non_null(r.err);
	assert_int_equal(perf_ring_init(&r, PR_SAMPLE_WEIGHT | PR_SAMPLE_WEIGHT_STRUCT, NULL, NULL),
			 -1);
	/* every supported field, in perf_event.h order */
	assert_int_equal(perf_ring_init(&r, PR_SAMPLE_IDENTIFIER | PR_SAMPLE_IP | PR_SAMPLE_TID |
					PR_SAMPLE_TIME | PR_SAMPLE_ADDR | PR_SAMPLE_ID |
					PR_SAMPLE_STREAM_ID | PR_SAMPLE_CPU | PR_SAMPLE_PERIOD |
					PR_SAMPLE_WEIGHT | PR_SAMPLE_DATA_SRC, NULL, NULL), 0);
	assert_int_equal(r.sample_bytes, 88);
	for (unsigned i = 0; i < 11; i++)
		v[i] = 0x1000 + i;
	v[2] = (uint64_t)33 << 32 | 22;		/* pid 22, tid 33 */
	v[7] = 5;				/* cpu 5, res 0 */
	memcpy(body, v, 88);
	assert_int_equal(perf_ring_parse_sample(&r, body, 87, &s), -1);
	assert_int_equal(perf_ring_parse_sample(&r, body, 88, &s), 0);
	assert_int_equal(s.ip, 0x1001);
	assert_int_equal(s.pid, 22);
	assert_int_equal(s.tid, 33);
	assert_int_equal(s.time, 0x1003);
	assert_int_equal(s.addr, 0x1004);
	assert_int_equal(s.id, 0x1005);		/* PERF_SAMPLE_ID after IDENTIFIER: same id */
	assert_int_equal(s.stream_id, 0x1006);
	assert_int_equal(s.cpu, 5);
	assert_int_equal(s.period, 0x1008);
	assert_int_equal(s.weight, 0x1009);
	assert_int_equal(s.data_src, 0x100a);
}

/* The real ring, with a software event. */
static struct { uintptr_t lo, hi; unsigned n, order_bad, tid_bad; uintptr_t next; int tid; } pf;

static void on_fault(void *ctx, const struct perf_sample *s)
{
	(void)ctx;
	if (s->addr < pf.lo || s->addr >= pf.hi)
		return;		/* another fault of this process (sanitizer shadow, stack) */
	pf.order_bad += s->addr != pf.next;
	pf.tid_bad += (int)s->tid != pf.tid;
	pf.next = s->addr + 4096;
	pf.n++;
}

static void test_software_event_ring(void **state)
{
	const unsigned pages = 256;
	struct lb_perf e;
	uint8_t *buf;
	int err;

	(void)state;
	err = lbp_open_raw(&e, 1 /* PERF_TYPE_SOFTWARE */, 2 /* PERF_COUNT_SW_PAGE_FAULTS */, 1,
			   ST, 0, on_fault, NULL);
	if (err == EINVAL)	/* kernels before 5.12 have no WEIGHT_STRUCT */
		err = lbp_open_raw(&e, 1, 2, 1, (ST & ~PR_SAMPLE_WEIGHT_STRUCT) | PR_SAMPLE_WEIGHT,
				   0, on_fault, NULL);
	if (err) {
		print_message("# SKIP perf_event_open(PERF_COUNT_SW_PAGE_FAULTS) here: %s\n",
			      strerror(err));
		lbp_close(&e);
		skip();
	}
	buf = mmap(NULL, pages * 4096ul, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(buf != MAP_FAILED);
	madvise(buf, pages * 4096ul, MADV_NOHUGEPAGE);
	assert_int_equal(e.data_size, (uint64_t)sysconf(_SC_PAGESIZE));
	pf.lo = (uintptr_t)buf;
	pf.hi = pf.lo + pages * 4096ul;
	pf.next = pf.lo + 8;
	pf.tid = gettid();
	lbp_enable(&e, true);
	for (unsigned i = 0; i < pages; i++) {
		((volatile uint8_t *)buf)[i * 4096ul + 8] = 1;	/* one fault, address page+8 */
		if (i % 32 == 31)
			lbp_drain(&e);
	}
	lbp_enable(&e, false);
	lbp_drain(&e);
	assert_null(e.ring.err);
	assert_int_equal(pf.n, pages);
	assert_int_equal(pf.order_bad, 0);
	assert_int_equal(pf.tid_bad, 0);
	assert_int_equal(e.ring.st.lost, 0);
	assert_int_equal(e.ring.st.short_samples, 0);
	assert_false(e.ring.st.cut);
	/* the ring wrapped: more bytes went through it than it holds */
	assert_true(e.ring.st.samples * 48 > e.data_size);
	lbp_close(&e);
	munmap(buf, pages * 4096ul);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_order),
		cmocka_unit_test(test_wraparound),
		cmocka_unit_test(test_counter_wrap),
		cmocka_unit_test(test_cut_then_complete),
		cmocka_unit_test(test_lost_throttle_other),
		cmocka_unit_test(test_short_and_corrupt),
		cmocka_unit_test(test_sample_types),
		cmocka_unit_test(test_software_event_ring),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
