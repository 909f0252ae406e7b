/*
 * numa.c: NUMA lookups over the parsed SRAT and SLIT (platform/numa.h; ACPI 6.5 §5.2.16,
 * §5.2.17) and the header line. Pure: the kernel passes its identity map, host tests and
 * the fuzzer pass byte buffers.
 */
#include "platform/numa.h"
#include "kernel/fmt.h"

#include <stdarg.h>
#include <string.h>

void numa_from_acpi(struct numa_info *n, const struct acpi_info *ai, acpi_map_fn map,
		    void *ctx)
{
	const struct acpi_table_ref *r;
	const uint8_t *t;
	struct numa_cpu *cpus = n->cpu;	/* the caller's storage stays */
	unsigned cap = n->cpu_cap;

	memset(n, 0, sizeof(*n));
	n->cpu = cpus;
	n->cpu_cap = cap;
	if (!ai->valid)
		return;
	r = acpi_find(ai, "SRAT");
	if (r && (t = map(ctx, r->phys, r->len)) && acpi_parse_srat(t, r->len, n) == 0) {
		r = acpi_find(ai, "SLIT");
		if (r && (t = map(ctx, r->phys, r->len)))
			acpi_parse_slit(t, r->len, n);
	}
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
		c += n->cpu[i].node == node;
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

/* Append to buf[len] at *at (truncating; *at stays <= len - 1). */
static void __attribute__((format(printf, 4, 5)))
put(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = fmt_vsnprintf(buf + *at, len - *at, fmt, ap);
	va_end(ap);
	if (k > 0)
		*at += (size_t)k < len - *at ? (size_t)k : len - *at - 1;
}

#define NUMA_MATRIX_MAX 8	/* the whole matrix and every node up to 8 nodes, else a range */

void numa_header_line(const struct numa_info *n, char *buf, size_t len)
{
	unsigned k = numa_nodes(n), lo = NUMA_UNREACHABLE, hi = 0;
	size_t at = 0;

	if (!len)
		return;
	buf[0] = '\0';
	if (!n->have_srat) {
		put(buf, len, &at, "numa: 1 node (no SRAT)");
		return;
	}
	put(buf, len, &at, "numa: %u node%s, distances", k, k == 1 ? "" : "s");
	for (unsigned a = 0; a < k; a++)
		for (unsigned b = 0; b < k; b++) {
			unsigned d = numa_distance(n, a, b);

			if (k <= NUMA_MATRIX_MAX)
				put(buf, len, &at, "%s%u", b ? " " : a ? "/" : " ", d);
			if (a != b && d < lo)
				lo = d;
			if (a != b && d > hi)
				hi = d;
		}
	if (k > NUMA_MATRIX_MAX)
		put(buf, len, &at, " %u..%u between nodes", lo, hi);
	put(buf, len, &at, "%s", n->have_slit ? " (SLIT)" : " (no SLIT: 10 local, 20 remote)");
	for (unsigned a = 0; a < k && a < NUMA_MATRIX_MAX; a++)
		put(buf, len, &at, "; node %u pxm %u: %u CPUs %llu MiB", a, n->node_pxm[a],
		    numa_node_cpus(n, a), (unsigned long long)(numa_node_bytes(n, a) >> 20));
	if (k > NUMA_MATRIX_MAX)
		put(buf, len, &at, "; %u more nodes", k - NUMA_MATRIX_MAX);
}
