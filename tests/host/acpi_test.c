/*
 * acpi_test.c: RSDP/RSDT/XSDT walk, MADT, SPCR, HPET, FADT and the \_S5 scan against tables
 * built in memory (ACPI 6.5 ch. 5, SPCR spec), good and malformed: bad checksums, bad
 * lengths, truncated tables, zero-length MADT entries, and random corruption of a whole
 * image under ASan (no read may leave the mapped ranges).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/acpi.h"
#include "stubs/console_capture.h"

/* "Physical memory": exactly `size` bytes, so ASan sees any read past it. */
struct phys {
	uint8_t *mem;
	size_t size;
};

static const void *map(void *ctx, uint64_t phys, uint64_t len)
{
	struct phys *p = ctx;

	if (phys > p->size || len > p->size - phys)
		return NULL;
	return p->mem + phys;
}

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }

static void gas(uint8_t *p, uint8_t space, uint8_t width, uint8_t access, uint64_t addr)
{
	p[0] = space; p[1] = width; p[2] = 0; p[3] = access;
	put64(p + 4, addr);
}

/* Table header with a correct checksum over `len` (call fix() after editing the body). */
static void fix(uint8_t *t)
{
	uint32_t len = t[4] | t[5] << 8 | t[6] << 16 | (uint32_t)t[7] << 24;

	t[9] = 0;
	t[9] = (uint8_t)(0x100 - acpi_checksum(t, len));
}

static uint8_t *hdr(uint8_t *t, const char *sig, uint32_t len, uint8_t rev)
{
	memset(t, 0, len);
	memcpy(t, sig, 4);
	put32(t + 4, len);
	t[8] = rev;
	memcpy(t + 10, "PEBSOK", 6);
	return t;
}

static uint8_t rsdp[36];

static void make_rsdp(uint8_t rev, uint32_t rsdt, uint64_t xsdt)
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

/* Layout of the standard image. */
enum { RSDT = 0x40, XSDT = 0x100, MADT = 0x200, SPCR = 0x300, HPET = 0x380,
       FADT = 0x400, DSDT = 0x600, IMG = 0x700 };

static struct phys img;
static struct acpi_info ai;

