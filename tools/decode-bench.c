/*
 * decode-bench: host throughput of the PEBS decode path used by the kernel's PMI drain
 * (pebs/record.c walk + fields, pebs/datasrc.c data source, sample/aggregate.c per-level
 * table) on one core, next to memcpy of the same buffer in the same run. Two buffers: legacy
 * format 3 (Skylake, 200 B records) and adaptive format 5 with the memory-info group
 * (Alder Lake P-core, 64 B records, split latency word). Two decode paths are timed: the
 * per-record one (pebs_walk_next + pebs_dsrc_decode + pebs_agg_add, what a raw-record dump
 * does) and the one-pass buffer path the PMI drain uses (pebs_aggbuf_add). Time is thread
 * CPU time. Floating point is used for printing only (host tool).
 *
 *   decode-bench [--bytes N] [--seconds S]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pebs/aggbuf.h"
#include "sample/aggregate.h"
#include "pebs/datasrc.h"
#include "pebs/record.h"

static double now(void)
{
	struct timespec ts;

	/* CPU time of this thread: the machine is shared, wall time would count preemption */
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng = 0x2545F4914F6CDD1Dull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A mixed workload: codes spread over the table, latencies 4..~600 cycles. */
static size_t fill_legacy(uint8_t *buf, size_t bytes)
{
	size_t n = bytes / PEBS_FMT3_SIZE;

	for (size_t i = 0; i < n; i++) {
		struct pebs_legacy_rec r = { 0 };

		r.rip = 0x401000 + i;
		r.status = 1;
		r.dla = 0x7f0000000000ull + i * 64;
		r.dse = (next() & 0xf) | (next() & 0x30);
		r.lat = 4 + next() % 600;
		r.real_ip = r.rip - 3;
		r.tsc = 1000 + i * 100;
		memcpy(buf + i * PEBS_FMT3_SIZE, &r, PEBS_FMT3_SIZE);
	}
	return n * PEBS_FMT3_SIZE;
}

static size_t fill_adaptive(uint8_t *buf, size_t bytes)
{
	const size_t sz = sizeof(struct pebs_basic) + sizeof(struct pebs_meminfo);
	size_t n = bytes / sz;

	for (size_t i = 0; i < n; i++) {
		struct pebs_basic b = {
			.format_size = (uint64_t)sz << 48 | PEBS_GRP_MEMINFO,
			.ip = 0x401000 + i, .applicable_counters = 2, .tsc = 1000 + i * 100,
		};
		struct pebs_meminfo m = { .address = 0x7f0000000000ull + i * 64 };

		m.aux = next() & 0xff;	/* one statement per next(): a defined call order */
		m.latency = (4 + next() % 600) << 32;
		m.latency |= next() & 0xffff;

		memcpy(buf + i * sz, &b, sizeof(b));
		memcpy(buf + i * sz + sizeof(b), &m, sizeof(m));
	}
	return n * sz;
}

static struct pebs_agg agg;

static uint64_t decode_once(const uint8_t *buf, size_t len, unsigned fmt,
			    const struct pebs_model *m)
{
	struct pebs_walker w;
	struct pebs_record r;
	struct pebs_dsrc d;
	uint64_t n = 0;

	pebs_walk_init(&w, buf, len, fmt, m->split_latency ? PEBS_WALK_SPLIT_LATENCY : 0);
	while (pebs_walk_next(&w, &r)) {
		pebs_dsrc_decode(m, PEBS_EV_LOAD, r.aux, &d);
		pebs_agg_add(&agg, &r, &d);
		n++;
	}
	return n;
}

static struct pebs_aggbuf_ctx ctx;

/* Run fn over the buffer for `seconds` of CPU time; returns bytes/s and records/s. */
static void timed(int path, const uint8_t *buf, size_t len, unsigned fmt,
		  const struct pebs_model *m, double seconds, double *bps, double *rps)
{
	uint64_t recs = 0, iters = 0;
	double t0 = now(), dt;

	do {
		if (path == 0)
			recs += decode_once(buf, len, fmt, m);
		else
			recs += pebs_aggbuf_add(&ctx, &agg, buf, len);
		iters++;
	} while ((dt = now() - t0) < seconds);
	*bps = (double)iters * (double)len / dt;
	*rps = (double)recs / dt;
}

static void bench(const char *name, const uint8_t *buf, size_t len, unsigned fmt,
		  const struct pebs_model *m, double seconds)
{
	uint8_t *dst = malloc(len);
	double rec_bps, rec_rps, buf_bps, buf_rps, t0, dt_cpy;
	uint64_t citers = 0;

	if (dst == NULL || pebs_aggbuf_init(&ctx, m, PEBS_EV_LOAD, fmt,
					    m->split_latency ? PEBS_WALK_SPLIT_LATENCY : 0)) {
		fprintf(stderr, "decode-bench: setup failed\n");
		exit(2);
	}
	pebs_agg_init(&agg);
	decode_once(buf, len, fmt, m);	/* warm */
	timed(0, buf, len, fmt, m, seconds, &rec_bps, &rec_rps);
	timed(1, buf, len, fmt, m, seconds, &buf_bps, &buf_rps);

	memcpy(dst, buf, len);
	t0 = now();
	do {
		memcpy(dst, buf, len);
		__asm__ volatile("" : : "r"(dst) : "memory");
		citers++;
	} while ((dt_cpy = now() - t0) < seconds);
	double cpy_bps = (double)citers * (double)len / dt_cpy;

	printf("%-30s %8zu B  memcpy %8.1f MB/s\n", name, len, cpy_bps / 1e6);
	printf("  per-record path  %11.0f rec/s %8.1f MB/s  ratio %.2f\n", rec_rps,
	       rec_bps / 1e6, rec_bps / cpy_bps);
	printf("  buffer path      %11.0f rec/s %8.1f MB/s  ratio %.2f  %s\n", buf_rps,
	       buf_bps / 1e6, buf_bps / cpy_bps, buf_bps * 4 >= cpy_bps ? "(>= 1/4: ok)" :
	       "(< 1/4 of memcpy: target missed)");
	printf("  aggregated %llu records, %llu errors, L1 p50 %llu\n",
	       (unsigned long long)agg.records, (unsigned long long)agg.errors,
	       (unsigned long long)pebs_agg_percentile(&agg.lvl[PEBS_LVL_L1], 500));
	free(dst);
}

int main(int argc, char **argv)
{
	size_t bytes = 1u << 20;
	double seconds = 0.5;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--bytes"))
			bytes = strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--seconds"))
			seconds = strtod(argv[i + 1], NULL);
	}
	if (bytes < 256 || bytes > (1u << 30) || !(seconds > 0)) {
		fprintf(stderr, "decode-bench: bad --bytes/--seconds\n");
		return 2;
	}
	uint8_t *buf = malloc(bytes);
	const struct pebs_model *skl = pebs_model_lookup(6, 0x5E, PEBS_CORE_ANY);
	const struct pebs_model *adl = pebs_model_lookup(6, 0x97, PEBS_CORE_P);

	if (!buf || !skl || !adl)
		return 2;
	size_t len = fill_legacy(buf, bytes);

	bench("legacy fmt3 (06_5E, 200 B)", buf, len, 3, skl, seconds);
	len = fill_adaptive(buf, bytes);
	bench("adaptive fmt5+meminfo (64 B)", buf, len, 5, adl, seconds);
	free(buf);
	return 0;
}
