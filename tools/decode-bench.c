/*
 * decode-bench: host throughput of the PEBS decode path used by the kernel's PMI drain
 * (pebs/record.c walk + fields, pebs/datasrc.c data source, pebs/aggregate.c per-level
 * table) on one core, next to memcpy of the same buffer in the same run. Two buffers: legacy
 * format 3 (Skylake, 200 B records) and adaptive format 5 with the memory-info group
 * (Alder Lake P-core, 64 B records, split latency word). Floating point is used for printing
 * only (host tool).
 *
 *   decode-bench [--bytes N] [--seconds S]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pebs/aggregate.h"
#include "pebs/datasrc.h"
#include "pebs/record.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
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
		struct pebs_basic b = { (uint64_t)sz << 48 | PEBS_GRP_MEMINFO, 0x401000 + i, 2,
					1000 + i * 100 };
		struct pebs_meminfo m = { 0x7f0000000000ull + i * 64, (next() & 0xff),
					  (4 + next() % 600) << 32 | (next() & 0xffff), 0 };

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

static void bench(const char *name, const uint8_t *buf, size_t len, unsigned fmt,
		  const struct pebs_model *m, double seconds)
{
	uint8_t *dst = malloc(len);
	uint64_t recs = 0, iters = 0;
	double t0, dt_dec, dt_cpy;

	pebs_agg_init(&agg);
	decode_once(buf, len, fmt, m);	/* warm */
	t0 = now();
	do {
		recs += decode_once(buf, len, fmt, m);
		iters++;
	} while ((dt_dec = now() - t0) < seconds);
	double dec_bps = (double)iters * (double)len / dt_dec;
	double dec_rps = (double)recs / dt_dec;

	uint64_t citers = 0;

	memcpy(dst, buf, len);
	t0 = now();
	do {
		memcpy(dst, buf, len);
		__asm__ volatile("" : : "r"(dst) : "memory");
		citers++;
	} while ((dt_cpy = now() - t0) < seconds);
	double cpy_bps = (double)citers * (double)len / dt_cpy;

	uint64_t errors = agg.errors, total = 0;

	for (unsigned i = 0; i < PEBS_LVL_COUNT; i++)
		total += agg.lvl[i].count;
	printf("%-28s buffer %7zu B  decode %10.0f rec/s %8.1f MB/s  memcpy %8.1f MB/s  "
	       "ratio %.2f  (%llu records aggregated, %llu errors, p50 L1 %llu)\n",
	       name, len, dec_rps, dec_bps / 1e6, cpy_bps / 1e6, dec_bps / cpy_bps,
	       (unsigned long long)total, (unsigned long long)errors,
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
