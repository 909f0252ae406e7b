/*
 * numa.c: the NUMA tables read and sized (SRAT, SLIT, HMAT: ACPI 6.5 §5.2.16, §5.2.17,
 * §5.2.28) and the lookups over them (platform/numa.h). Pure: the kernel passes its identity
 * map and an allocator over the memory map, host tests and the fuzzer byte buffers.
 */
#include "platform/numa.h"
#include <string.h>

/* Zero n but what the caller gave: the storage and the packages (numa_note_packages). */
static void reset(struct numa_info *n)
{
	struct numa_info keep = *n;

	memset(n, 0, sizeof(*n));
	n->cpu = keep.cpu;
	n->cpu_cap = keep.cpu_cap;
	n->node_pxm = keep.node_pxm;
	n->node_cap = keep.node_cap;
	n->mem = keep.mem;
	n->mem_cap = keep.mem_cap;
	n->slit = keep.slit;
	n->slit_cap = keep.slit_cap;
	n->hmat = keep.hmat;
	n->hmat_cap = keep.hmat_cap;
	n->packages = keep.packages;
	n->pkg_nodes_min = keep.pkg_nodes_min;
	n->pkg_nodes_max = keep.pkg_nodes_max;
}

static unsigned capped(uint64_t need, unsigned limit)
{
	return need < limit ? (unsigned)need : limit;
}

/* Storage for `want` entries of `size` bytes when *cap is smaller: true when it grew. */
static bool grow(void **p, unsigned *cap, unsigned want, size_t size, numa_alloc_fn alloc,
		 void *actx)
{
	void *q;

	if (!alloc || want <= *cap)
		return false;
	q = alloc(actx, (size_t)want * size);
	if (!q)
		return false;
	*p = q;
	*cap = want;
	return true;
}

/* Node pairs (a -> b, a -> c) from one initiator whose HMAT latency order is the reverse
 * of their SLIT distance order: the firmware contradicts itself (ACPI 6.5 §5.2.17 and
 * §5.2.28 both describe relative cost). */
static unsigned hmat_slit_order(const struct numa_info *n)
{
	unsigned bad = 0, k = n->hmat_n;

	if (!n->have_slit || !n->hmat_lat)
		return 0;
	for (unsigned a = 0; a < k; a++)
		for (unsigned b = 0; b < k; b++)
			for (unsigned c = b + 1; c < k; c++) {
				uint32_t lb = n->hmat[a * k + b].read_ps,
					 lc = n->hmat[a * k + c].read_ps;
				unsigned db = numa_distance(n, a, b), dc = numa_distance(n, a, c);

				if (lb && lc && ((db < dc && lb > lc) || (db > dc && lb < lc)))
					bad++;
			}
	return bad;
}

/* SRAT processor affinities whose APIC ID no usable MADT processor has (ACPI 6.5 §5.2.12
 * and §5.2.16 describe the same processors): kept for the lookups, not counted as a node's
 * CPUs, said in one line. */
static void against_madt(struct numa_info *n, const struct acpi_info *ai)
{
	const uint64_t *seen = ai->madt.seen;

	n->not_in_madt = 0;
	if (!ai->have_madt)
		return;
	for (unsigned i = 0; i < n->ncpu; i++) {
		uint32_t id = n->cpu[i].apic_id;

		n->cpu[i].not_in_madt = !(seen[id / 64] >> (id % 64) & 1);
		n->not_in_madt += n->cpu[i].not_in_madt;
	}
	if (n->not_in_madt)
		acpi_log("# acpi: SRAT names %u CPUs the MADT does not list: not counted as "
			 "their nodes' CPUs\n", n->not_in_madt);
}

