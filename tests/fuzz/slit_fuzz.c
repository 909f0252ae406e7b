/*
 * slit_fuzz.c: libFuzzer target for the SLIT (platform/acpi_slit.c; ACPI 6.5 §5.2.17) behind
 * a fixed three-node SRAT, read the kernel's way (numa_from_acpi: the walk, the matrix sized
 * from its locality count up to the cap). The input is the table after its header: the
 * locality count (u64) and the matrix. A kept matrix is valid (10 on the diagonal, above 10
 * elsewhere) and every distance answered is 0 (no such node), 10, 20 or a kept entry.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "platform/numa.h"
#include "host/numa_image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tbl srat, slit;
	static struct acpi_info ai;
	static struct numa_info n;
	struct tbl *t[] = { &srat, &slit };
	char line[256];

	if (size > 1 << 17)
		return 0;
	acpi_set_log(false);
	numa_image_arena_reset();
	memset(&n, 0, sizeof(n));
	memset(&ai, 0, sizeof(ai));
	tbl_srat(&srat, 2);
	for (uint32_t d = 0; d < 3; d++) {
		srat_x2apic(&srat, d, d, 1);
		srat_mem(&srat, (uint64_t)d << 30, 1u << 30, d, 1);
	}
	tbl_begin(&slit, "SLIT", 1, 0);
	tbl_raw(&slit, data, (uint32_t)size);
	numa_image_walk(t, 2, &ai, &n, numa_image_alloc);
	if (n.slit_n > n.slit_cap || n.slit_n > NUMA_LOCAL_LIMIT || (n.have_slit && !n.slit_n))
		abort();
	for (unsigned i = 0; i < n.slit_n; i++)
		for (unsigned j = 0; j < n.slit_n; j++) {
			uint8_t d = n.slit[i * n.slit_n + j];

			if (i == j ? d != NUMA_LOCAL_DISTANCE : d <= NUMA_LOCAL_DISTANCE)
				abort();
		}
	for (unsigned a = 0; a <= 3; a++)
		for (unsigned b = 0; b <= 3; b++) {
			unsigned d = numa_distance(&n, a, b);

			if ((a == 3 || b == 3) ? d != 0 : a == b ? d != 10 : d <= 10)
				abort();
		}
	numa_header_line(&n, line, sizeof(line));
	return 0;
}
