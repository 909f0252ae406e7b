/*
 * loadbench_args.c: command-line parsing for tools/loadbench (sizes with K/M/G suffixes
 * through the kernel's cmdline_parse_u64, so both sides read numbers the same way).
 */
#include "tools/loadbench_args.h"
#include "kernel/cmdline.h"
#include "loads/chase.h"

#include <stdlib.h>
#include <string.h>

void lb_usage(FILE *f)
{
	fprintf(f, "usage: loadbench [--sizes 16K,256K,8M,256M] [--json] [--ppo N] [--reps N]\n"
		   "                 [--rounds N] [--budget-ms N] [--seed N] [--no-huge] [--max-mem SIZE]\n"
		   "       loadbench --pebs [--seed N] [--no-huge]\n"
		   "       loadbench --loaded [--pebs] [--injectors N] [--mix read|rw] [--seed N] [--no-huge]\n"
		   "       loadbench --bandwidth [--threads N] [--budget-ms N] [--json] [--no-huge]\n"
		   "  --sizes     working sets (K/M/G = 2^10/2^20/2^30), default: 16K..4x L3, cut\n"
		   "              to fit --max-mem (the cut and its reason are printed)\n"
		   "  --max-mem   all chains together at most (default 1536M; they stay resident\n"
		   "              at once); --sizes over it are refused\n"
		   "  --json      JSON Lines: size_bytes, ns_per_load, tsc_per_load, ...\n"
		   "  --ppo       sweep points per octave (1,2,4,8,16; default 4)\n"
		   "  --reps      timed repetitions per size and round, fastest kept (default 7)\n"
		   "  --rounds    interleaved rounds over all sizes, median reported (default 5)\n"
		   "  --budget-ms timed milliseconds per size (default 40)\n"
		   "  --seed      chain permutation seed (default 1)\n"
		   "  --no-huge   4 KiB pages (MADV_NOHUGEPAGE) to see the page-walk cost\n"
		   "  --pebs      the kernels load_l1..load_dram sampled by Linux perf (mem-loads,\n"
		   "              ldlat=3 / AMD ibs_op), printed as a pebs-kernel log for\n"
		   "              tools/pebs-report; exit 3 no PMU, 4 no permission, 5 no\n"
		   "              load-latency event (docs/output.md section 6)\n"
		   "  --loaded    loaded latency (ktests/load_loaded.c as pinned threads): the DRAM\n"
		   "              chase on this CPU while --injectors threads (default: one on each\n"
		   "              other allowed CPU) inject reads (--mix rw: read + write back) at a\n"
		   "              delay swept 0..idle; a pebs-kernel log; --pebs samples the probe\n"
		   "  --bandwidth GB/s per level (L1..DRAM) and mode (read, write, write_nt, rw1:1,\n"
		   "              rw2:1, rw3:1) on 1 thread and on --threads N at once (default:\n"
		   "              every CPU of the affinity mask); docs/bandwidth.md\n");
}

static bool parse_num(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
	return s && cmdline_parse_u64(s, out) && *out >= lo && *out <= hi;
}

static bool parse_sizes(char *list, struct opts *o)
{
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		uint64_t v;

		if (o->nsizes == MAX_SIZES || !parse_num(tok, 4096, 1ull << 40, &v))
			return false;
		o->sizes[o->nsizes++] = v;
	}
	return o->nsizes > 0;
}

int lb_parse_args(int argc, char **argv, struct opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t n;

		if (!strcmp(a, "--json")) {
			o->json = true;
		} else if (!strcmp(a, "--pebs")) {
			o->pebs = true;
		} else if (!strcmp(a, "--loaded")) {
			o->loaded = true;
		} else if (!strcmp(a, "--mix") && v && (!strcmp(v, "read") || !strcmp(v, "rw"))) {
			o->rw = !strcmp(v, "rw"), i++;
		} else if (!strcmp(a, "--injectors") && parse_num(v, 1, 4096, &n)) {
			o->injectors = (unsigned)n, i++;
		} else if (!strcmp(a, "--bandwidth")) {
			o->bandwidth = true;
		} else if (!strcmp(a, "--threads") && parse_num(v, 1, 256, &n)) {
			o->threads = (unsigned)n, i++;
		} else if (!strcmp(a, "--no-huge")) {
			o->huge = false;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			lb_usage(stdout);
			exit(0);
		} else if (!strcmp(a, "--sizes") && v) {
			char buf[4096];

			snprintf(buf, sizeof(buf), "%s", v);
			if (!parse_sizes(buf, o))
				return fprintf(stderr, "loadbench: bad --sizes '%s' (sizes >= 4K)\n", v), -1;
			i++;
		} else if (!strcmp(a, "--ppo") && parse_num(v, 1, 16, &n) && !(16 % n)) {
			o->ppo = (unsigned)n, i++;
		} else if (!strcmp(a, "--reps") && parse_num(v, 1, CHASE_MAX_REPS, &n)) {
			o->reps = (unsigned)n, i++;
		} else if (!strcmp(a, "--rounds") && parse_num(v, 1, MAX_ROUNDS, &n)) {
			o->rounds = (unsigned)n, i++;
		} else if (!strcmp(a, "--budget-ms") && parse_num(v, 1, 60000, &n)) {
			o->budget_ms = (unsigned)n, i++;
		} else if (!strcmp(a, "--max-mem") && parse_num(v, 1ull << 20, 1ull << 40, &n)) {
			o->max_mem = n, i++;
		} else if (!strcmp(a, "--seed") && parse_num(v, 0, UINT64_MAX, &n)) {
			o->seed = n, i++;
		} else {
			fprintf(stderr, "loadbench: bad argument '%s'%s\n", a,
				v || a[0] != '-' ? "" : " (missing value?)");
			return -1;
		}
	}
	if (o->loaded && (o->json || o->nsizes)) {
		fprintf(stderr, "loadbench: --loaded runs the delay sweep and prints a log: no "
			"--json, no --sizes\n");
		return -1;
	}
	if (!o->loaded && (o->rw || o->injectors)) {
		fprintf(stderr, "loadbench: --mix and --injectors go with --loaded\n");
		return -1;
	}
	if (o->pebs && !o->loaded && (o->json || o->nsizes)) {
		fprintf(stderr, "loadbench: --pebs runs the four level kernels and prints a log: "
			"no --json, no --sizes\n");
		return -1;
	}
	if (o->bandwidth && (o->pebs || o->nsizes)) {
		fprintf(stderr, "loadbench: --bandwidth sizes its working sets from the caches: "
			"no --pebs, no --sizes\n");
		return -1;
	}
	if (o->threads && !o->bandwidth) {
		fprintf(stderr, "loadbench: --threads goes with --bandwidth\n");
		return -1;
	}
	return 0;
}

