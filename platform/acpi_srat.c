/*
 * acpi_srat.c: System Resource Affinity Table, ACPI 6.5 §5.2.16. Reads the Processor Local
 * APIC/SAPIC Affinity structure (type 0, §5.2.16.1), the Memory Affinity structure (type 1,
 * §5.2.16.2) and the Processor Local x2APIC Affinity structure (type 2, §5.2.16.3); other
 * types (GICC, GIC ITS, Generic Initiator/Port) are stepped over. Domains wider than 8 bits
 * count only from table revision 2, as Linux reads them: the type-0 domain's bits 31:8
 * (arch/x86/mm/srat.c acpi_numa_processor_affinity_init) and the type-1 domain above bit 7
 * (drivers/acpi/numa/srat.c acpi_numa_memory_affinity_init). A structure with length < 2
 * or running past the table ends the walk; disabled, empty, overflowing and conflicting
 * entries are counted and left out, never trusted. CPU affinities, domains and memory ranges
 * go into the caller's storage, sized from what a parse without it counted (no compile-time
 * limit, as the MADT's processors: platform/acpi_madt.c); an APIC ID is
 * looked up only when the bit set of IDs met says it was listed before, so a table of any
 * length is read in linear time.
 */
#include "platform/numa.h"

#include <string.h>

#define SRAT_BODY         48	/* header 36 + Reserved u32 (revision 1) + Reserved u64 */
#define SRAT_LAPIC        0	/* len 16 */
#define SRAT_MEMORY       1	/* len 40 */
#define SRAT_X2APIC       2	/* len 24 */
#define SRAT_ENABLED      (1u << 0)
#define SRAT_MEM_HOTPLUG  (1u << 1)
#define SRAT_MEM_NONVOL   (1u << 2)

static uint8_t srat_min_len(uint8_t type)
{
	switch (type) {
	case SRAT_LAPIC: return 16;
	case SRAT_MEMORY: return 40;
	case SRAT_X2APIC: return 24;
	default: return 2;
	}
}

/* Node of a domain recorded so far, -1 when it is not. */
static int node_of_pxm(const struct numa_info *n, uint32_t pxm)
{
	for (unsigned i = 0; i < n->nnodes; i++)
		if (n->node_pxm[i] == pxm)
			return (int)i;
	return -1;
}

/* Record a domain; false when it is new and node_pxm[] is full (counted in need_nodes). */
static bool add_pxm(struct numa_info *n, uint32_t pxm)
{
	unsigned i;

	for (i = 0; i < n->nnodes; i++)
		if (n->node_pxm[i] == pxm)
			return true;
	n->need_nodes++;
	if (n->nnodes >= n->node_cap || !n->node_pxm)
		return false;
	for (i = n->nnodes; i > 0 && n->node_pxm[i - 1] > pxm; i--)	/* keep ascending */
		n->node_pxm[i] = n->node_pxm[i - 1];
	n->node_pxm[i] = pxm;
	n->nnodes++;
	return true;
}

static void add_cpu(struct numa_info *n, uint32_t apic_id, uint32_t pxm, uint32_t flags,
		    bool x2)
{
	bool known;

	if (!(flags & SRAT_ENABLED)) {
		n->disabled++;
		return;
	}
	if (apic_id >= ACPI_APIC_ID_LIMIT) {
		n->dropped++;
		return;
	}
	if (acpi_id_seen(n->cpu_seen, apic_id)) {
		for (unsigned i = 0; i < n->ncpu; i++)
			if (n->cpu[i].apic_id == apic_id && n->cpu[i].pxm != pxm)
				n->conflicts++;	/* first claim stays */
		return;
	}
	known = add_pxm(n, pxm);
	if (n->ncpu >= n->cpu_cap || !n->cpu) {
		n->cpu_dropped++;	/* counted: the caller sizes cpu[] from it */
		return;
	}
	if (!known) {
		n->dropped++;
		return;
	}
	n->cpu[n->ncpu++] = (struct numa_cpu){ .apic_id = apic_id, .pxm = pxm, .x2apic = x2 };
}

