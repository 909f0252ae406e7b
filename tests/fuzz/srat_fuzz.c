/*
 * srat_fuzz.c: libFuzzer target for the SRAT as the kernel reads it (platform/acpi_srat.c,
 * platform/numa.c; ACPI 6.5 §5.2.16): the input's first byte picks the revision, the rest is
 * the structure list; the whole walk (RSDP, XSDT, SRAT) goes through numa_from_acpi, which
 * counts, allocates what the table needs (up to the caps) and parses again. Nothing may be
 * kept past the storage; domains stay ascending, ranges disjoint and on their node; every
 * stored CPU's APIC ID finds its node.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "platform/numa.h"
#include "host/numa_image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tbl srat;
	static struct acpi_info ai;
	static struct numa_info n;
	struct tbl *t[] = { &srat };
	char line[256];

	if (!size || size > 1 << 17)
		return 0;
	acpi_set_log(false);
	numa_image_arena_reset();
	memset(&n, 0, sizeof(n));
	memset(&ai, 0, sizeof(ai));
	tbl_srat(&srat, data[0] % 4);
	tbl_raw(&srat, data + 1, (uint32_t)size - 1);
	numa_image_walk(t, 1, &ai, &n, numa_image_alloc);
	if (n.nnodes > n.node_cap || n.nmem > n.mem_cap || n.ncpu > n.cpu_cap ||
	    n.nnodes > NUMA_NODE_LIMIT || n.nmem > NUMA_MEM_LIMIT)
		abort();
	for (unsigned i = 1; i < n.nnodes; i++)
		if (n.node_pxm[i - 1] >= n.node_pxm[i])
			abort();
	for (unsigned i = 0; i < n.nmem; i++) {
		if (n.mem[i].base >= n.mem[i].end || n.mem[i].node >= n.nnodes ||
		    numa_node_of_phys(&n, n.mem[i].base) != n.mem[i].node)
			abort();
		for (unsigned j = 0; j < i; j++)
			if (n.mem[i].base < n.mem[j].end && n.mem[j].base < n.mem[i].end)
				abort();
	}
	for (unsigned i = 0; i < n.ncpu; i++)
		if (n.cpu[i].node >= n.nnodes || numa_node_of_apic(&n, n.cpu[i].apic_id) < 0)
			abort();
	numa_header_line(&n, line, sizeof(line));
	for (unsigned i = 0; numa_detail_line(&n, i, line, sizeof(line)); i++)
		if (strlen(line) >= sizeof(line))
			abort();
	return 0;
}
