/*
 * loadbench_pebs.h: `loadbench --pebs`, the load kernels sampled through Linux perf and
 * printed as a pebs-kernel log (tools/loadbench_pebs.c, docs/output.md §6).
 */
#ifndef TOOLS_LOADBENCH_PEBS_H
#define TOOLS_LOADBENCH_PEBS_H

#include "tools/loadbench_args.h"

/* Run it; returns the exit status (0, 1, or LBP_NO_PMU / NO_PERM / NO_EVENT). */
int lb_pebs_main(const struct opts *o, int argc, char **argv);

#endif
