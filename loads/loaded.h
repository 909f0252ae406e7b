/*
 * loaded.h: the arithmetic and verdicts of test load_loaded (loaded latency, issue 32), pure:
 * the delay sweep of the injectors (0 = as fast as they can, then longer delays, the last step
 * idle: no injection, as Intel MLC's --loaded_latency sweeps its injection delay), the injected
 * bandwidth from each injector's own bytes and TSC ticks, one step's probe figures (timed
 * latency; p50/p99 and data-source shares of its PEBS/IBS samples, sample/aggregate.h), the
 * one line a step prints, and the verdicts on the curve: monotone within noise, the idle step
 * equal to load_dram within the noise floor, every sample accounted for in a data source.
 * The same file runs in the kernel (ktests/load_loaded.c), loadbench --loaded and model-log.
 * Timing: TSC (SDM Vol. 3B 18.17 "Time-Stamp Counter"); data sources: SDM Vol. 3B 20.3.1.1.2
 * "Load Latency Performance Monitoring Facility" and AMD APM Vol. 2 "Instruction-Based Sampling".
 */
#ifndef LOADS_LOADED_H
#define LOADS_LOADED_H

#include <stdbool.h>
#include <stdint.h>

#include "sample/aggregate.h"

#define LOADED_MAX_STEPS 16u
#define LOADED_IDLE UINT64_MAX	/* the delay of the idle step: injectors stopped */
#define LOADED_NOISE_PCT 5u	/* monotone: a lighter-loaded step may time this much above the
				 * heavier one before it (loads/steady.h STEADY_TOL_PCT is 3 %), or
				 * the steps' own noise where larger, up to LOADED_NOISE_MAX_PCT */
#define LOADED_NOISE_MAX_PCT 25u
#define LOADED_FLOOR_PCT 5u	/* the idle step vs load_dram: at least this far apart fails */
#define LOADED_CHUNK (64u << 10)	/* bytes an injector reads between two looks at `stop` */

/* The injected traffic: every line read (8 loads of 8 bytes), or read then written whole (8
 * stores; the store finds the line already filled by the reads, so no extra RFO read: 64 B
 * read + 64 B written back per line). */
enum loaded_mix { LOADED_READ, LOADED_RW };

/* The sweep: delays in delay-loop iterations (loads/inject.h), heaviest first, the last
 * LOADED_IDLE. Returns the number of steps stored (at most max; >= 8 for max >= 8). */
unsigned loaded_sweep(uint64_t *delay, unsigned max);

/* MB/s (1 MB = 1e6 bytes; printed as GB/s with 3 decimals) of `bytes` in `ticks` TSC ticks
 * at hz; 0 when any is 0. 64-bit only (no 128-bit division in the kernel): exact to 1e-6 of
 * a byte per tick. */
uint64_t loaded_mbps(uint64_t bytes, uint64_t ticks, uint64_t hz);

/* What one injector measured in one step, on its own TSC. */
struct loaded_inj {
	uint64_t bytes;		/* bytes of whole chunks it finished (reads + writes) */
	uint64_t ticks;		/* TSC ticks from its first chunk's start to its last chunk's end */
	bool started, stopped;
};
/* The step's injected bandwidth: the sum of each injector's own rate, MB/s. */
uint64_t loaded_total_mbps(const struct loaded_inj *in, unsigned n, uint64_t hz);

/* One step of the curve. */
struct loaded_point {
	uint64_t delay;		/* LOADED_IDLE: no injection */
	uint64_t mbps;		/* injected, all injectors, MB/s */
	uint64_t ns_x100;	/* the probe's timed latency per load */
	uint64_t core_x100;	/* core cycles per load, 0: no core clock */
	unsigned noise_pct;	/* the timing's own noise: median over fastest repetition - 100
				 * (preemption and interrupts only add time: loads/chase.h) */
	/* the sampler's (sampled false: it did not run; why) */
	bool sampled;
	uint64_t records, unaccounted;	/* unaccounted: errors + samples of level NA */
	uint64_t p50, p99;		/* over every sample with a latency, core cycles */
	uint16_t share_x10[16];		/* per level (sample/dsrc.h), permille of records */
};

/* p50, p99, shares and the accounting from a step's aggregate. */
void loaded_point_samples(struct loaded_point *p, const struct pebs_agg *a);

/* The step's line (no "# " prefix), e.g. "load_loaded: step 3 delay=50 bw=12.345GB/s
 * lat=95.12ns core=210.00 p50=200 p99=450 n=1234 src RAM=97.0,L3=3.0". */
void loaded_line(char *b, unsigned n, const char *name, unsigned step,
		 const struct loaded_point *p);

/* A step's noise_pct from its timed repetitions (TSC x100 per load, median and fastest). */
unsigned loaded_noise_pct(uint64_t med_x100, uint64_t min_x100);
/* The verdicts (true: pass), the figures that decided in d. Monotone: from each step to the
 * next (lighter load) the latency does not rise by more than noise_pct, or the larger of the
 * two steps' own noise (at most LOADED_NOISE_MAX_PCT). */
bool loaded_monotone(const struct loaded_point *pt, unsigned n, unsigned noise_pct, char *d,
		     unsigned dn);
/* The idle step vs load_dram (ns x100): within floor_pct of it. */
bool loaded_idle_ok(const struct loaded_point *idle, uint64_t dram_ns_x100, unsigned floor_pct,
		    char *d, unsigned dn);
/* Every sampled step: no sample unaccounted and at least one record. */
bool loaded_accounted(const struct loaded_point *pt, unsigned n, char *d, unsigned dn);

/* load_loaded's five subtests of t over the n steps (loads/loaded_judge.c; the kernel,
 * loadbench and model-log judge alike): injectors_ran (`short_steps` of the n - 1 loaded
 * steps had an injector not start, stop or count), steps_printed, samples_accounted (SKIP with
 * no_samples when the sampler did not run), curve_monotone and idle_is_dram (SKIP with
 * no_timing where timing is not judged; the idle step against load_dram's ns x100). */
struct ktest;
void loaded_judge(struct ktest *t, const struct loaded_point *pt, unsigned n, unsigned ninj,
		  unsigned short_steps, unsigned printed, const char *no_samples,
		  const char *no_timing, uint64_t dram_ns_x100);

#endif
