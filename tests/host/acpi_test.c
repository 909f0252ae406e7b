/*
 * acpi_test.c: the RSDP/RSDT/XSDT walk against an ACPI image built in memory
 * (tests/host/acpi_image.c; ACPI 6.5 ch. 5): v1 and v2 RSDPs, bad checksums and extended
 * checksums, a bad XSDT falling back to the RSDT, tables with bad checksums or truncated, and
 * random corruption of the whole image under ASan (no read may leave the mapped ranges).
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
	assert_true(acpi_said("RSDP checksum bad"));
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
	assert_true(acpi_said("extended checksum bad"));
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
	assert_true(acpi_said("XSDT at 0x100: checksum bad"));
	assert_true(acpi_said("fell back to the RSDT"));
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
	assert_true(acpi_said("SPCR at 0x300: checksum bad, ignored"));
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
	assert_true(acpi_said("runs past mappable memory"));
	/* A table with Length < 36, and one pointing outside memory. */
	stub_console_reset();
	put32(img.mem + HPET + 4, 20);
	put64(img.mem + XSDT + 44, 0x10000000);
	fix(img.mem + XSDT);
	assert_int_equal(acpi_init(&ai, rsdp, 36, map, &img), 0);
	assert_int_equal(ai.nbad, 2);
	assert_true(acpi_said("HPET at 0x380: length 20 invalid"));
	assert_true(acpi_said("not mappable"));
	assert_int_equal(ai.ntables, 2);
}

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
		assert_true(ai.madt.ncpus <= ai.madt.cap && ai.madt.cpu);
	}
	free(orig);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rsdp_v1_rsdt, acpi_img_setup, acpi_img_teardown),
		cmocka_unit_test_setup_teardown(test_rsdp_v2_xsdt, acpi_img_setup, acpi_img_teardown),
		cmocka_unit_test_setup_teardown(test_rsdp_bad, acpi_img_setup, acpi_img_teardown),
		cmocka_unit_test_setup_teardown(test_rsdp_v2_bad_extended, acpi_img_setup, acpi_img_teardown),
		cmocka_unit_test_setup_teardown(test_xsdt_bad_falls_back, acpi_img_setup, acpi_img_teardown),
		cmocka_unit_test_setup_teardown(test_table_bad_checksum_ignored, acpi_img_setup, acpi_img_teardown),
		cmocka_unit_test_setup_teardown(test_table_truncated, acpi_img_setup, acpi_img_teardown),
		cmocka_unit_test_setup_teardown(test_random_corruption, acpi_img_setup, acpi_img_teardown),
	};
	return cmocka_run_group_tests_name("acpi", tests, NULL, NULL);
}
