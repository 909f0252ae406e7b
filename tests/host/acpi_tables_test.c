/*
 * acpi_tables_test.c: the MADT, SPCR, HPET and FADT parsers and the \_S5 scan against tables
 * built in memory (tests/host/acpi_image.c; ACPI 6.5 ch. 5, the SPCR specification), good and
 * malformed: zero-length and overrunning MADT entries, every SPCR interface and address form,
 * FADT without a reset register, the byte forms \_S5 takes in AML.
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

static struct acpi_cpu cpus[16];

static void test_madt_malformed(void **state)
{
	uint8_t t[44 + 8 + 8 + 4];
	static struct acpi_madt m = { .cpu = cpus, .cap = 16 };

	(void)state;
	hdr(t, "APIC", sizeof(t), 4);
	put32(t + 36, 0xfee00000);
	t[44] = 0; t[45] = 8; t[47] = 1; put32(t + 48, 1);
	t[52] = 0; t[53] = 0;		/* length 0: must stop, not loop */
	assert_int_equal(acpi_parse_madt(t, sizeof(t), &m), 0);
	assert_int_equal(m.ncpus, 1);
	assert_true(acpi_said("has length 0"));
	t[53] = 40;			/* runs past the table */
	assert_int_equal(acpi_parse_madt(t, sizeof(t), &m), 0);
	assert_int_equal(m.ncpus, 1);
	t[52] = 9; t[53] = 8;		/* x2APIC entry too short for its type */
	assert_int_equal(acpi_parse_madt(t, sizeof(t), &m), 0);
	assert_int_equal(m.ncpus, 1);
	assert_true(acpi_said("too short"));
	assert_int_equal(acpi_parse_madt(t, 40, &m), -1);
	/* The same APIC ID as type 0 and type 9: one processor. */
	t[52] = 0; t[53] = 8; t[55] = 1; put32(t + 56, 1);
	assert_int_equal(acpi_parse_madt(t, 60, &m), 0);
	assert_int_equal(m.ncpus, 1);
}

/* MADT flags and IDs the bring-up relies on: Online Capable only from revision 5, the
 * broadcast IDs never name a processor, an x2APIC entry cut by the table end is not read. */
static void test_madt_flags_ids(void **state)
{
	uint8_t t[44 + 8 + 8 + 16 + 16];
	static struct acpi_madt m = { .cpu = cpus, .cap = 16 };

	(void)state;
	hdr(t, "APIC", sizeof(t), 4);
	put32(t + 36, 0xfee00000);
	t[44] = 0; t[45] = 8; t[46] = 1; t[47] = 1; put32(t + 48, 2);	/* online-capable only */
	t[52] = 0; t[53] = 8; t[54] = 2; t[55] = 0xff; put32(t + 56, 1);	/* broadcast ID */
	t[60] = 9; t[61] = 16; put32(t + 64, 0xffffffffu); put32(t + 68, 1); put32(t + 72, 3);
	t[76] = 9; t[77] = 16; put32(t + 80, 7); put32(t + 84, 1); put32(t + 88, 4);
	assert_int_equal(acpi_parse_madt(t, sizeof(t), &m), 0);
	assert_int_equal(m.revision, 4);
	assert_int_equal(m.ncpus, 1);		/* only x2APIC ID 7 */
	assert_int_equal(m.cpu[0].apic_id, 7);
	assert_true(m.cpu[0].x2apic && m.cpu[0].enabled);
	assert_int_equal(m.ncpus_disabled, 1);	/* bit 1 is reserved before revision 5 */
	assert_int_equal(m.ncpus_invalid, 2);
	assert_true(acpi_said("broadcast APIC ID"));
	t[8] = 5;
	assert_int_equal(acpi_parse_madt(t, sizeof(t), &m), 0);
	assert_int_equal(m.ncpus, 2);
	assert_true(m.cpu[0].online_capable && !m.cpu[0].enabled);
	/* the last x2APIC entry cut short by the table's end: not read, nothing recorded */
	assert_int_equal(acpi_parse_madt(t, sizeof(t) - 4, &m), 0);
	assert_int_equal(m.ncpus, 1);
	assert_true(acpi_said("rest ignored"));
}

