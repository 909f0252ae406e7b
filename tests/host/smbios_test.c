/*
 * smbios_test.c: the SMBIOS reader (platform/smbios.h) over tables built here the way
 * firmware lays them out (DSP0134 5.2.1/5.2.2 entry points, 6.1.2 structures and string
 * sets): both entry points and their checksums, the legacy scan and the EFI configuration
 * table, types 0, 1, 2, 4 and 17 with the extended and KiB sizes, channel letters from the
 * locators, and malformed tables (lengths past the end, unterminated strings, string
 * indexes past the set) read as far as they are sound and reported, never followed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "platform/smbios.h"

static uint8_t tab[4096];
static size_t tlen;

/* Append a structure: formatted area f (its length f[1]) then the strings, NUL-separated. */
static void put(const uint8_t *f, const char *const *strs, unsigned n)
{
	memcpy(tab + tlen, f, f[1]);
	tlen += f[1];
	for (unsigned i = 0; i < n; i++) {
		size_t l = strlen(strs[i]) + 1;

		memcpy(tab + tlen, strs[i], l);
		tlen += l;
	}
	if (!n)
		tab[tlen++] = 0;
	tab[tlen++] = 0;
}

static void dimm(uint16_t size, uint32_t ext, uint8_t type, uint16_t speed, const char *loc)
{
	uint8_t f[0x22] = { 17, 0x22 };
	const char *s[] = { loc, "BANK 0", "Samsung", "M321R4GA3BB6-CQK" };

	f[0x0c] = (uint8_t)size;
	f[0x0d] = (uint8_t)(size >> 8);
	memcpy(f + 0x1c, &ext, 4);
	f[0x10] = 1, f[0x11] = 2, f[0x17] = 3, f[0x1a] = 4;
	f[0x12] = type;
	f[0x15] = (uint8_t)speed, f[0x16] = (uint8_t)(speed >> 8);
	f[0x20] = (uint8_t)(speed - 400), f[0x21] = (uint8_t)((speed - 400) >> 8);
	put(f, s, 4);
}

static void machine(void)
{
	static const uint8_t t0[0x12] = { 0, 0x12, 0, 0, 1, 2, 0, 0, 3 };
	static const uint8_t t1[0x08] = { 1, 0x08, 1, 0, 1, 2, 3 };
	static const uint8_t t2[0x08] = { 2, 0x08, 2, 0, 1, 2, 0 };
	uint8_t t4[0x30] = { 4, 0x30, 3, 0, 1 };
	const char *b[] = { "LabBIOS Inc.", "2.17.1   ", "11/20/2026" };
	const char *sy[] = { "Acme", "Testbox \"9000\"", "R2" };
	const char *bd[] = { "Acme", "TB9-MB" };
	const char *cpu[] = { "CPU0", "Xeon 6" };

	tlen = 0;
	put(t0, b, 3);
	put(t1, sy, 3);
	put(t2, bd, 2);
	t4[0x10] = 2;
	t4[0x18] = 0x41;	/* populated, enabled */
	t4[0x23] = 0xff, t4[0x2a] = 0x80, t4[0x2b] = 0;	/* 128 cores: the 3.0 field */
	t4[0x25] = 0xff, t4[0x2e] = 0x00, t4[0x2f] = 1;	/* 256 threads */
	put(t4, cpu, 2);
	t4[0x18] = 0;		/* an empty socket */
	put(t4, cpu, 2);
	dimm(0x7fff, 65536, 0x22, 4800, "CPU0_DIMM_A1");	/* 64 GiB: extended size */
	dimm(0x7fff, 65536, 0x22, 4800, "P0 CHANNEL B");
	dimm(0, 0, 0x02, 0, "CPU0_DIMM_C1");			/* empty slot */
}

static void test_walk(void **state)
{
	struct smbios_entry e = { .major = 3, .minor = 7 };
	struct smbios_info s = { 0 };
	char b[200];

	(void)state;
	machine();
	smbios_walk(tab, tlen, &e, &s);
	s.ep = e;
	assert_string_equal(s.bios_vendor, "LabBIOS Inc.");
	assert_string_equal(s.bios_version, "2.17.1");		/* padding trimmed */
	assert_string_equal(s.sys_product, "Testbox ?9000?");	/* quotes never printed */
	assert_string_equal(s.board_version, "");		/* index 0: no string */
	assert_int_equal(s.sockets, 2);
	assert_int_equal(s.sockets_populated, 1);
	assert_int_equal(s.cores, 128);
	assert_int_equal(s.threads, 256);
	assert_int_equal(s.slots, 3);
	assert_int_equal(s.populated, 2);
	assert_int_equal(s.mem_mib, 131072);
	assert_string_equal(s.channels, "AB");
	assert_int_equal(s.bad, 0);
	s.present = true;
	assert_true(smbios_header_line(&s, 3, b, sizeof(b)));
	assert_string_equal(b, "smbios: memory 2 of 3 slots populated, 131072 MiB, DDR5 4800 "
			    "MT/s (configured 4400), channels AB; \"Samsung\" \"M321R4GA3BB6-CQK\"");
	assert_true(smbios_header_line(&s, 0, b, sizeof(b)));
	assert_string_equal(b, "smbios: bios \"LabBIOS Inc.\" version \"2.17.1\" date 11/20/2026 "
			    "(SMBIOS 3.7)");
	assert_false(smbios_header_line(&s, 4, b, sizeof(b)));
}