static void build_madt(uint8_t *t)
{
	uint8_t *e;

	hdr(t, "APIC", 44 + 8 + 8 + 8 + 16 + 12 + 12, 4);
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

static void build_spcr(uint8_t *t, uint8_t type, uint8_t space, uint8_t access,
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

static const uint8_t s5_aml[] = {
	0x08, '_', 'S', '5', '_', 0x12, 0x08, 0x04, 0x0a, 0x05, 0x0a, 0x06, 0x00, 0x00,
};

static void build_image(void)
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

static int setup(void **state)
{
	(void)state;
	build_image();
	stub_console_reset();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(img.mem);
	return 0;
}

static bool said(const char *s)
{
	return strstr(stub_console_text(), s) != NULL;
}

static void test_rsdp_v1_rsdt(void **state)
{
	(void)state;
	make_rsdp(0, RSDT, 0);
	assert_int_equal(acpi_init(&ai, rsdp, 20, map, &img), 0);
	assert_true(ai.valid);
	assert_false(ai.xsdt);
	assert_string_equal(ai.oem_id, "OEMIDX");
	assert_int_equal(ai.ntables, 4);
	assert_int_equal(ai.nbad, 1);	/* the null entry */
	assert_non_null(acpi_find(&ai, "APIC"));
	assert_non_null(acpi_find(&ai, "FACP"));
	assert_null(acpi_find(&ai, "DMAR"));
	assert_true(ai.have_madt && ai.have_spcr && ai.have_hpet && ai.have_fadt);
}

static void test_rsdp_v2_xsdt(void **state)
{
	(void)state;
	make_rsdp(2, RSDT, XSDT);
	assert_int_equal(acpi_init(&ai, rsdp, 36, map, &img), 0);
	assert_true(ai.xsdt);
	assert_int_equal(ai.root_phys, XSDT);
	assert_int_equal(ai.ntables, 4);
	assert_int_equal(ai.nbad, 0);
}

static void test_rsdp_bad(void **state)
{
	(void)state;
	make_rsdp(0, RSDT, 0);
	rsdp[8] ^= 1;
	assert_int_equal(acpi_init(&ai, rsdp, 20, map, &img), -1);
	assert_false(ai.valid);
	assert_true(said("RSDP checksum bad"));
	make_rsdp(0, RSDT, 0);
	rsdp[0] = 'X';
	assert_int_equal(acpi_init(&ai, rsdp, 20, map, &img), -1);
	assert_int_equal(acpi_init(&ai, rsdp, 12, map, &img), -1);	/* short tag */
	assert_int_equal(acpi_init(&ai, NULL, 0, map, &img), -1);
}

/* v2 with a bad extended checksum: the v1 part is fine, so use the RSDT. */
static void test_rsdp_v2_bad_extended(void **state)
{
	(void)state;
	make_rsdp(2, RSDT, XSDT);
	rsdp[32] ^= 0x55;
	assert_int_equal(acpi_init(&ai, rsdp, 36, map, &img), 0);
	assert_false(ai.xsdt);
	assert_true(said("extended checksum bad"));
	/* Length field larger than the tag: not read past the tag. */
	make_rsdp(2, RSDT, XSDT);
	put32(rsdp + 20, 1000);
	assert_int_equal(acpi_init(&ai, rsdp, 36, map, &img), 0);
	assert_false(ai.xsdt);
}

static void test_xsdt_bad_falls_back(void **state)
{
	(void)state;
	make_rsdp(2, RSDT, XSDT);
	img.mem[XSDT + 20] ^= 0xff;	/* corrupt the XSDT body */
	assert_int_equal(acpi_init(&ai, rsdp, 36, map, &img), 0);
	assert_false(ai.xsdt);
	assert_true(said("XSDT at 0x100: checksum bad"));
	assert_true(said("fell back to the RSDT"));
	assert_true(ai.have_madt);
}

static void test_table_bad_checksum_ignored(void **state)
{
	(void)state;
	img.mem[SPCR + 40 + 4] ^= 1;	/* base address changed, checksum not fixed */
	make_rsdp(2, RSDT, XSDT);
	assert_int_equal(acpi_init(&ai, rsdp, 36, map, &img), 0);
	assert_int_equal(ai.nbad, 1);
	assert_null(acpi_find(&ai, "SPCR"));
	assert_false(ai.have_spcr);
	assert_true(said("SPCR at 0x300: checksum bad, ignored"));
}

static void test_table_truncated(void **state)
{
	(void)state;
	/* DSDT claims to run 0x200 bytes past the end of memory. */
	put32(img.mem + DSDT + 4, IMG - DSDT + 0x200);
	fix(img.mem + FADT);
	make_rsdp(2, RSDT, XSDT);
	assert_int_equal(acpi_init(&ai, rsdp, 36, map, &img), 0);
	assert_false(ai.s5.found);
	assert_true(said("runs past mappable memory"));
	/* A table with Length < 36, and one pointing outside memory. */
	stub_console_reset();
	put32(img.mem + HPET + 4, 20);
	put64(img.mem + XSDT + 44, 0x10000000);
	fix(img.mem + XSDT);
	assert_int_equal(acpi_init(&ai, rsdp, 36, map, &img), 0);
	assert_int_equal(ai.nbad, 2);
	assert_true(said("HPET at 0x380: length 20 invalid"));
	assert_true(said("not mappable"));
	assert_int_equal(ai.ntables, 2);
}

static void test_madt(void **state)
{
	struct acpi_madt *m = &ai.madt;

	(void)state;
	make_rsdp(2, RSDT, XSDT);
	assert_int_equal(acpi_init(&ai, rsdp, 36, map, &img), 0);
	assert_true(ai.have_madt);
	assert_int_equal(m->lapic_addr, 0x1fee00000ull);
	assert_true(m->lapic_override);
	assert_true(m->pcat_compat);
	assert_int_equal(m->ncpus, 3);
	assert_int_equal(m->ncpus_disabled, 1);
	assert_int_equal(m->nioapic, 1);
	assert_int_equal(m->cpu[0].apic_id, 0);
	assert_true(m->cpu[0].enabled);
	assert_int_equal(m->cpu[1].apic_id, 2);
	assert_false(m->cpu[1].enabled);
	assert_true(m->cpu[1].online_capable);
	assert_int_equal(m->cpu[2].apic_id, 0x100);
	assert_int_equal(m->cpu[2].uid, 3);
	assert_true(m->cpu[2].x2apic);
}

static void test_madt_malformed(void **state)
{
	uint8_t t[44 + 8 + 8 + 4];
	struct acpi_madt m;

	(void)state;
	hdr(t, "APIC", sizeof(t), 4);
	put32(t + 36, 0xfee00000);
	t[44] = 0; t[45] = 8; t[47] = 1; put32(t + 48, 1);
	t[52] = 0; t[53] = 0;		/* length 0: must stop, not loop */
	assert_int_equal(acpi_parse_madt(t, sizeof(t), &m), 0);
	assert_int_equal(m.ncpus, 1);
	assert_true(said("has length 0"));
	t[53] = 40;			/* runs past the table */
	assert_int_equal(acpi_parse_madt(t, sizeof(t), &m), 0);
	assert_int_equal(m.ncpus, 1);
	t[52] = 9; t[53] = 8;		/* x2APIC entry too short for its type */
	assert_int_equal(acpi_parse_madt(t, sizeof(t), &m), 0);
	assert_int_equal(m.ncpus, 1);
	assert_true(said("too short"));
	assert_int_equal(acpi_parse_madt(t, 40, &m), -1);
	/* The same APIC ID as type 0 and type 9: one processor. */
	t[52] = 0; t[53] = 8; t[55] = 1; put32(t + 56, 1);
	assert_int_equal(acpi_parse_madt(t, 60, &m), 0);
	assert_int_equal(m.ncpus, 1);
}

static void test_spcr_io(void **state)
{
	(void)state;
	make_rsdp(2, RSDT, XSDT);
	assert_int_equal(acpi_init(&ai, rsdp, 36, map, &img), 0);
	assert_true(ai.have_spcr);
	assert_true(ai.spcr.usable);
	assert_false(ai.spcr.mmio);
	assert_int_equal(ai.spcr.base, 0x2f8);
	assert_int_equal(ai.spcr.reg_width, 1);
	assert_int_equal(ai.spcr.baud, 115200);
	assert_int_equal(ai.spcr.pci_vendor, 0xffff);
}

static void test_spcr_variants(void **state)
{
	uint8_t t[88];
	struct acpi_spcr s;

	(void)state;
	/* MMIO 16550 with 32-bit registers (GAS access size 3), baud "as is". */
	build_spcr(t, SPCR_IF_16550_GAS, ACPI_AS_MEMORY, 3, 0xfe032000, 0);
	assert_int_equal(acpi_parse_spcr(t, 80, &s), 0);
	assert_true(s.usable && s.mmio);
	assert_int_equal(s.base, 0xfe032000);
	assert_int_equal(s.reg_width, 4);
	assert_int_equal(s.baud, 0);
	/* Access size undefined: bit width 32 decides. */
	build_spcr(t, SPCR_IF_16550, ACPI_AS_MEMORY, 0, 0xfe032000, 6);
	t[41] = 32;
	assert_int_equal(acpi_parse_spcr(t, 80, &s), 0);
	assert_int_equal(s.reg_width, 4);
	assert_int_equal(s.baud, 57600);
	/* 16450 subset on I/O. */
	build_spcr(t, SPCR_IF_16450, ACPI_AS_IO, 1, 0x3f8, 3);
	assert_int_equal(acpi_parse_spcr(t, 80, &s), 0);
	assert_true(s.usable);
	assert_int_equal(s.baud, 9600);
	/* ARM PL011 (type 3): parsed but not usable here. */
	build_spcr(t, 0x03, ACPI_AS_MEMORY, 3, 0x9000000, 7);
	assert_int_equal(acpi_parse_spcr(t, 80, &s), 0);
	assert_false(s.usable);
	assert_non_null(s.why);
	/* PCI config space base, zero base, I/O base out of range: not usable. */
	build_spcr(t, SPCR_IF_16550, ACPI_AS_PCI_CFG, 1, 0x10, 7);
	assert_int_equal(acpi_parse_spcr(t, 80, &s), 0);
	assert_false(s.usable);
	build_spcr(t, SPCR_IF_16550, ACPI_AS_IO, 1, 0, 7);
	assert_int_equal(acpi_parse_spcr(t, 80, &s), 0);
	assert_false(s.usable);
	build_spcr(t, SPCR_IF_16550, ACPI_AS_IO, 1, 0x10000, 7);
	assert_int_equal(acpi_parse_spcr(t, 80, &s), 0);
	assert_false(s.usable);
	/* Revision 4: Precise Baud Rate wins; revision 3: UART clock. */
	build_spcr(t, SPCR_IF_16550, ACPI_AS_IO, 1, 0x3f8, 7);
	t[8] = 4;
	put32(t + 76, 1843200);
	put32(t + 4, 88);
	put32(t + 80, 1500000);
	assert_int_equal(acpi_parse_spcr(t, 88, &s), 0);
	assert_int_equal(s.baud, 1500000);
	assert_int_equal(s.uart_clock, 1843200);
	/* Too short. */
	assert_int_equal(acpi_parse_spcr(t, 79, &s), -1);
}

static void test_hpet(void **state)
{
	uint8_t t[56];
	struct acpi_hpet h;

	(void)state;
	make_rsdp(2, RSDT, XSDT);
	assert_int_equal(acpi_init(&ai, rsdp, 36, map, &img), 0);
	assert_true(ai.have_hpet);
	assert_int_equal(ai.hpet.base, 0xfed00000);
	assert_int_equal(ai.hpet.block_id, 0x8086a201);
	hdr(t, "HPET", 56, 1);
	gas(t + 40, ACPI_AS_IO, 8, 0, 0x100);
	assert_int_equal(acpi_parse_hpet(t, 56, &h), -1);
	assert_int_equal(acpi_parse_hpet(t, 55, &h), -1);
}

static void test_fadt_reset_and_s5(void **state)
{
	(void)state;
	make_rsdp(2, RSDT, XSDT);
	assert_int_equal(acpi_init(&ai, rsdp, 36, map, &img), 0);
	assert_true(ai.have_fadt);
	assert_true(ai.fadt.reset_supported);
	assert_int_equal(ai.fadt.reset_reg.space_id, ACPI_AS_IO);
	assert_int_equal(ai.fadt.reset_reg.address, 0xcf9);
	assert_int_equal(ai.fadt.reset_value, 6);
	assert_int_equal(ai.fadt.pm1a_cnt.address, 0x604);
	assert_int_equal(ai.fadt.pm1a_cnt.space_id, ACPI_AS_IO);
	assert_true(ai.fadt.boot_arch & FADT_BOOT_ARCH_8042);
	assert_int_equal(ai.fadt.dsdt, DSDT);
	assert_true(ai.s5.found);
	assert_int_equal(ai.s5.slp_typa, 5);
	assert_int_equal(ai.s5.slp_typb, 6);
}

static void test_fadt_no_reset_reg(void **state)
{
	uint8_t t[276];
	struct acpi_fadt f;

	(void)state;
	hdr(t, "FACP", 116, 1);		/* ACPI 1.0 FADT: no RESET_REG */
	put32(t + 112, 1u << 10);
	assert_int_equal(acpi_parse_fadt(t, 116, &f), 0);
	assert_false(f.reset_supported);
	hdr(t, "FACP", 276, 6);		/* flag clear */
	gas(t + 116, ACPI_AS_IO, 8, 1, 0xcf9);
	assert_int_equal(acpi_parse_fadt(t, 276, &f), 0);
	assert_false(f.reset_supported);
	put32(t + 112, (1u << 10) | (1u << 20));
	put64(t + 140, 0x123456789ull);	/* X_DSDT wins */
	put32(t + 40, 0x1000);
	assert_int_equal(acpi_parse_fadt(t, 276, &f), 0);
	assert_true(f.reset_supported && f.hw_reduced);
	assert_int_equal(f.dsdt, 0x123456789ull);
	assert_int_equal(acpi_parse_fadt(t, 100, &f), -1);
}

static void test_s5_forms(void **state)
{
	uint8_t t[64];
	struct acpi_s5 s;
	static const uint8_t rooted[] = { 0x08, '\\', '_', 'S', '5', '_', 0x12, 0x06, 0x04,
					  0x01, 0x00, 0x00, 0x00 };
	static const uint8_t method[] = { 0x14, 0x06, '_', 'S', '5', '_', 0x12, 0x06 };
	static const uint8_t cut[] = { 0x08, '_', 'S', '5', '_', 0x12 };

	(void)state;
	hdr(t, "DSDT", 36 + sizeof(rooted), 2);
	memcpy(t + 36, rooted, sizeof(rooted));
	assert_int_equal(acpi_scan_s5(t, 36 + sizeof(rooted), &s), 0);
	assert_true(s.found);
	assert_int_equal(s.slp_typa, 1);
	assert_int_equal(s.slp_typb, 0);
	/* _S5_ as a method name (not NameOp): not taken. */
	hdr(t, "DSDT", 36 + sizeof(method), 2);
	memcpy(t + 36, method, sizeof(method));
	assert_int_equal(acpi_scan_s5(t, 36 + sizeof(method), &s), -1);
	assert_false(s.found);
	/* Package cut off by the end of the table: nothing read past it. */
	hdr(t, "DSDT", 36 + sizeof(cut), 2);
	memcpy(t + 36, cut, sizeof(cut));
	assert_int_equal(acpi_scan_s5(t, 36 + sizeof(cut), &s), -1);
}

/* Random corruption of the whole image, many rounds: only map()'s ranges may be read. */
static void test_random_corruption(void **state)
{
	uint32_t x = 12345;
	uint8_t *orig = malloc(IMG);

	(void)state;
	assert_non_null(orig);
	memcpy(orig, img.mem, IMG);
	for (int round = 0; round < 3000; round++) {
		memcpy(img.mem, orig, IMG);
		for (int k = 0; k < 1 + round % 8; k++) {
			x = x * 1103515245u + 12345u;
			uint32_t off = (x >> 8) % IMG;
			img.mem[off] = (uint8_t)(x >> 24);
		}
		/* Half the rounds: repair checksums so the parsers see the damage. */
		if (round & 1) {
			static const uint32_t at[] = { XSDT, MADT, SPCR, FADT, HPET };
			for (unsigned i = 0; i < 5; i++) {
				uint8_t *t = img.mem + at[i];
				uint32_t l = t[4] | t[5] << 8 | t[6] << 16 | (uint32_t)t[7] << 24;
				if (l >= 10 && l <= IMG - at[i])
					fix(t);
			}
		}
		make_rsdp(2, RSDT, XSDT);
		stub_console_reset();
		(void)acpi_init(&ai, rsdp, 36, map, &img);
		assert_true(ai.ntables <= ACPI_MAX_TABLES);
		assert_true(ai.madt.ncpus <= ACPI_MAX_CPUS);
	}
	free(orig);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rsdp_v1_rsdt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rsdp_v2_xsdt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rsdp_bad, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rsdp_v2_bad_extended, setup, teardown),
		cmocka_unit_test_setup_teardown(test_xsdt_bad_falls_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_bad_checksum_ignored, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_truncated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_madt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_madt_malformed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_spcr_io, setup, teardown),
		cmocka_unit_test_setup_teardown(test_spcr_variants, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hpet, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fadt_reset_and_s5, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fadt_no_reset_reg, setup, teardown),
		cmocka_unit_test_setup_teardown(test_s5_forms, setup, teardown),
		cmocka_unit_test_setup_teardown(test_random_corruption, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