static void add_mem(struct numa_info *n, const uint8_t *e, uint8_t rev)
{
	uint32_t pxm = acpi_rd32(e + 2) & (rev >= 2 ? ~0u : 0xffu), flags = acpi_rd32(e + 28);
	uint64_t base = acpi_rd64(e + 8), len = acpi_rd64(e + 16);

	if (!(flags & SRAT_ENABLED)) {
		n->disabled++;
		return;
	}
	if (!len || base + len < base) {
		n->bad++;
		return;
	}
	for (unsigned i = 0; i < n->nmem; i++)
		if (base < n->mem[i].end && n->mem[i].base < base + len) {
			n->conflicts++;	/* the same bytes twice: the first entry stays */
			return;
		}
	n->need_mem++;
	if (n->nmem >= n->mem_cap || !n->mem) {
		n->need_nodes += node_of_pxm(n, pxm) < 0;	/* no room: counted (upper bound) */
		n->dropped++;
		return;
	}
	if (!add_pxm(n, pxm)) {
		n->dropped++;
		return;
	}
	n->mem[n->nmem++] = (struct numa_mem){
		.base = base, .end = base + len, .pxm = pxm,
		.hotplug = flags & SRAT_MEM_HOTPLUG, .nonvolatile = flags & SRAT_MEM_NONVOL,
	};
}

int acpi_parse_srat(const uint8_t *t, uint32_t len, struct numa_info *n)
{
	uint32_t off = SRAT_BODY;
	const uint8_t *e;
	uint8_t rev;
	int r;

	n->have_srat = false;
	n->nnodes = n->nmem = n->ncpu = n->cpu_dropped = 0;
	n->need_nodes = n->need_mem = 0;
	n->disabled = n->bad = n->conflicts = n->dropped = 0;
	memset(n->cpu_seen, 0, sizeof(n->cpu_seen));
	if (len < SRAT_BODY) {
		acpi_log("# acpi: SRAT length %u < %u, ignored\n", len, SRAT_BODY);
		return -1;
	}
	rev = t[8];
	while ((r = acpi_subtable_next(t, len, &off, "SRAT", &e)) > 0) {
		uint8_t type = e[0];

		if (e[1] < srat_min_len(type)) {
			n->bad++;
			continue;
		}
		if (type == SRAT_LAPIC) {
			uint32_t pxm = e[2];

			if (rev >= 2)
				pxm |= (uint32_t)e[9] << 8 | (uint32_t)e[10] << 16 |
				       (uint32_t)e[11] << 24;
			add_cpu(n, e[3], pxm, acpi_rd32(e + 4), false);
		} else if (type == SRAT_X2APIC) {
			add_cpu(n, acpi_rd32(e + 8), acpi_rd32(e + 4), acpi_rd32(e + 12), true);
		} else if (type == SRAT_MEMORY) {
			add_mem(n, e, rev);
		}
	}
	if (r < 0)
		n->bad++;
	for (unsigned i = 0; i < n->ncpu; i++)
		n->cpu[i].node = (uint16_t)node_of_pxm(n, n->cpu[i].pxm);	/* stored: known */
	for (unsigned i = 0; i < n->nmem; i++)
		n->mem[i].node = (uint16_t)node_of_pxm(n, n->mem[i].pxm);
	if (n->bad || n->conflicts || n->dropped)
		acpi_log("# acpi: SRAT: %u bad, %u conflicting, %u dropped entries left out\n",
			 n->bad, n->conflicts, n->dropped);
	if (n->cpu_dropped)
		acpi_log("# acpi: SRAT lists %u CPUs, room for %u: %u not recorded\n",
			 n->ncpu + n->cpu_dropped, n->cpu_cap, n->cpu_dropped);
	if (!n->need_nodes) {
		acpi_log("# acpi: SRAT lists no enabled CPU or memory, ignored\n");
		return -1;
	}
	n->have_srat = n->nnodes > 0;	/* none kept: a counting parse, storage to come */
	return 0;
}
