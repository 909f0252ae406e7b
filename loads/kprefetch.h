/*
 * kprefetch.h: `prefetch=off|on` for a kernel test (kernel/prefetch.h per CPU): the state is
 * set on the boot CPU and on every application processor the test uses (smp_call_start),
 * one '#' line says what was done where or why not, and the end restores every CPU's MSR and
 * judges that as the subtest `prefetch_restored`. Without the option nothing is touched and
 * nothing printed. Used by ktests/bandwidth.c, load.c (load_l1..load_dram) and load_loaded.c.
 */
#ifndef LOADS_KPREFETCH_H
#define LOADS_KPREFETCH_H

#include <stdbool.h>

#include "kernel/ktap.h"

/* use(i): whether AP i runs in this test. */
void kprefetch_begin(struct ktest *t, const char *name, bool (*use)(unsigned cpu));
void kprefetch_end(struct ktest *t, const char *name);

#endif
