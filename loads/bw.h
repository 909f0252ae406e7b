/*
 * bw.h: memory bandwidth per cache level (issue 32; docs/bandwidth.md): the modes, the
 * bytes a pass moves, the timing, GB/s, the verdicts, and the worker protocol that runs a
 * mode on several CPUs at once. Pure C over the hardware seam: the instructions are
 * kernel/hw_stream.h's, the clock rdtsc_ordered (SDM Vol. 3B 18.17); the kernel (ktests/
 * bandwidth.c, CPUs through smp_call_start) and tools/loadbench (pinned threads) compile this
 * same file, host tests link the stream model (tests/model/stream_model.c).
 *
 * Bytes counted are program bytes: what the instructions read plus what they write (a 64-byte
 * line read and a line written count 64 each). The read-for-ownership of a line a regular
 * store writes, and the write-back of that line later, are memory traffic the program does
 * not ask for and are NOT counted (docs/bandwidth.md §2): a write or mix figure is program
 * bandwidth, below what the memory bus carried. 1 GB = 10^9 bytes.
 */
#ifndef LOADS_BW_H
#define LOADS_BW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loads/plan.h"

/* BW_MIX1..3: read:write 1:1, 2:1, 3:1 (program bytes read : written). */
enum bw_mode { BW_READ, BW_WRITE, BW_WRITE_NT, BW_MIX1, BW_MIX2, BW_MIX3, BW_NMODES };

#define BW_MAX_REPS 15
#define BW_PEAK_MIN_DIV 4	/* all-core DRAM >= peak / 4 ... */
#define BW_PEAK_MAX_PCT 110	/* ... and <= 110% of peak (more: the peak's inputs are wrong) */

/* "read", "write", "write_nt", "rw1:1", "rw2:1", "rw3:1". */
const char *bw_mode_name(enum bw_mode m);
/* The mode for a name above, or BW_NMODES. */
enum bw_mode bw_mode_parse(const char *s);
/* Whether the CPU has MOVNTI (CPUID.01H:EDX.SSE2[bit 26], SDM Vol. 2A CPUID); *why if not. */
bool bw_nt_ok(const char **why);

/* Where one pass reads and writes inside a footprint of `ws` bytes: src = buf,
 * dst = buf + rd (mixes), and the program bytes per pass. */
struct bw_layout {
	uint64_t rd, wr;	/* bytes read, bytes written per pass */
	uint64_t ws;		/* footprint actually used (<= the ws asked for) */
};
/* 0, or -1 when ws is too small for one iteration of the mode. */
int bw_layout(enum bw_mode m, uint64_t ws, struct bw_layout *l);
/* Every word of the footprint = BW_FILL (untimed), what each pass then reads and writes. */
#define BW_FILL 0x0101010101010101ull
void bw_fill(uint8_t *buf, const struct bw_layout *l);
/* One pass of mode m over buf (layout l), storing `val`. Returns the sum of the words read. */
uint64_t bw_pass(enum bw_mode m, uint8_t *buf, const struct bw_layout *l, uint64_t val);
/* The sum a read of `bytes` of a buffer holding `val` in every word returns (mod 2^64). */
uint64_t bw_sum_of(uint64_t bytes, uint64_t val);

/* For load_loaded (its injectors): read [buf, buf + bytes) once with the read kernel, bytes
 * rounded down to a multiple of HW_STREAM_UNIT (256). Returns the bytes read. */
uint64_t bw_read_pass(const void *buf, uint64_t bytes);

/*
 * The footprint per CPU for level l when n CPUs (n >= 1) run at once: L1 and L2 as the load
 * kernels size them (loads/plan.h load_ws; private per core); L3, shared: load_ws for one
 * CPU, L3 / (2n) for n; DRAM: load_ws / n, at least 2 MiB (together >= 8x L3). A multiple
 * of 4 KiB, at least 4 KiB.
 */
uint64_t bw_ws(enum load_level l, const struct cache_geometry *g, unsigned n);

/* GB/s x100 for `bytes` in `ticks` at `hz` ticks per second; 0 when ticks or hz is 0. */
uint64_t bw_gbps_x100(uint64_t bytes, uint64_t ticks, uint64_t hz);

/* One mode on one CPU: fill (untimed; every word = val), one timed pass to size the
 * repetitions, `reps` timed repetitions of whole passes in `budget_ticks` together; median. */
