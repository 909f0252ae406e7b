/*
 * loadbench_bw.c: `loadbench --bandwidth`: the bare-metal test `bandwidth`'s kernels and
 * protocol (loads/bw.c, loads/bw_sync.c, the assembly of kernel/hw_stream.c: the same source
 * files) as Linux threads, each pinned to its own CPU of this process's affinity mask. Per
 * level (working sets from CPUID's caches, loads/bw.h bw_ws) and mode: one thread (the
 * fastest of BW_REPS repetitions, as the latency sweep keeps its fastest: under Linux
 * preemption only adds time; the median beside it), then --threads N at once (leader + N-1 workers, the sum of the
 * per-thread rates). Method and caveats: docs/bandwidth.md §3. A progress line on stderr
 * when it is a terminal.
 */
#define _GNU_SOURCE
#include "tools/loadbench_bw.h"
#include "kernel/cpu.h"
#include "kernel/hw.h"
#include "loads/bw.h"
#include "loads/geometry.h"
#include "tools/lb_sweep.h"
#include "tools/loadbench_host.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define BW_REPS BW_MAX_REPS
#define MAX_THREADS 256

struct thr {
	pthread_t t;
	int cpu;
	struct bw_worker w;
	struct bw_sync *s;
	struct lb_buf buf;
};

static struct thr thr[MAX_THREADS];
static bool progress;

