/*
 * kload_keep.h: the kernel side of chain reuse between tests (loads/chain_keep.h has the
 * rules): the kept chains, their mm_keep_buffer memory, and the checked walk of one a test
 * takes. Used by loads/kload.c only.
 */
#ifndef LOADS_KLOAD_KEEP_H
#define LOADS_KLOAD_KEEP_H

#include "loads/kload.h"

/* A new test: it walks no kept chain yet. */
void kload_keep_test_begin(void);
/* The kept chain built with p, taken into r after its checked walk (chain_verify): 1 when
 * sound (r->chain, base, walk_len, reused, build_ticks filled), -2 when it failed the walk
 * (r->why; it is never taken again), 0 when there is none. */
int kload_keep_take(struct load_run *r, const struct chain_params *p);
/* A kept buffer for r's chain where the rules allow one (r->keep), else NULL. */
uint8_t *kload_keep_buffer(const struct load_run *r);
/* r's chain was built with p in kload_keep_buffer's `buf`: record it (spoiled if its walk
 * failed). */
void kload_keep_built(const struct load_run *r, const struct chain_params *p, uint8_t *buf);
/* r's kernel is about to run over its buffer: a storing kind spoils a kept chain there. */
void kload_keep_runs(const struct load_run *r);

#endif
