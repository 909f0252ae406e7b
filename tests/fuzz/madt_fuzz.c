/*
 * madt_fuzz.c: libFuzzer target for the MADT parser (platform/acpi_madt.c; ACPI 6.5 §5.2.12:
 * Processor Local APIC and Processor Local x2APIC entries with 32-bit IDs). The input's first
 * byte picks the revision (Online Capable counts from 5), the rest is the entry list after
 * the 44-byte header, in a heap block of exactly the table's length (ASan). As the kernel
 * does: a parse without storage counts the processors, a second into cpu[] of that size
 * keeps them. Every kept ID is below the limit, no broadcast ID, none twice.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "platform/acpi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct acpi_madt m;
	static uint64_t ids[ACPI_APIC_ID_LIMIT / 64];
	uint32_t len = (uint32_t)(44 + (size ? size - 1 : 0));
	uint8_t *t;
	unsigned count;

	if (size > 1 << 18)
		return 0;
	t = calloc(1, len);
	memcpy(t, "APIC", 4);
	memcpy(t + 4, &len, 4);
	t[8] = size ? data[0] % 7 : 0;
	if (size > 1)
		memcpy(t + 44, data + 1, size - 1);
	acpi_set_log(false);
	m = (struct acpi_madt){ 0 };
	acpi_parse_madt(t, len, &m);
	count = m.ncpus_dropped;
	if (m.ncpus)
		abort();
	m.cpu = calloc(count ? count : 1, sizeof(*m.cpu));
	m.cap = count;
	acpi_parse_madt(t, len, &m);
	if (m.ncpus != count || m.ncpus_dropped)
		abort();
	memset(ids, 0, sizeof(ids));
	for (unsigned i = 0; i < m.ncpus; i++) {
		uint32_t id = m.cpu[i].apic_id;

		if (id >= ACPI_APIC_ID_LIMIT || (!m.cpu[i].x2apic && id > 0xfe) ||
		    (ids[id / 64] >> (id % 64) & 1))
			abort();
		ids[id / 64] |= 1ull << (id % 64);
	}
	free(m.cpu);
	free(t);
	return 0;
}