void numa_from_acpi(struct numa_info *n, const struct acpi_info *ai, acpi_map_fn map,
		    void *ctx, numa_alloc_fn alloc, void *actx)
{
	const struct acpi_table_ref *r;
	const uint8_t *t;
	unsigned nodes = 0, mem = 0, cpus = 0;
	bool again = false;

	reset(n);
	if (!ai->valid)
		return;
	r = acpi_find(ai, "SRAT");
	if (!r || !(t = map(ctx, r->phys, r->len)) || acpi_parse_srat(t, r->len, n) != 0)
		return;
	nodes = n->need_nodes;
	mem = n->need_mem;
	cpus = n->ncpu + n->cpu_dropped;
	again |= grow((void **)&n->node_pxm, &n->node_cap, capped(nodes, NUMA_NODE_LIMIT),
		      sizeof(*n->node_pxm), alloc, actx);
	again |= grow((void **)&n->mem, &n->mem_cap, capped(mem, NUMA_MEM_LIMIT),
		      sizeof(*n->mem), alloc, actx);
	again |= grow((void **)&n->cpu, &n->cpu_cap, cpus, sizeof(*n->cpu), alloc, actx);
	if (again)
		acpi_parse_srat(t, r->len, n);
	if (!n->have_srat)
		return;
	against_madt(n, ai);
	r = acpi_find(ai, "SLIT");
	if (r && (t = map(ctx, r->phys, r->len)) && acpi_parse_slit(t, r->len, n) == 0) {
		unsigned k = capped(n->slit_total, NUMA_LOCAL_LIMIT);

		if (grow((void **)&n->slit, &n->slit_cap, k, (size_t)k, alloc, actx))
			acpi_parse_slit(t, r->len, n);
	}
	r = acpi_find(ai, "HMAT");
	if (r && (t = map(ctx, r->phys, r->len))) {
		unsigned k = capped(n->nnodes, NUMA_HMAT_LIMIT);

		grow((void **)&n->hmat, &n->hmat_cap, k, k * sizeof(*n->hmat), alloc, actx);
		acpi_parse_hmat(t, r->len, n);
		n->hmat_order = hmat_slit_order(n);
		if (n->hmat_order)
			acpi_log("# acpi: HMAT and SLIT disagree: %u node pairs in opposite "
				 "latency order (both kept as the firmware gave them)\n",
				 n->hmat_order);
	}
	/* the last SRAT parse's counts: exact where everything fit */
	if (n->need_nodes > n->nnodes || n->need_mem > n->nmem || n->slit_total > n->slit_n ||
	    (n->have_hmat && n->hmat_n < n->nnodes))
		acpi_log("# acpi: NUMA tables larger than kept: domains %u of up to %u, memory "
			 "ranges %u of up to %u, SLIT %u of %llu localities, HMAT %u of %u nodes "
			 "(caps %u, %u, %u, %u)\n", n->nnodes, n->need_nodes, n->nmem, n->need_mem,
			 n->slit_n,
			 (unsigned long long)n->slit_total, n->hmat_n, n->nnodes, NUMA_NODE_LIMIT,
			 NUMA_MEM_LIMIT, NUMA_LOCAL_LIMIT, NUMA_HMAT_LIMIT);
}

unsigned numa_nodes(const struct numa_info *n)
{
	return n->have_srat ? n->nnodes : 1;
}

unsigned numa_distance(const struct numa_info *n, unsigned a, unsigned b)
{
	unsigned na = numa_nodes(n);
	uint32_t pa, pb;

	if (a >= na || b >= na)
		return 0;
	if (a == b)
		return NUMA_LOCAL_DISTANCE;
	if (!n->have_srat || !n->have_slit)
		return NUMA_REMOTE_DISTANCE;
	pa = n->node_pxm[a];
	pb = n->node_pxm[b];
	if (pa >= n->slit_n || pb >= n->slit_n)
		return NUMA_REMOTE_DISTANCE;
	return n->slit[pa * n->slit_n + pb];
}

int numa_node_of_apic(const struct numa_info *n, uint32_t apic_id)
{
	if (!n->have_srat)
		return 0;
	for (unsigned i = 0; i < n->ncpu; i++)
		if (n->cpu[i].apic_id == apic_id)
			return n->cpu[i].node;
	return -1;
}

int numa_node_of_phys(const struct numa_info *n, uint64_t pa)
{
	if (!n->have_srat)
		return 0;
	for (unsigned i = 0; i < n->nmem; i++)
		if (pa >= n->mem[i].base && pa < n->mem[i].end)
			return n->mem[i].node;
	return -1;
}

int numa_node_of_range(const struct numa_info *n, uint64_t pa, uint64_t len)
{
	uint64_t end = pa + len, at = pa;
	int node = -1;

	if (!len || end < pa)
		return -1;
	if (!n->have_srat)
		return 0;
	/* ranges never overlap (acpi_srat.c): at most nmem steps, each to a range's end */
	for (unsigned step = 0; at < end && step <= n->nmem; step++) {
		unsigned i;

		for (i = 0; i < n->nmem; i++)
			if (at >= n->mem[i].base && at < n->mem[i].end)
				break;
		if (i == n->nmem || (node >= 0 && n->mem[i].node != node))
			return -1;
		node = n->mem[i].node;
		at = n->mem[i].end;
	}
	return at >= end ? node : -1;
}

bool numa_node_range(const struct numa_info *n, unsigned node, unsigned i, uint64_t *base,
		     uint64_t *end)
{
	for (unsigned k = 0; k < n->nmem; k++) {
		if (n->mem[k].node != node || i--)
			continue;
		*base = n->mem[k].base;
		*end = n->mem[k].end;
		return true;
	}
	return false;
}

unsigned numa_node_cpus(const struct numa_info *n, unsigned node)
{
	unsigned c = 0;

	for (unsigned i = 0; i < n->ncpu; i++)
		c += n->cpu[i].node == node && !n->cpu[i].not_in_madt;
	return c;
}

uint64_t numa_node_bytes(const struct numa_info *n, unsigned node)
{
	uint64_t b = 0;

	for (unsigned i = 0; i < n->nmem; i++)
		if (n->mem[i].node == node && !n->mem[i].hotplug)
			b += n->mem[i].end - n->mem[i].base;
	return b;
}