struct bw_result {
	struct bw_layout lay;
	uint64_t passes;	/* per repetition */
	unsigned reps;
	uint64_t ticks_med, ticks_min, ticks_max;	/* per repetition */
	uint64_t gbps_x100, gbps_min_x100, gbps_max_x100;	/* median, slowest, fastest */
	bool sum_ok;		/* every read returned what the buffer holds */
};
int bw_measure(enum bw_mode m, uint8_t *buf, uint64_t ws, unsigned reps,
	       uint64_t budget_ticks, uint64_t hz, struct bw_result *r);

/*
 * Several CPUs at once: every worker fills its own buffer, says ready, waits for go (bounded),
 * runs whole passes until stop (or its own bound), and keeps its bytes and its own TSC ticks
 * from go to the end of its last pass. The leader is a worker too: it waits for every other
 * one to be ready (bounded), says go, runs its passes for the budget, says stop. The total is
 * the sum of the per-CPU rates.
 */
#define BW_GO 1		/* bw_sync.go: run */
#define BW_GO_ABORT 2	/* bw_sync.go: the lead gave up (a worker not ready, its own buffer
			 * too small): nobody runs a pass, every worker ends BW_W_NO_GO */
struct bw_sync {
	volatile uint32_t ready __attribute__((aligned(128)));
	volatile uint32_t go __attribute__((aligned(128)));	/* 0, BW_GO, BW_GO_ABORT */
	volatile uint32_t stop __attribute__((aligned(128)));
	uint64_t wait_ticks;	/* bound on every wait, and on a worker's run after go */
};
enum bw_wstate { BW_W_IDLE, BW_W_READY, BW_W_DONE, BW_W_NO_GO, BW_W_BAD };
struct bw_worker {
	enum bw_mode mode;
	uint8_t *buf;
	uint64_t ws;
	/* results */
	enum bw_wstate state;
	struct bw_layout lay;
	uint64_t passes, bytes, ticks;
	bool sum_ok;
};
void bw_worker_run(struct bw_worker *w, struct bw_sync *s);
/* 0; -1 when not every one of `others` workers became ready within the bound, or w's own
 * buffer is too small (then go is BW_GO_ABORT and stop is set: no worker runs a pass, and
 * `ready` says how many of the others were ready). A wait that passes its bound looks at
 * its flag once more before it gives up (an SMI may have stalled it past the bound). */
int bw_lead_run(struct bw_worker *w, struct bw_sync *s, unsigned others, uint64_t budget_ticks);

/*
 * The per-core ordering verdict on read GB/s x100: L3 > DRAM strictly, and L1 >= L2, L2 >= L3
 * each less BW_TIE_TOL_PCT: with 8-byte general-purpose loads the load ports (2-3 per cycle,
 * 16-24 B/cycle) can bound L1, L2 and even L3 alike where those deliver lines faster than 8
 * loads per line consume them (docs/bandwidth.md §4), so an upper level need only be no
 * slower than the next within the tolerance; DRAM is well below every cache on every core.
 * -1 when it holds, else the first level l whose figure fails against level l + 1's.
 */
#define BW_TIE_TOL_PCT 10
int bw_order_check(const uint64_t gbps_x100[LOAD_NLEVELS]);

/* Theoretical DRAM peak, GB/s x100: MT/s x 8 bytes per transfer x channels (DDR4/DDR5 64-bit
 * channel data width; JEDEC JESD79-4 / JESD79-5: a DDR5 DIMM's two 32-bit subchannels make
 * one 64-bit channel). 0 when an input is 0. */
uint64_t bw_peak_gbps_x100(unsigned mts, unsigned channels);
/* The peak from SMBIOS type 17 (platform/smbios.h; DSP0134 7.18): the configured speed (else
 * the module's) x the distinct channel letters of the locators x the populated sockets.
 * GB/s x100 with *mts and *ch, or 0 with the reason in why (no tables, no speed, no channel
 * letters, mixed speeds). */
struct smbios_info;
uint64_t bw_peak_smbios(const struct smbios_info *s, unsigned *mts, unsigned *ch, char *why,
			size_t n);
/* peak / BW_PEAK_MIN_DIV <= meas <= peak * BW_PEAK_MAX_PCT / 100. */
bool bw_peak_ok(uint64_t meas_x100, uint64_t peak_x100);

#endif