/* One processor entry: type 0 (xAPIC ID < 255) or type 9, enabled, UID = i. */
static void put_cpu(uint8_t *t, uint32_t *off, uint32_t id, uint32_t uid, bool x2)
{
	uint8_t *e = t + *off;

	if (x2) {
		e[0] = 9; e[1] = 16; put32(e + 4, id); put32(e + 8, 1); put32(e + 12, uid);
		*off += 16;
	} else {
		e[0] = 0; e[1] = 8; e[2] = (uint8_t)uid; e[3] = (uint8_t)id; put32(e + 4, 1);
		*off += 8;
	}
}

/* Many processors (more than 4096, x2APIC IDs past 255): a first parse without storage counts
 * them, a second into cpu[] of that size keeps every one; too small a cpu[] counts the rest
 * and says so; nothing is written past cap. */
static void test_madt_many(void **state)
{
	enum { N = 5000 };
	static uint8_t t[44 + N * 16];
	static struct acpi_cpu big[N + 1];
	static struct acpi_madt m;

	(void)state;
	hdr(t, "APIC", sizeof(t), 5);
	for (unsigned i = 0; i < N; i++) {
		uint32_t off = 44 + i * 16;

		put_cpu(t, &off, 1000 + i, i, true);
	}
	m = (struct acpi_madt){ 0 };
	assert_int_equal(acpi_parse_madt(t, sizeof(t), &m), 0);	/* count only */
	assert_int_equal(m.ncpus, 0);
	assert_int_equal(m.ncpus_dropped, N);
	m.cpu = big;
	m.cap = m.ncpus_dropped;
	big[N].apic_id = 0xdeadbeef;
	assert_int_equal(acpi_parse_madt(t, sizeof(t), &m), 0);
	assert_int_equal(m.ncpus, N);
	assert_int_equal(m.ncpus_dropped, 0);
	assert_int_equal(m.cpu[N - 1].apic_id, 1000 + N - 1);
	assert_int_equal(m.cpu[4096].uid, 4096);
	assert_int_equal(big[N].apic_id, 0xdeadbeef);
	m.cap = 4096;
	stub_console_reset();
	assert_int_equal(acpi_parse_madt(t, sizeof(t), &m), 0);
	assert_int_equal(m.ncpus, 4096);
	assert_int_equal(m.ncpus_dropped, N - 4096);
	assert_int_equal(big[4096].apic_id, 1000 + 4096);	/* left as the last parse wrote it */
	assert_true(acpi_said("lists 5000 usable processors, room for 4096: 904 not recorded"));
}

/* QEMU's form past 255 CPUs (QEMU hw/i386/acpi-common.c pc_madt_cpu_entry: type 0 below
 * APIC ID 255, type 9 from 255): 300 processors, IDs 0-299,
 * every one recorded once, in table order, with its 32-bit ID. */
static void test_madt_x2apic_300(void **state)
{
	enum { N = 300 };
	static uint8_t t[44 + N * 16];
	static struct acpi_cpu c[N];
	static struct acpi_madt m;
	uint32_t off = 44;

	(void)state;
	hdr(t, "APIC", 44 + 255 * 8 + (N - 255) * 16, 5);
	for (unsigned i = 0; i < N; i++)
		put_cpu(t, &off, i, i, i >= 255);
	m = (struct acpi_madt){ .cpu = c, .cap = N };
	assert_int_equal(acpi_parse_madt(t, off, &m), 0);
	assert_int_equal(m.ncpus, N);
	assert_int_equal(m.ncpus_dup + m.ncpus_dropped + m.ncpus_invalid, 0);
	for (unsigned i = 0; i < N; i++) {
		assert_int_equal(m.cpu[i].apic_id, i);
		assert_int_equal(m.cpu[i].x2apic, i >= 255);
	}
}