static void pin(int c)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(c, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *worker(void *arg)
{
	struct thr *t = arg;

	pin(t->cpu);
	bw_worker_run(&t->w, t->s);
	return NULL;
}

/* All n threads at once; the sum of their rates (GB/s x100), 0 with *ok false on failure. */
static uint64_t run_all(unsigned n, enum bw_mode m, uint64_t ws, uint64_t budget, uint64_t hz,
			bool *ok)
{
	static struct bw_sync s;
	uint64_t sum = 0;

	s = (struct bw_sync){ .wait_ticks = hz * 2 };
	*ok = true;
	for (unsigned i = 0; i < n; i++) {
		thr[i].w = (struct bw_worker){ .mode = m, .buf = thr[i].buf.base, .ws = ws };
		thr[i].s = &s;
	}
	for (unsigned i = 1; i < n; i++)
		if (pthread_create(&thr[i].t, NULL, worker, &thr[i]))
			return *ok = false, 0;
	if (bw_lead_run(&thr[0].w, &s, n - 1, budget))
		*ok = false;
	for (unsigned i = 1; i < n; i++)
		pthread_join(thr[i].t, NULL);
	for (unsigned i = 0; i < n; i++) {
		*ok &= thr[i].w.state == BW_W_DONE && thr[i].w.sum_ok;
		sum += bw_gbps_x100(thr[i].w.bytes, thr[i].w.ticks, hz);
	}
	return sum;
}

static unsigned affinity_cpus(int *cpus, unsigned max)
{
	cpu_set_t set;
	unsigned n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

static void gb(char *b, size_t n, uint64_t x100, bool ok)
{
	if (ok)
		snprintf(b, n, "%llu.%02llu", (unsigned long long)(x100 / 100),
			 (unsigned long long)(x100 % 100));
	else
		snprintf(b, n, "FAILED");
}

int lb_bw_main(const struct opts *o)
{
	static int cpus[MAX_THREADS];
	unsigned have = affinity_cpus(cpus, MAX_THREADS), n = o->threads ? o->threads : have;
	FILE *info = o->json ? stderr : stdout;
	const char *nowhy = "";
	struct cache_geometry g;
	uint64_t hz, budget, t0;
	unsigned step = 0, steps = LOAD_NLEVELS * BW_NMODES;
	bool nt = bw_nt_ok(&nowhy);

	if (!have || n > have) {
		fprintf(stderr, "loadbench: --threads %u but this process may run on %u CPUs\n", n,
			have);
		return 2;
	}
	lb_console = info;
	cpu_probe(&cpu);
	geometry_probe(&g, &cpu);
	for (unsigned i = 0; i < n; i++) {
		thr[i].cpu = cpus[i];
		if (lb_buf_map(&thr[i].buf, bw_ws(LOAD_DRAM, &g, i ? n : 1), o->huge)) {
			fprintf(stderr, "loadbench: cannot map a buffer for thread %u\n", i);
			return 1;
		}
	}
	pin(cpus[0]);
	hz = lb_tsc_hz(50);
	budget = hz / 1000 * o->budget_ms;
	fprintf(info, "# loadbench: %s\n", cpu.brand[0] ? cpu.brand : cpu.vendor_str);
	geometry_print(&g);
	fprintf(info, "# pages: %s\n", thr[0].buf.pages);
	fprintf(info, "# method: bytes counted = program bytes read + written (RFO reads of "
		"regular stores not counted); 1 thread: fastest (and median) of %u reps of whole passes in %u ms; "
		"%u threads (CPUs %d..%d): leader + workers start on one flag, each its own bytes / "
		"its own TSC ticks, summed; TSC %llu kHz; GB = 10^9 B\n", BW_REPS, o->budget_ms, n,
		cpus[0], cpus[n - 1], (unsigned long long)(hz / 1000));
	if (!o->json)
		fprintf(info, "# %-5s %-9s %10s %10s %10s %10s %10s\n", "level", "mode", "ws_1",
			"GB/s_1", "median_1", "ws_each", "GB/s_all");
	progress = isatty(2);
	t0 = rdtsc_ordered();
	for (unsigned l = 0; l < LOAD_NLEVELS; l++) {
		for (unsigned m = 0; m < BW_NMODES; m++) {
			uint64_t ws1 = bw_ws(l, &g, 1), wsn = bw_ws(l, &g, n), all = 0;
			struct bw_result r = { 0 };
			char a[24], b[24], c[32], d[32], e[32];
			bool ok1, okn = false;

			if (progress)
				fprintf(stderr, "\r\033[Kloadbench: bandwidth %u/%u, %s %s, %llu s",
					++step, steps, load_level_name(l), bw_mode_name(m),
					(unsigned long long)((rdtsc_ordered() - t0) / hz)), fflush(stderr);
			if (m == BW_WRITE_NT && !nt) {
				fprintf(info, "# %s %s: skipped: %s\n", load_level_name(l),
					bw_mode_name(m), nowhy);
				continue;
			}
			ok1 = !bw_measure(m, thr[0].buf.base, ws1, BW_REPS, budget, hz, &r) &&
			      r.sum_ok;
			if (n > 1)
				all = run_all(n, m, wsn, budget, hz, &okn);
			if (progress)		/* the row replaces the progress line */
				fprintf(stderr, "\r\033[K"), fflush(stderr);
			gb(c, sizeof(c), r.gbps_max_x100, ok1);
			gb(e, sizeof(e), r.gbps_x100, ok1);
			gb(d, sizeof(d), all, n > 1 && okn);
			if (o->json) {
				printf("{\"level\":\"%s\",\"mode\":\"%s\",\"ws_bytes\":%llu,\"gbps\":%s,"
				       "\"gbps_median\":%s,\"threads\":%u,\"ws_each_bytes\":%llu,"
				       "\"gbps_all\":%s}\n",
				       load_level_name(l), bw_mode_name(m), (unsigned long long)ws1,
				       ok1 ? c : "null", ok1 ? e : "null", n, (unsigned long long)wsn,
				       n > 1 && okn ? d : "null");
			} else {
				printf("  %-5s %-9s %10s %10s %10s %10s %10s\n", load_level_name(l),
				       bw_mode_name(m), lb_size_str(ws1, a, sizeof(a)), c, e,
				       n > 1 ? lb_size_str(wsn, b, sizeof(b)) : "-",
				       n > 1 ? d : "-");
			}
			fflush(stdout);
		}
	}
	if (progress)
		fprintf(stderr, "\r\033[K");
	fprintf(info, "# bandwidth: %u levels x %u modes, 1 and %u threads, %llu ms\n",
		LOAD_NLEVELS, BW_NMODES, n,
		(unsigned long long)((rdtsc_ordered() - t0) * 1000 / hz));
	return 0;
}
