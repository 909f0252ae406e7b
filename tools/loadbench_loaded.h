/*
 * loadbench_loaded.h: `loadbench --loaded`, loaded latency under Linux, printed as a
 * pebs-kernel log (tools/loadbench_loaded.c).
 */
#ifndef TOOLS_LOADBENCH_LOADED_H
#define TOOLS_LOADBENCH_LOADED_H

#include "tools/loadbench_args.h"

/* Run it; returns the exit status (0 every verdict passed, 1 one failed). */
int lb_loaded_main(const struct opts *o, int argc, char **argv);

#endif
