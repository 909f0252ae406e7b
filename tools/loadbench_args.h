/*
 * loadbench_args.h: tools/loadbench's options and their parser (see tools/loadbench.c for
 * the interface).
 */
#ifndef TOOLS_LOADBENCH_ARGS_H
#define TOOLS_LOADBENCH_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define MAX_SIZES 256
#define MAX_ROUNDS 15

struct opts {
	uint64_t sizes[MAX_SIZES];
	unsigned nsizes, ppo, reps, rounds, budget_ms;
	uint64_t seed;
	uint64_t max_mem;	/* chains resident at once, at most (tools/lb_sweep.h) */
	bool json, huge, pebs;
	bool loaded;		/* --loaded: loaded latency (tools/loadbench_loaded.c) */
	bool rw;		/* --mix rw: the injectors read and write each line */
	unsigned injectors;	/* --injectors N: at most N (0: every other allowed CPU) */
	unsigned threads;	/* --bandwidth: threads at once (0: every CPU allowed) */
	bool bandwidth;	/* --bandwidth: GB/s per level and mode (tools/loadbench_bw.c) */
};

/* Usage text to f. */
void lb_usage(FILE *f);
/* Parse argv into o (defaults already in o); 0, or -1 after a message on stderr.
 * --help prints the usage and exits 0. */
int lb_parse_args(int argc, char **argv, struct opts *o);

#endif
