/*
 * acpi_fuzz.c: libFuzzer target for the ACPI walk (platform/acpi*.c). The input is "physical
 * memory" of exactly its size, with a v2 RSDP in its first 36 bytes (checksums are repaired
 * so the walk gets past them and the table parsers see the fuzzed bodies). Any read outside
 * the input is caught by ASan; counts must stay within their arrays.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "platform/acpi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct mem {
	const uint8_t *p;
	size_t n;
};

static const void *map(void *ctx, uint64_t phys, uint64_t len)
{
	struct mem *m = ctx;

	if (phys > m->n || len > m->n - phys)
		return NULL;
	return m->p + phys;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct acpi_info ai;
	static struct acpi_cpu cpus[ACPI_APIC_ID_LIMIT];	/* every distinct ID fits */
	uint8_t *copy;
	struct mem m;

	if (size < 36)
		return 0;
	copy = malloc(size);
	memcpy(copy, data, size);
	memcpy(copy, "RSD PTR ", 8);
	copy[8] = 0;
	copy[8] = (uint8_t)(0x100 - acpi_checksum(copy, 20));
	copy[32] = 0;
	copy[32] = (uint8_t)(0x100 - acpi_checksum(copy, 36));
	m = (struct mem){ copy, size };
	acpi_set_log(false);
	ai.madt.cpu = cpus;
	ai.madt.cap = ACPI_APIC_ID_LIMIT;
	acpi_init(&ai, copy, 36, map, &m);
	if (ai.ntables > ACPI_MAX_TABLES || ai.madt.ncpus > ai.madt.cap || ai.madt.ncpus_dropped)
		abort();
	for (unsigned i = 0; i < ai.madt.ncpus; i++)	/* a broadcast ID never names a CPU */
		if (ai.madt.cpu[i].apic_id == (ai.madt.cpu[i].x2apic ? 0xffffffffu : 0xffu))
			abort();
	free(copy);
	return 0;
}
