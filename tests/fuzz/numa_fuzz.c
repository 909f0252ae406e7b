/*
 * numa_fuzz.c: libFuzzer target for the SRAT and SLIT parsers (platform/acpi_srat.c,
 * platform/acpi_slit.c; ACPI 6.5 §5.2.16, §5.2.17) and the lookups over what they keep. The
 * input is a table body: it is parsed once as an SRAT and once as a SLIT, each in a block of
 * exactly its length after a 36-byte header (so ASan sees any read past the end); then every
 * lookup runs and the header line is formatted. Counts must stay within their arrays.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "platform/numa.h"
#include "host/numa_image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void parse(struct numa_info *n, const char *sig, const uint8_t *data, size_t size)
{
	uint32_t len = (uint32_t)(36 + size);
	uint8_t *t = malloc(len);

	memset(t, 0, 36);
	memcpy(t, sig, 4);
	memcpy(t + 4, &len, 4);
	t[8] = size ? data[0] % 4 : 0;	/* SRAT revision changes how type 0 reads */
	memcpy(t + 36, data, size);
	if (sig[1] == 'R')
		acpi_parse_srat(t, len, n);
	else
		acpi_parse_slit(t, len, n);
	free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct numa_info n;
	static struct numa_cpu cpus[ACPI_APIC_ID_LIMIT];	/* every distinct ID fits */
	char line[256];
	uint64_t b, e;

	if (size > 65536)
		return 0;
	memset(&n, 0, sizeof(n));
	numa_image_storage(&n);	/* nodes, ranges, SLIT: fixed storage (srat_fuzz sizes it) */
	n.cpu = cpus;
	n.cpu_cap = ACPI_APIC_ID_LIMIT;
	acpi_set_log(false);
	parse(&n, "SRAT", data, size);
	parse(&n, "SLIT", data, size);
	if (n.nnodes > IMG_NODES || n.nmem > IMG_MEM || n.ncpu > n.cpu_cap || n.cpu_dropped ||
	    n.slit_n > IMG_LOCAL)
		abort();
	for (unsigned a = 0; a <= numa_nodes(&n); a++) {
		for (unsigned c = 0; c <= numa_nodes(&n); c++)
			numa_distance(&n, a, c);
		for (unsigned i = 0; numa_node_range(&n, a, i, &b, &e); i++)
			if (b >= e || numa_node_of_phys(&n, b) != (int)a ||
			    numa_node_of_range(&n, b, e - b) != (int)a)
				abort();
	}
	for (unsigned i = 0; i < n.ncpu; i++)
		if (numa_node_of_apic(&n, n.cpu[i].apic_id) != n.cpu[i].node)
			abort();
	numa_header_line(&n, line, sizeof(line));
	if (strlen(line) >= sizeof(line))
		abort();
	return 0;
}
