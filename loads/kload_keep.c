/*
 * kload_keep.c: chains kept between load tests (see kload_keep.h). Their memory comes from
 * mm_keep_buffer, which the test runner's per-test release (ktests/run.c) leaves alone;
 * keep_decide (loads/chain_keep.c) bounds it, and replacing the kept set returns all of it.
 */
#include "loads/kload_keep.h"
#include "kernel/tsc.h"
#include "loads/chain_keep.h"

static struct keep_set kept;
static bool in_use;	/* the running test walks a kept chain: never replaced under it */

void kload_keep_test_begin(void)
{
	in_use = false;
}

int kload_keep_take(struct load_run *r, const struct chain_params *p)
{
	int k = r->phys_hi || r->ps != PS_2M ? -1 : keep_find(&kept, p);
	struct chain_check ck;
	uint64_t t0 = rdtsc();

	if (k < 0)
		return 0;
	in_use = true;
	r->base = (uint8_t *)kept.e[k].base;
	r->chain = kept.e[k].chain;
	r->reused = kept.e[k].by;
	chain_verify(&r->chain, r->base, p, &ck);
	r->walk_len = ck.walk;
	r->chain.near_left = ck.near_left;	/* as found in memory */
	r->chain.page_left = ck.page_left;
	r->build_ticks = rdtsc() - t0;
	if (ck.walk == r->chain.nodes)
		return 1;
	kept.e[k].spoiled = true;
	r->why = ck.stray ? "the kept chain has a link outside its working set"
		: "the kept chain is no longer one cycle through every node";
	return -2;
}

static uint64_t round_2m(uint64_t bytes)
{
	return (bytes + PAGE_2M - 1) & ~(PAGE_2M - 1);
}

uint8_t *kload_keep_buffer(const struct load_run *r)
{
	uint64_t bytes = round_2m(r->ws);
	enum keep_act act = keep_decide(&kept, bytes, r->keep && !r->phys_hi && r->ps == PS_2M,
					pmm_free_bytes(), in_use);

	if (act == KEEP_REPLACE) {
		mm_keep_drop();
		keep_clear(&kept);
	}
	return act == KEEP_NO ? NULL : mm_keep_buffer(bytes, PS_2M);
}

void kload_keep_built(const struct load_run *r, const struct chain_params *p, uint8_t *buf)
{
	keep_add(&kept, p, &r->chain, (uintptr_t)buf, round_2m(r->ws), r->name);
	if (r->walk_len != r->chain.nodes)
		keep_spoil(&kept, (uintptr_t)buf);
	in_use = true;
}

void kload_keep_runs(const struct load_run *r)
{
	if (keep_kind_writes(r->kind))		/* never reused after a store kernel */
		keep_spoil(&kept, (uintptr_t)r->base);
}
