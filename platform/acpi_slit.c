/*
 * acpi_slit.c: System Locality Distance Information Table, ACPI 6.5 §5.2.17. Number of
 * System Localities (u64 at offset 36), then an N x N byte matrix, row i = distances from
 * locality i (a locality is a proximity domain of the SRAT). The table is rejected unless
 * it holds all N*N bytes, every diagonal entry is 10 (local) and every other entry is above
 * 10 (0-9 are reserved; 255 = unreachable), the checks Linux drivers/acpi/numa/srat.c
 * slit_valid makes. The top-left slit_cap x slit_cap part is kept (numa_from_acpi sizes it
 * from slit_total, up to NUMA_LOCAL_LIMIT).
 */
#include "platform/numa.h"

#include <string.h>

#define SLIT_MATRIX 44	/* header 36 + Number of System Localities u64 */

int acpi_parse_slit(const uint8_t *t, uint32_t len, struct numa_info *n)
{
	uint64_t nloc, keep;

	n->have_slit = false;
	n->slit_n = 0;
	n->slit_total = 0;
	if (len < SLIT_MATRIX) {
		acpi_log("# acpi: SLIT length %u < %u, ignored\n", len, SLIT_MATRIX);
		return -1;
	}
	nloc = acpi_rd64(t + 36);
	/* nloc <= len first, so nloc * nloc cannot overflow */
	if (!nloc || nloc > len || nloc * nloc > len - SLIT_MATRIX) {
		acpi_log("# acpi: SLIT with %llu localities needs more than its %u bytes, "
			 "ignored\n", (unsigned long long)nloc, len);
		return -1;
	}
	for (uint64_t i = 0; i < nloc; i++)
		for (uint64_t j = 0; j < nloc; j++) {
			uint8_t d = t[SLIT_MATRIX + i * nloc + j];

			if (i == j ? d != NUMA_LOCAL_DISTANCE : d <= NUMA_LOCAL_DISTANCE) {
				acpi_log("# acpi: SLIT entry [%llu][%llu] = %u invalid (ACPI "
					 "§5.2.17: 10 on the diagonal, > 10 elsewhere), "
					 "ignored\n", (unsigned long long)i,
					 (unsigned long long)j, d);
				return -1;
			}
		}
	keep = nloc < n->slit_cap ? nloc : n->slit_cap;
	if (!n->slit)
		keep = 0;
	for (uint64_t i = 0; i < keep; i++)
		memcpy(&n->slit[i * keep], t + SLIT_MATRIX + i * nloc, keep);
	n->slit_n = (uint32_t)keep;
	n->slit_total = nloc;
	n->have_slit = keep > 0;	/* none kept: a counting parse, storage to come */
	return 0;
}
