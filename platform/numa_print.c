/*
 * numa_print.c: the `# numa:` header line and the detail behind the verbose option
 * (docs/output.md "numa"; platform/numa.h), over the parsed SRAT, SLIT and HMAT (ACPI 6.5
 * §5.2.16, §5.2.17, §5.2.28). The header stays one line at any node count: the distance
 * matrix only up to 2 nodes (else its range), SNC as nodes per package, the memory-only
 * nodes with what the firmware says of them (two named, the rest counted), the HMAT's shape.
 */
#include "platform/numa.h"
#include "kernel/fmt.h"

#include <stdarg.h>
#include <string.h>

#define NUMA_MATRIX_MAX  2	/* the whole distance matrix up to 2 nodes, else a range */
#define NUMA_NAMED_MAX   2	/* memory-only nodes named in the header */

/* Append to buf[len] at *at (truncating; *at stays <= len - 1). */
static void __attribute__((format(printf, 4, 5)))
put(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (*at + 1 >= len)
		return;
	va_start(ap, fmt);
	k = fmt_vsnprintf(buf + *at, len - *at, fmt, ap);
	va_end(ap);
	if (k > 0)
		*at += (size_t)k < len - *at ? (size_t)k : len - *at - 1;
}

static void distances(const struct numa_info *n, char *buf, size_t len, size_t *at)
{
	unsigned k = numa_nodes(n), lo = NUMA_UNREACHABLE, hi = 0;

	put(buf, len, at, ", distances");
	for (unsigned a = 0; a < k; a++)
		for (unsigned b = 0; b < k; b++) {
			unsigned d = numa_distance(n, a, b);

			if (k <= NUMA_MATRIX_MAX)
				put(buf, len, at, "%s%u", b ? " " : a ? "/" : " ", d);
			lo = a != b && d < lo ? d : lo;
			hi = a != b && d > hi ? d : hi;
		}
	if (k > NUMA_MATRIX_MAX)
		put(buf, len, at, " %u..%u", lo, hi);
	put(buf, len, at, "%s", n->have_slit ? " (SLIT)" : " (no SLIT: 10 local, 20 remote)");
}

/* initiator and target nodes with a latency in the HMAT */
static void hmat_shape(const struct numa_info *n, unsigned *ini, unsigned *tgt)
{
	*ini = *tgt = 0;
	for (unsigned a = 0; a < n->hmat_n; a++) {
		bool row = false, col = false;

		for (unsigned b = 0; b < n->hmat_n; b++) {
			const struct numa_hmat_cell *r = numa_hmat_cell(n, a, b),
						     *c = numa_hmat_cell(n, b, a);

			row |= r->read_ps || r->write_ps;
			col |= c->read_ps || c->write_ps;
		}
		*ini += row;
		*tgt += col;
	}
}

void numa_header_line(const struct numa_info *n, char *buf, size_t len)
{
	unsigned k = numa_nodes(n), memonly = 0, named = 0, ini, tgt;
	size_t at = 0;

	if (!len)
		return;
	buf[0] = '\0';
	if (!n->have_srat) {
		put(buf, len, &at, "numa: 1 node (no SRAT)");
		return;
	}
	put(buf, len, &at, "numa: %u node%s", k, k == 1 ? "" : "s");
	if (n->pkg_nodes_max > 1 && n->pkg_nodes_min == n->pkg_nodes_max)
		put(buf, len, &at, " (%u per package: SNC%u)", n->pkg_nodes_max,
		    n->pkg_nodes_max);
	else if (n->pkg_nodes_max > 1)
		put(buf, len, &at, " (%u-%u per package: SNC?)", n->pkg_nodes_min,
		    n->pkg_nodes_max);
	distances(n, buf, len, &at);
	for (unsigned a = 0; a < k; a++)
		memonly += numa_node_memory_only_in(n, a);
	if (memonly)
		put(buf, len, &at, "; %u memory-only (", memonly);
	for (unsigned a = 0; a < k && memonly; a++) {
		char why[64];

		if (!numa_node_memory_only_in(n, a))
			continue;
		if (named++ == NUMA_NAMED_MAX) {
			put(buf, len, &at, ", ...");
			break;
		}
		numa_node_why(n, a, why, sizeof(why));
		put(buf, len, &at, "%snode %u: %s", named > 1 ? "; " : "", a, why);
	}
	if (memonly)
		put(buf, len, &at, ")");
	if (!n->have_hmat)
		return;
	hmat_shape(n, &ini, &tgt);
	put(buf, len, &at, "; HMAT %ux%u %s", ini, tgt,
	    n->hmat_lat && n->hmat_bw ? "latency+bandwidth" : n->hmat_lat ? "latency" :
	    "bandwidth");
	if (n->hmat_order)
		put(buf, len, &at, " (%u pairs against the SLIT)", n->hmat_order);
}

/* Line i of the detail: nodes (with their row of distances), then memory ranges, then HMAT
 * cells. */
bool numa_detail_line(const struct numa_info *n, unsigned i, char *buf, size_t len)
{
	unsigned k = n->have_srat ? n->nnodes : 0, cells = n->have_hmat ? n->hmat_n * n->hmat_n : 0;
	size_t at = 0;

	if (!len)
		return false;
	buf[0] = '\0';
	if (i < k) {
		char why[64];

		numa_node_why(n, i, why, sizeof(why));
		put(buf, len, &at, "numa-node: %u pxm %u: %u CPUs, %llu MiB%s%s; distances", i,
		    n->node_pxm[i], numa_node_cpus(n, i),
		    (unsigned long long)(numa_node_bytes(n, i) >> 20), why[0] ?
		    ", memory-only: " : "", why);
		for (unsigned b = 0; b < k; b++)
			put(buf, len, &at, " %u", numa_distance(n, i, b));
		return true;
	}
	i -= k;
	if (i < (n->have_srat ? n->nmem : 0)) {
		const struct numa_mem *m = &n->mem[i];

		put(buf, len, &at, "numa-mem: node %u [0x%llx, 0x%llx)%s%s%s%s%s", m->node,
		    (unsigned long long)m->base, (unsigned long long)m->end,
		    m->hotplug ? " hot-pluggable" : "", m->nonvolatile ? " non-volatile" : "",
		    m->fw & NUMA_FW_USABLE ? " usable" : "",
		    m->fw & NUMA_FW_SPECIFIC ? " specific-purpose" : "",
		    m->fw & NUMA_FW_PERSISTENT ? " persistent" : "");
		return true;
	}
	i -= n->have_srat ? n->nmem : 0;
	for (unsigned c = 0; c < cells; c++) {
		const struct numa_hmat_cell *h = &n->hmat[c];

		if (!h->read_ps && !h->write_ps && !h->read_mbs && !h->write_mbs)
			continue;
		if (i--)
			continue;
		put(buf, len, &at, "numa-hmat: node %u -> node %u: read %u ps, write %u ps, read "
		    "%u MB/s, write %u MB/s", c / n->hmat_n, c % n->hmat_n, h->read_ps,
		    h->write_ps, h->read_mbs, h->write_mbs);
		return true;
	}
	return false;
}
