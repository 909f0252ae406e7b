/*
 * numa_tiers.c: memory tiers over the parsed SRAT and HMAT (platform/numa.h). A memory-only
 * node is one with memory and no CPU in the SRAT: CXL Type-3 expanders, HBM, persistent
 * memory. What the firmware says of it comes from the SRAT Memory Affinity flags (ACPI 6.5
 * §5.2.16.2: Hot Pluggable, NonVolatile) and the boot memory map (E820 / multiboot2 types,
 * EFI_MEMORY_SP "specific purpose" memory as Linux reports it: soft reserved). SNC (Sub-NUMA
 * Clustering) is several SRAT nodes with CPUs in one package, the packages coming from the
 * CPUs' topology (SDM Vol. 3A 9.9, smp/topology.c). Pure C.
 */
#include "platform/numa.h"
#include "kernel/fmt.h"

#include <string.h>

#define E820_USABLE        1
#define E820_PMEM          7	/* ACPI 6.5 Table 15.1 AddressRangePersistentMemory */
#define E820_PRAM          12	/* Linux E820_TYPE_PRAM: legacy persistent memory */
#define E820_SOFT_RESERVED 0xefffffffu	/* Linux E820_TYPE_SOFT_RESERVED (EFI_MEMORY_SP) */

static const struct numa_info *instance;

void numa_set_instance(const struct numa_info *n)
{
	instance = n;
}

void numa_note_mmap(struct numa_info *n, uint64_t base, uint64_t len, uint32_t type)
{
	uint8_t fw = type == E820_USABLE ? NUMA_FW_USABLE :
		     type == E820_PMEM || type == E820_PRAM ? NUMA_FW_PERSISTENT :
		     type == E820_SOFT_RESERVED ? NUMA_FW_SPECIFIC : NUMA_FW_RESERVED;
	uint64_t end = base + len < base ? UINT64_MAX : base + len;

	for (unsigned i = 0; i < n->nmem; i++)
		if (base < n->mem[i].end && n->mem[i].base < end)
			n->mem[i].fw |= fw | NUMA_FW_SEEN;
}

bool numa_node_memory_only_in(const struct numa_info *n, unsigned node)
{
	uint64_t b, e;

	return n->have_srat && node < n->nnodes && !numa_node_cpus(n, node) &&
	       numa_node_range(n, node, 0, &b, &e);
}

bool numa_node_memory_only(unsigned node)
{
	return instance && numa_node_memory_only_in(instance, node);
}

void numa_node_why(const struct numa_info *n, unsigned node, char *buf, size_t len)
{
	bool hot = false, nv = false;
	uint8_t fw = 0;
	size_t at = 0;

	if (!len)
		return;
	buf[0] = '\0';
	if (!numa_node_memory_only_in(n, node))
		return;
	for (unsigned i = 0; i < n->nmem; i++) {
		if (n->mem[i].node != node)
			continue;
		hot |= n->mem[i].hotplug;
		nv |= n->mem[i].nonvolatile;
		fw |= n->mem[i].fw;
	}
	/* the guesses: hot-pluggable memory without CPUs is how firmware describes CXL
	 * Type-3 memory (Linux drivers/acpi/numa/srat.c, CXL CFMWS windows); persistent
	 * memory says so in either place */
	static const char *const text[] = {
		"hot-pluggable, CXL?", "non-volatile", "EFI specific purpose",
		"persistent (memory map)", "not in the memory map",
	};
	const bool on[] = { hot, nv, fw & NUMA_FW_SPECIFIC, fw & NUMA_FW_PERSISTENT,
			    !(fw & NUMA_FW_SEEN) };

	for (unsigned k = 0; k < sizeof(on) / sizeof(on[0]); k++)
		if (on[k] && at + 1 < len) {
			at += (size_t)fmt_snprintf(buf + at, len - at, "%s%s", at ? ", " : "",
						   text[k]);
			at = at < len ? at : len - 1;
		}
	if (!at)
		fmt_snprintf(buf, len, "no flags (HBM or CXL?)");
}

void numa_note_packages(struct numa_info *n, unsigned ncpu,
			void (*get)(void *ctx, unsigned i, unsigned *node, unsigned *package),
			void *ctx)
{
	uint64_t seen[NUMA_NODE_LIMIT / 64];

	n->packages = 0;
	n->pkg_nodes_min = ~0u;
	n->pkg_nodes_max = 0;
	for (unsigned i = 0; i < ncpu; i++) {
		unsigned node, pkg, first = 1, c = 0;

		get(ctx, i, &node, &pkg);
		if (node >= NUMA_NODE_LIMIT)
			continue;	/* not a CPU to count (offline) */
		for (unsigned j = 0; j < i && first; j++) {
			unsigned nj, pj;

			get(ctx, j, &nj, &pj);
			first = pj != pkg || nj >= NUMA_NODE_LIMIT;
		}
		if (!first)
			continue;
		/* the first CPU of a package: count the distinct nodes of its CPUs */
		memset(seen, 0, sizeof(seen));
		for (unsigned j = i; j < ncpu; j++) {
			unsigned nj, pj;

			get(ctx, j, &nj, &pj);
			if (pj != pkg || nj >= NUMA_NODE_LIMIT || seen[nj / 64] >> (nj % 64) & 1)
				continue;
			seen[nj / 64] |= 1ull << (nj % 64);
			c++;
		}
		n->packages++;
		n->pkg_nodes_min = c < n->pkg_nodes_min ? c : n->pkg_nodes_min;
		n->pkg_nodes_max = c > n->pkg_nodes_max ? c : n->pkg_nodes_max;
	}
	if (!n->packages)
		n->pkg_nodes_min = 0;
}

const struct numa_hmat_cell *numa_hmat_cell(const struct numa_info *n, unsigned initiator,
					    unsigned target)
{
	if (!n->have_hmat || initiator >= n->hmat_n || target >= n->hmat_n)
		return NULL;
	return &n->hmat[initiator * n->hmat_n + target];
}

bool numa_hmat_latency(unsigned initiator_node, unsigned target_node, uint32_t *read_ps,
		       uint32_t *write_ps)
{
	const struct numa_hmat_cell *c = instance ? numa_hmat_cell(instance, initiator_node,
								     target_node) : NULL;

	if (!c || (!c->read_ps && !c->write_ps))
		return false;
	*read_ps = c->read_ps;
	*write_ps = c->write_ps;
	return true;
}