/* Thousands of entries all naming APIC ID 0 (types 0 and 9): one processor, the rest counted
 * as repeats and said in one line, in linear time (the ID bit set, no list scan). */
static void test_madt_all_zero_ids(void **state)
{
	enum { N = 6000 };
	static uint8_t t[44 + N * 16];
	static struct acpi_cpu c[4];
	static struct acpi_madt m;
	uint32_t off = 44;

	(void)state;
	hdr(t, "APIC", 44 + (N / 2) * 8 + (N / 2) * 16, 5);
	for (unsigned i = 0; i < N; i++)
		put_cpu(t, &off, 0, i, i >= N / 2);
	m = (struct acpi_madt){ .cpu = c, .cap = 4 };
	stub_console_reset();
	assert_int_equal(acpi_parse_madt(t, off, &m), 0);
	assert_int_equal(m.ncpus, 1);
	assert_int_equal(m.cpu[0].uid, 0);
	assert_int_equal(m.ncpus_dup, N - 1);
	assert_int_equal(m.ncpus_dropped, 0);
	assert_true(acpi_said("5999 processor entries repeat an APIC ID"));
}

/* Hostile lists: the same IDs listed twice (types 0 and 9, and 9 twice), and IDs past the
 * limit: each recorded once, the repeats and the too-high IDs counted and reported. */
static void test_madt_dups_high(void **state)
{
	static uint8_t t[44 + 64 * 16];
	static struct acpi_cpu c[64];
	static struct acpi_madt m;
	uint32_t off = 44;

	(void)state;
	hdr(t, "APIC", 44 + 8 * 8 + 11 * 16, 5);
	for (unsigned i = 0; i < 8; i++)
		put_cpu(t, &off, i, i, false);
	for (unsigned i = 0; i < 8; i++)
		put_cpu(t, &off, i, 100 + i, true);		/* the same 8 as type 9 */
	put_cpu(t, &off, 7, 200, true);				/* and once more */
	put_cpu(t, &off, ACPI_APIC_ID_LIMIT, 300, true);
	put_cpu(t, &off, 0xfffffffeu, 301, true);
	m = (struct acpi_madt){ .cpu = c, .cap = 64 };
	stub_console_reset();
	assert_int_equal(acpi_parse_madt(t, off, &m), 0);
	assert_int_equal(m.ncpus, 8);
	assert_int_equal(m.cpu[7].uid, 7);		/* the first entry stays */
	assert_int_equal(m.ncpus_dup, 9);
	assert_int_equal(m.ncpus_high, 2);
	assert_true(acpi_said("9 processor entries repeat an APIC ID"));
	assert_true(acpi_said("2 processors with APIC IDs >= 32768 left out"));
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
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_madt, acpi_img_setup, acpi_img_teardown),
		cmocka_unit_test_setup_teardown(test_madt_malformed, acpi_img_setup, acpi_img_teardown),
		cmocka_unit_test_setup_teardown(test_madt_flags_ids, acpi_img_setup, acpi_img_teardown),
		cmocka_unit_test_setup_teardown(test_madt_many, acpi_img_setup, acpi_img_teardown),
		cmocka_unit_test(test_madt_x2apic_300),
		cmocka_unit_test(test_madt_dups_high),
		cmocka_unit_test(test_madt_all_zero_ids),
		cmocka_unit_test_setup_teardown(test_spcr_io, acpi_img_setup, acpi_img_teardown),
		cmocka_unit_test_setup_teardown(test_spcr_variants, acpi_img_setup, acpi_img_teardown),
		cmocka_unit_test_setup_teardown(test_hpet, acpi_img_setup, acpi_img_teardown),
		cmocka_unit_test_setup_teardown(test_fadt_reset_and_s5, acpi_img_setup, acpi_img_teardown),
		cmocka_unit_test_setup_teardown(test_fadt_no_reset_reg, acpi_img_setup, acpi_img_teardown),
		cmocka_unit_test_setup_teardown(test_s5_forms, acpi_img_setup, acpi_img_teardown),
	};
	return cmocka_run_group_tests_name("acpi_tables", tests, NULL, NULL);
}
