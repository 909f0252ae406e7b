/*
 * loadbench_pebs.h: `loadbench --pebs`, the load kernels sampled through Linux perf and
 * printed as a pebs-kernel log (tools/loadbench_pebs.c, docs/output.md §6).
 */
#ifndef TOOLS_LOADBENCH_PEBS_H
#define TOOLS_LOADBENCH_PEBS_H

#include "tools/loadbench_args.h"
#include "tools/loadbench_perf.h"

#include <stddef.h>
#include <stdint.h>

struct load_run;
struct pebs_agg;

/* Run it; returns the exit status (0, 1, or LBP_NO_PMU / NO_PERM / NO_EVENT). */
int lb_pebs_main(const struct opts *o, int argc, char **argv);

/* loadbench --loaded --pebs: can this process sample on CPU cpu_nr (LBP_OK, *why names the
 * event; else the reason), and one measurement over r's chain (r->base, r->ws; timed), no
 * baseline, nothing printed: the samples in the chain, or NULL with the reason. */
enum lbp_status lb_pebs_ready(int cpu_nr, uint64_t hz, char *why, size_t n);
const struct pebs_agg *lb_pebs_sample(const struct load_run *r, char *why, size_t n);

#endif
