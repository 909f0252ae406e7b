/*
 * acpi_table.c: what every ACPI table parser uses (platform/acpi.h): the diagnostics sink
 * (`# acpi:` lines, off in host tests that feed malformed tables on purpose), the checksum
 * (ACPI 6.5 §5.2.6: all bytes of the table sum to zero), little-endian field readers, the
 * Generic Address Structure (§5.2.3.2), the subtable walk of MADT/SRAT-style tables, and the
 * mapping of one table with its header checks (§5.2.6: signature, length, checksum). A
 * table with a bad length or checksum is reported and left out. Pure C.
 */
#include "platform/acpi.h"
#include "kernel/console.h"
#include "kernel/fmt.h"

#include <stdarg.h>
#include <string.h>

static bool log_off;

void acpi_set_log(bool on)
{
	log_off = !on;
}

static void log_sink(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	console_write(s, n);
}

void acpi_log(const char *fmt, ...)
{
	va_list ap;

	if (log_off)
		return;
	va_start(ap, fmt);
	fmt_vformat(log_sink, NULL, fmt, ap);
	va_end(ap);
}

uint8_t acpi_checksum(const void *p, size_t len)
{
	const uint8_t *b = p;
	uint8_t sum = 0;

	for (size_t i = 0; i < len; i++)
		sum = (uint8_t)(sum + b[i]);
	return sum;
}

uint16_t acpi_rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

uint32_t acpi_rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
	       ((uint32_t)p[3] << 24);
}

uint64_t acpi_rd64(const uint8_t *p)
{
	return (uint64_t)acpi_rd32(p) | ((uint64_t)acpi_rd32(p + 4) << 32);
}

int acpi_subtable_next(const uint8_t *t, uint32_t len, uint32_t *off, const char *sig,
		       const uint8_t **e)
{
	uint8_t type, elen;

	if (*off + 2 > len)
		return 0;
	type = t[*off];
	elen = t[*off + 1];
	if (elen < 2 || *off + elen > len) {
		acpi_log("# acpi: %s entry type %u at offset %u has length %u (table %u): "
			 "rest ignored\n", sig, type, *off, elen, len);
		return -1;
	}
	*e = t + *off;
	*off += elen;
	return 1;
}

void acpi_rd_gas(const uint8_t *p, struct acpi_gas *g)
{
	g->space_id = p[0];
	g->bit_width = p[1];
	g->bit_offset = p[2];
	g->access_size = p[3];
	g->address = acpi_rd64(p + 4);
}

/* RSDP layout: "RSD PTR " 0..7, checksum 8, OEMID 9..14, revision 15, RSDT 16..19,
 * then (revision >= 2) Length 20..23, XSDT 24..31, extended checksum 32. */
const uint8_t *acpi_map_table(acpi_map_fn map, void *ctx, uint64_t phys, const char *sig,
			      uint32_t *len_out)
{
	const uint8_t *h = map(ctx, phys, ACPI_HDR_LEN);
	const uint8_t *t;
	uint32_t len;

	if (!h) {
		acpi_log("# acpi: table at 0x%llx not mappable\n", (unsigned long long)phys);
		return NULL;
	}
	if (sig && memcmp(h, sig, 4) != 0) {
		acpi_log("# acpi: table at 0x%llx: signature is not %.4s\n",
			(unsigned long long)phys, sig);
		return NULL;
	}
	len = acpi_rd32(h + 4);
	if (len < ACPI_HDR_LEN || len > ACPI_MAX_TABLE_LEN) {
		acpi_log("# acpi: %.4s at 0x%llx: length %u invalid, ignored\n", (const char *)h,
			(unsigned long long)phys, len);
		return NULL;
	}
	t = map(ctx, phys, len);
	if (!t) {
		acpi_log("# acpi: %.4s at 0x%llx: length %u runs past mappable memory, ignored\n",
			(const char *)h, (unsigned long long)phys, len);
		return NULL;
	}
	if (acpi_checksum(t, len) != 0) {
		acpi_log("# acpi: %.4s at 0x%llx: checksum bad, ignored\n", (const char *)t,
			(unsigned long long)phys);
		return NULL;
	}
	*len_out = len;
	return t;
}
