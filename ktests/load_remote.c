/*
 * load_remote.c: test load_remote (issue 15): the DRAM-sized pointer chase run by the boot
 * CPU over memory of its own NUMA node, then over memory of another node, both taken from
 * the node's ACPI SRAT Memory Affinity range (ACPI 6.5 §5.2.16.2, platform/numa.h) and timed
 * like every load kernel (docs/output.md §3: `time` lines with ns, TSC and core cycles).
 * SKIPs with the reason where there is one node (no SRAT, or one domain) or the boot CPU's
 * APIC id is not in the SRAT. Subtests:
 *   buffer_on_node     both buffers translate (live page tables) to one physical block
 *                      whose every byte the SRAT puts on the intended node
 *   remote_over_local  remote ns/load >= REMOTE_MARGIN_PCT of local; SKIP where timing is
 *                      not judged (software emulation)
 *   pebs_source, pebs_remote  the PEBS step on the remote chain: DRAM dominant, and the
 *                      remote-DRAM / remote-cache codes of the model's table (loads/pv_xsrc.h)
 *                      at least half the records; SKIP with the reason without PEBS
 *   chain_cycle, chain_placement  as every load kernel
 */
#include "ktests/tests.h"
#include "apic/apic.h"
#include "platform/platform.h"
#include "loads/kload.h"

#define X100(v) (unsigned long long)((v) / 100), (unsigned long long)((v) % 100)

/* The SLIT's distance is relative latency (10 = local, 21 = 2.1x); a chase over the other
 * node's memory still finds part of its lines in the local L3, so the measured ratio sits
 * below the SLIT's. 110 % is a floor under any two-node ratio with a distance above 10. */
#define REMOTE_MARGIN_PCT 110

/* Build and time r over the memory of `node`, trying its SRAT ranges in turn. */
static int run_on(struct load_run *r, unsigned node)
{
	uint64_t lo, hi;
	int rc = -1;

	r->why = "the SRAT gives the node no memory range";
	for (unsigned i = 0; rc == -1 && numa_node_range(&numa, node, i, &lo, &hi); i++) {
		if (hi - lo < r->ws)	/* cannot hold it (e.g. the 640 KiB below 1 MiB) */
			continue;
		r->phys_lo = lo;
		r->phys_hi = hi;
		rc = load_run(r);
	}
	return rc;
}

/* Node of the physical bytes behind the buffer (one block from pmm_take_in: its last byte
 * must translate to first + bytes - 1); -1 if not contiguous, unmapped or not on one node. */
static int node_of_buffer(const struct load_run *r)
{
	uint64_t a = mm_phys_of((uint64_t)(uintptr_t)r->base);
	uint64_t b = mm_phys_of((uint64_t)(uintptr_t)r->base + r->chain.bytes - 1);

	if (a == ~0ull || b != a + r->chain.bytes - 1)
		return -1;
	return numa_node_of_range(&numa, a, r->chain.bytes);
}

static int other_node(unsigned here)
{
	for (unsigned k = 1; k < numa_nodes(&numa); k++) {
		unsigned n = (here + k) % numa_nodes(&numa);

		if (numa_node_bytes(&numa, n))
			return (int)n;
	}
	return -1;
}

enum kt_result test_load_remote(struct ktest *t)
{
	const char *note, *emu = kload_timing_unjudgeable();
	uint32_t id = apic_id();
	int here = numa_node_of_apic(&numa, id), there, on_l, on_r;
	uint64_t ws;
	struct load_run loc = { .name = "load_remote/local", .kind = CHASE_LOAD, .ps = PS_2M,
				.stride = 64 };
	struct load_run rem;

	if (!numa.have_srat)
		return kt_skip(t, "one NUMA node: no ACPI SRAT");
	if (numa_nodes(&numa) < 2)
		return kt_skip(t, "one NUMA node in the SRAT");
	if (here < 0)
		return kt_skip(t, "the boot CPU's APIC id %u is not in the SRAT", id);
	there = other_node((unsigned)here);
	if (there < 0)
		return kt_skip(t, "no node other than %d has memory in the SRAT", here);
	kload_test_begin();
	kload_print_geometry(t);
	ws = kload_ws(LOAD_DRAM, &note);
	loc.ws = ws;
	rem = loc;
	rem.name = "load_remote";
	kt_info(t, "load_remote: boot CPU APIC id %u on node %d, remote node %d, SLIT distance "
		"%u", id, here, there, numa_distance(&numa, (unsigned)here, (unsigned)there));
	if (run_on(&loc, (unsigned)here) == -1)
		return kt_skip(t, "node %d: %s", here, loc.why);
	load_run_print(t, &loc);
	if (run_on(&rem, (unsigned)there) == -1)
		return kt_skip(t, "node %d: %s", there, rem.why);
	load_run_print(t, &rem);
	on_l = node_of_buffer(&loc);
	on_r = node_of_buffer(&rem);
	kt_check(t, on_l == here && on_r == there,
		 "buffer_on_node # local on node %d (want %d), remote on node %d (want %d)",
		 on_l, here, on_r, there);
	if (rem.walk_len == rem.chain.nodes)
		kload_pebs_step(t, &rem, TGT_REMOTE);
	kload_check_chain(t, &rem);
	kt_info(t, "load_remote: local %llu.%02llu ns, remote %llu.%02llu ns per load (%llu%%)",
		X100(loc.ns_x100), X100(rem.ns_x100),
		(unsigned long long)(loc.ns_x100 ? rem.ns_x100 * 100 / loc.ns_x100 : 0));
	if (emu)
		kt_skip_sub(t, "remote_over_local", "%s", emu);
	else
		kt_check(t, load_step_ok(loc.ns_x100, rem.ns_x100, REMOTE_MARGIN_PCT),
			 "remote_over_local # %llu.%02llu ns >= %u%% of %llu.%02llu ns",
			 X100(rem.ns_x100), REMOTE_MARGIN_PCT, X100(loc.ns_x100));
	return kt_verdict(t);
}
