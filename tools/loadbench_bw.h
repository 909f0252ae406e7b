/*
 * loadbench_bw.h: `loadbench --bandwidth` (tools/loadbench_bw.c): per-level GB/s of the
 * bandwidth kernels (loads/bw.h) on one pinned thread and on --threads N at once.
 */
#ifndef TOOLS_LOADBENCH_BW_H
#define TOOLS_LOADBENCH_BW_H

#include "tools/loadbench_args.h"

/* Runs the modes over the levels, prints the table; the exit status. */
int lb_bw_main(const struct opts *o);

#endif