static void test_malformed(void **state)
{
	struct smbios_entry e = { .major = 2, .minor = 8 };
	struct smbios_info s = { 0 };
	static const uint8_t bad_idx[0x08] = { 1, 0x08, 1, 0, 1, 9, 3 };	/* index 9 of 1 */
	const char *one[] = { "Acme" };

	(void)state;
	tlen = 0;
	put(bad_idx, one, 1);
	smbios_walk(tab, tlen, &e, &s);
	assert_string_equal(s.sys_vendor, "Acme");
	assert_string_equal(s.sys_product, "");		/* past the set: nothing */
	machine();
	tab[tlen - 1] = 'x';			/* the last structure's strings never end */
	memset(&s, 0, sizeof(s));
	smbios_walk(tab, tlen, &e, &s);
	assert_int_equal(s.bad, 1);
	assert_int_equal(s.populated, 2);	/* the sound part is kept */
	assert_int_equal(s.slots, 2);
	assert_non_null(strstr(s.why, "strings not terminated"));
	machine();
	tab[1] = 0xff;				/* the first one runs past the table */
	memset(&s, 0, sizeof(s));
	smbios_walk(tab, 0x40, &e, &s);
	assert_int_equal(s.bad, 1);
	assert_int_equal(s.structures, 0);
}

/* Entry points: checksums, the _DMI_ part, and both found by the legacy scan ("_SM3_" first). */
static uint8_t low[0x10000 + 0x1000];

static void checksum(uint8_t *p, size_t n, size_t at)
{
	uint8_t s = 0;

	p[at] = 0;
	for (size_t i = 0; i < n; i++)
		s = (uint8_t)(s + p[i]);
	p[at] = (uint8_t)-s;
}

static const void *map_low(void *ctx, uint64_t phys, uint64_t len)
{
	(void)ctx;
	if (phys >= 0xf0000 && phys + len <= 0x100000)
		return low + (phys - 0xf0000);
	if (phys >= 0x100000 && phys + len <= 0x100000 + 0x1000)
		return low + 0x10000 + (phys - 0x100000);
	return NULL;
}

static void test_entry_and_scan(void **state)
{
	uint8_t *ep2 = low + 0x100, *ep3 = low + 0x800;
	struct smbios_info s;
	struct smbios_entry e;
	const char *why;

	(void)state;
	machine();
	memcpy(low + 0x10000, tab, tlen);
	memcpy(ep2, "_SM_", 4);
	ep2[5] = 0x1f, ep2[6] = 2, ep2[7] = 8;
	memcpy(ep2 + 0x10, "_DMI_", 5);
	ep2[0x16] = (uint8_t)tlen, ep2[0x17] = (uint8_t)(tlen >> 8);
	ep2[0x1a] = 0x10;	/* table at 0x100000 */
	ep2[0x1c] = 8;		/* structures */
	checksum(ep2 + 0x10, 15, 5);
	checksum(ep2, 0x1f, 4);
	assert_true(smbios_entry_parse(ep2, 32, &e, &why));
	assert_int_equal(e.table, 0x100000);
	smbios_read(&s, 0, map_low, NULL);
	assert_true(s.present);
	assert_int_equal(s.ep.major, 2);
	assert_string_equal(s.sys_vendor, "Acme");
	ep2[0x18]++;		/* a byte changed: the checksum no longer holds */
	assert_false(smbios_entry_parse(ep2, 32, &e, &why));
	assert_non_null(strstr(why, "checksum"));
	smbios_read(&s, 0, map_low, NULL);
	assert_false(s.present);
	memcpy(ep3, "_SM3_", 5);
	ep3[6] = 24, ep3[7] = 3, ep3[8] = 7;
	ep3[0x0c] = (uint8_t)tlen, ep3[0x0d] = (uint8_t)(tlen >> 8);
	ep3[0x12] = 0x10;
	checksum(ep3, 24, 5);
	smbios_read(&s, 0, map_low, NULL);
	assert_true(s.present);
	assert_int_equal(s.ep.major, 3);
	assert_int_equal(s.populated, 2);
	smbios_read(&s, 0x1234, map_low, NULL);	/* an EFI system table that is not one */
	assert_false(s.present);
	assert_non_null(strstr(s.why, "no SMBIOS entry point"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_entry_and_scan),
	};

	return cmocka_run_group_tests_name("smbios", tests, NULL, NULL);
}
