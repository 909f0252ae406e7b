/*
 * acpi_image.c: the ACPI image the ACPI host tests parse: an RSDP, RSDT, XSDT, MADT, SPCR,
 * HPET, FADT and DSDT laid out in a buffer of exactly the image's size ("physical memory", so
 * ASan sees any read past it), with helpers to build and re-checksum tables (ACPI 6.5 5.2).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "platform/acpi.h"
#include "stubs/console_capture.h"
#include "host/acpi_image.h"

const void *map(void *ctx, uint64_t phys, uint64_t len)
{
	struct phys *p = ctx;

	if (phys > p->size || len > p->size - phys)
		return NULL;
	return p->mem + phys;
}

void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }
void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }

void gas(uint8_t *p, uint8_t space, uint8_t width, uint8_t access, uint64_t addr)
{
	p[0] = space; p[1] = width; p[2] = 0; p[3] = access;
	put64(p + 4, addr);
}

/* Table header with a correct checksum over `len` (call fix() after editing the body). */
void fix(uint8_t *t)
{
	uint32_t len = t[4] | t[5] << 8 | t[6] << 16 | (uint32_t)t[7] << 24;

	t[9] = 0;
	t[9] = (uint8_t)(0x100 - acpi_checksum(t, len));
}

uint8_t *hdr(uint8_t *t, const char *sig, uint32_t len, uint8_t rev)
{
	memset(t, 0, len);
	memcpy(t, sig, 4);
	put32(t + 4, len);
	t[8] = rev;
	memcpy(t + 10, "PEBSOK", 6);
	return t;
}

uint8_t rsdp[36];

void make_rsdp(uint8_t rev, uint32_t rsdt, uint64_t xsdt)
{
	memset(rsdp, 0, sizeof(rsdp));
	memcpy(rsdp, "RSD PTR ", 8);
	memcpy(rsdp + 9, "OEMIDX", 6);
	rsdp[15] = rev;
	put32(rsdp + 16, rsdt);
	rsdp[8] = (uint8_t)(0x100 - acpi_checksum(rsdp, 20));
	if (rev >= 2) {
		put32(rsdp + 20, 36);
		put64(rsdp + 24, xsdt);
		rsdp[32] = (uint8_t)(0x100 - acpi_checksum(rsdp, 36));
	}
}

struct phys img;
struct acpi_info ai;

void build_madt(uint8_t *t)
{
	uint8_t *e;

	hdr(t, "APIC", 44 + 8 + 8 + 8 + 16 + 12 + 12, 5);	/* revision 5: Online Capable defined */
	put32(t + 36, 0xfee00000);
	put32(t + 40, 1);
	e = t + 44;	/* lapic uid 0 id 0 enabled */
	e[0] = 0; e[1] = 8; e[2] = 0; e[3] = 0; put32(e + 4, 1);
	e += 8;		/* lapic uid 1 id 2 online-capable only */
	e[0] = 0; e[1] = 8; e[2] = 1; e[3] = 2; put32(e + 4, 2);
	e += 8;		/* lapic uid 2 id 4 disabled */
	e[0] = 0; e[1] = 8; e[2] = 2; e[3] = 4; put32(e + 4, 0);
	e += 8;		/* x2apic id 0x100 uid 3 enabled */
	e[0] = 9; e[1] = 16; put32(e + 4, 0x100); put32(e + 8, 1); put32(e + 12, 3);
	e += 16;	/* ioapic */
	e[0] = 1; e[1] = 12; put32(e + 4, 0xfec00000);
	e += 12;	/* lapic address override */
	e[0] = 5; e[1] = 12; put64(e + 4, 0x1fee00000ull);
	fix(t);
}

void build_spcr(uint8_t *t, uint8_t type, uint8_t space, uint8_t access,
		       uint64_t base, uint8_t baud)
{
	hdr(t, "SPCR", 80, 2);
	t[36] = type;
	gas(t + 40, space, 8, access, base);
	t[58] = baud;
	put16(t + 64, 0xffff);
	put16(t + 66, 0xffff);
	fix(t);
}

const uint8_t s5_aml[] = {
	0x08, '_', 'S', '5', '_', 0x12, 0x08, 0x04, 0x0a, 0x05, 0x0a, 0x06, 0x00, 0x00,
};

void build_image(void)
{
	uint8_t *m;

	img.size = IMG;
	img.mem = m = calloc(1, IMG);
	assert_non_null(m);
	hdr(m + RSDT, "RSDT", 36 + 4 * 5, 1);
	put32(m + RSDT + 36, MADT);
	put32(m + RSDT + 40, SPCR);
	put32(m + RSDT + 44, HPET);
	put32(m + RSDT + 48, FADT);
	put32(m + RSDT + 52, 0);	/* a null entry */
	fix(m + RSDT);
	hdr(m + XSDT, "XSDT", 36 + 8 * 4, 1);
	put64(m + XSDT + 36, MADT);
	put64(m + XSDT + 44, SPCR);
	put64(m + XSDT + 52, HPET);
	put64(m + XSDT + 60, FADT);
	fix(m + XSDT);
	build_madt(m + MADT);
	build_spcr(m + SPCR, SPCR_IF_16550, ACPI_AS_IO, 1, 0x2f8, 7);
	hdr(m + HPET, "HPET", 56, 1);
	put32(m + HPET + 36, 0x8086a201);
	gas(m + HPET + 40, ACPI_AS_MEMORY, 64, 0, 0xfed00000);
	fix(m + HPET);
	hdr(m + FADT, "FACP", 276, 6);
	put32(m + FADT + 40, DSDT);
	put32(m + FADT + 64, 0x604);
	put16(m + FADT + 109, 2);
	put32(m + FADT + 112, 1u << 10);
	gas(m + FADT + 116, ACPI_AS_IO, 8, 1, 0xcf9);
	m[FADT + 128] = 0x06;
	fix(m + FADT);
	hdr(m + DSDT, "DSDT", 36 + 20 + sizeof(s5_aml), 2);
	memcpy(m + DSDT + 36 + 20, s5_aml, sizeof(s5_aml));
	fix(m + DSDT);
}

int acpi_img_setup(void **state)
{
	static struct acpi_cpu cpus[64];	/* the MADT's processors (platform/acpi.h) */

	(void)state;
	ai.madt.cpu = cpus;
	ai.madt.cap = 64;
	build_image();
	stub_console_reset();
	return 0;
}

int acpi_img_teardown(void **state)
{
	(void)state;
	free(img.mem);
	return 0;
}

bool acpi_said(const char *s)
{
	return strstr(stub_console_text(), s) != NULL;
}
