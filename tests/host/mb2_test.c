/*
 * mb2_test.c: the multiboot2 parser on boot information built here tag by tag: a full valid
 * one, then missing, truncated, oversized, overlapping and unterminated variants. Every case
 * runs on a heap buffer of exactly the bytes given, so ASan catches any read past the end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/mb2.h"

struct builder {
	uint8_t buf[4096];
	uint32_t len;
};

static void put32(struct builder *b, uint32_t v) { memcpy(b->buf + b->len, &v, 4); b->len += 4; }
static void put64(struct builder *b, uint64_t v) { memcpy(b->buf + b->len, &v, 8); b->len += 8; }
static void pad8(struct builder *b) { while (b->len % 8) b->buf[b->len++] = 0; }

static void begin(struct builder *b) { memset(b, 0, sizeof(*b)); b->len = 8; }
static void finish(struct builder *b)
{
	put32(b, MB2_TAG_END);
	put32(b, 8);
	memcpy(b->buf, &b->len, 4);
}

static void tag_string(struct builder *b, uint32_t type, const char *s)
{
	uint32_t n = (uint32_t)strlen(s) + 1;

	put32(b, type);
	put32(b, 8 + n);
	memcpy(b->buf + b->len, s, n);
	b->len += n;
	pad8(b);
}

static void tag_mmap(struct builder *b, const uint64_t (*e)[3], unsigned n, uint32_t esize)
{
	put32(b, MB2_TAG_MMAP);
	put32(b, 16 + n * esize);
	put32(b, esize);
	put32(b, 0);
	for (unsigned i = 0; i < n; i++) {
		uint32_t start = b->len;

		put64(b, e[i][0]);
		put64(b, e[i][1]);
		put32(b, (uint32_t)e[i][2]);
		while (b->len < start + esize)
			b->buf[b->len++] = 0;
	}
	pad8(b);
}

/* Parse exactly `len` bytes from a heap copy (ASan-visible bounds). */
static bool parse(const struct builder *b, uint32_t len, struct mb2_info *out)
{
	uint8_t *copy = malloc(len ? len : 1);
	bool ok;

	memcpy(copy, b->buf, len);
	ok = mb2_parse(copy, len, out, NULL);
	/* pointers into the copy must not be used after free: check now */
	if (out->cmdline)
		assert_true(strlen(out->cmdline) < len);
	out->cmdline = out->loader = NULL;
	out->rsdp_old = out->rsdp_new = NULL;
	free(copy);
	return ok;
}

static const uint64_t map[3][3] = {
	{ 0, 0x9fc00, MB2_MEM_AVAILABLE },
	{ 0x100000, 0x7ee0000, MB2_MEM_AVAILABLE },
	{ 0xfffc0000, 0x40000, MB2_MEM_RESERVED },
};

static void build_valid(struct builder *b)
{
	begin(b);
	tag_string(b, MB2_TAG_CMDLINE, "tests=boot verbose");
	tag_string(b, MB2_TAG_LOADER, "GRUB 2.06");
	tag_mmap(b, map, 3, 24);
	/* framebuffer: addr, pitch, w, h, bpp, type 1, reserved, rgb positions/sizes */
	put32(b, MB2_TAG_FRAMEBUFFER);
	put32(b, 8 + 30);
	put64(b, 0xfd000000);
	put32(b, 4096); put32(b, 1024); put32(b, 768);
	b->buf[b->len++] = 32; b->buf[b->len++] = 1; b->len += 2;
	b->buf[b->len++] = 16; b->buf[b->len++] = 8; b->buf[b->len++] = 8;
	b->buf[b->len++] = 8; b->buf[b->len++] = 0; b->buf[b->len++] = 8;
	pad8(b);
	put32(b, MB2_TAG_ACPI_OLD);
	put32(b, 8 + 20);
	memcpy(b->buf + b->len, "RSD PTR ", 8);
	b->len += 20;
	pad8(b);
	finish(b);
}

static void test_valid(void **state)
{
	struct builder b;
	struct mb2_info info;
	uint8_t *copy;

	(void)state;
	build_valid(&b);
	copy = malloc(b.len);
	memcpy(copy, b.buf, b.len);
	assert_true(mb2_parse(copy, b.len, &info, NULL));
	assert_int_equal(info.errors, 0);
	assert_string_equal(info.cmdline, "tests=boot verbose");
	assert_string_equal(info.loader, "GRUB 2.06");
	assert_int_equal(info.nmmap, 3);
	assert_int_equal(info.mmap[1].base, 0x100000);
	assert_int_equal(info.mmap[1].len, 0x7ee0000);
	assert_int_equal(info.mmap[2].type, MB2_MEM_RESERVED);
	assert_true(info.fb.present);
	assert_int_equal(info.fb.width, 1024);
	assert_int_equal(info.fb.bpp, 32);
	assert_int_equal(info.fb.red_pos, 16);
	assert_int_equal(info.rsdp_old_len, 20);
	assert_memory_equal(info.rsdp_old, "RSD PTR ", 8);
	free(copy);
}

static void test_every_truncation(void **state)
{
	struct builder b;
	struct mb2_info info;

	(void)state;
	build_valid(&b);
	/* the info claims its full size but only `n` bytes are readable: must be refused */
	for (uint32_t n = 0; n < b.len; n++) {
		assert_false(parse(&b, n, &info));
		assert_true(info.errors > 0);
	}
	/* the size field itself shrunk: tags past it are never read, no end tag is reported */
	for (uint32_t n = 16; n < b.len; n += 4) {
		struct builder c = b;

		memcpy(c.buf, &n, 4);
		assert_true(parse(&c, n, &info));
		assert_true(info.errors > 0);
	}
}

static void test_bad_tag_sizes(void **state)
{
	struct builder b;
	struct mb2_info info;
	uint32_t bad[] = { 0, 7, 0xffffffff, 0x80000000 };

	(void)state;
	for (unsigned i = 0; i < 4; i++) {
		build_valid(&b);
		memcpy(b.buf + 12, &bad[i], 4);	/* size of the first tag */
		assert_true(parse(&b, b.len, &info));
		assert_true(info.errors > 0);
		assert_int_equal(info.nmmap, 0);	/* nothing after the bad tag is trusted */
	}
}

static void test_bad_mmap(void **state)
{
	struct builder b;
	struct mb2_info info;
	const uint64_t wrap[2][3] = { { 0xfffffffffffff000ull, 0x2000, 1 }, { 0x100000, 0, 1 } };

	(void)state;
	begin(&b);
	tag_mmap(&b, map, 3, 20);	/* entry size below 24 */
	finish(&b);
	assert_true(parse(&b, b.len, &info));
	assert_int_equal(info.nmmap, 0);
	assert_true(info.errors > 0);

	begin(&b);
	tag_mmap(&b, map, 3, 32);	/* a larger entry size is legal: fields at the front */
	finish(&b);
	assert_true(parse(&b, b.len, &info));
	assert_int_equal(info.errors, 0);
	assert_int_equal(info.nmmap, 3);

	begin(&b);
	tag_mmap(&b, wrap, 2, 24);	/* wrapping and empty entries dropped */
	finish(&b);
	assert_true(parse(&b, b.len, &info));
	assert_int_equal(info.nmmap, 0);
	assert_int_equal(info.errors, 2);
}

/* An entry size near 2^32 (a multiple of 8, so it passes the size check): `off + esize`
 * wrapped to a small number and the entry was read past the tag (found by mb2_fuzz; the
 * input is tests/fuzz/corpus/mb2_fuzz/regress-esize-wrap). No entry may be read. */
static void test_mmap_entry_size_wraps(void **state)
{
	static const uint32_t sizes[] = { 0xfffffff8u, 0xfffffff0u, 0x80000000u };
	struct builder b;
	struct mb2_info info;

	(void)state;
	for (unsigned k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		begin(&b);
		put32(&b, MB2_TAG_MMAP);
		put32(&b, 24);	/* 8 bytes after the header: no room for one entry */
		put32(&b, sizes[k]);
		put32(&b, 0);
		put64(&b, 0x100000);
		finish(&b);
		assert_true(parse(&b, b.len, &info));
		assert_int_equal(info.nmmap, 0);
		assert_int_equal(info.errors, 1);	/* "8 trailing bytes" */
	}
}

/* EFI memory map tag (UEFI EFI_MEMORY_DESCRIPTOR, 48 bytes as firmware hands them): the
 * specific-purpose (EFI_MEMORY_SP) and persistent ranges kept, conventional memory, empty
 * and wrapping descriptors not; a bad descriptor size said; past 32 ranges counted. */
static void efi_desc(struct builder *b, uint32_t type, uint64_t base, uint64_t pages,
		     uint64_t attr)
{
	put32(b, type);
	put32(b, 0);
	put64(b, base);
	put64(b, 0);
	put64(b, pages);
	put64(b, attr);
	put64(b, 0);
}

static void test_efi_mmap(void **state)
{
	struct builder b;
	struct mb2_info info;

	(void)state;
	begin(&b);
	put32(&b, MB2_TAG_EFI_MMAP);
	put32(&b, 16 + 5 * 48);
	put32(&b, 48);
	put32(&b, 1);
	efi_desc(&b, 7, 0x100000, 256, 0xf);				/* conventional */
	efi_desc(&b, 7, 1ull << 32, 0x40000, 0xf | (1ull << 18));	/* specific purpose */
	efi_desc(&b, 14, 2ull << 32, 0x40000, 0xf);			/* persistent */
	efi_desc(&b, 14, 3ull << 32, 0, 0xf);				/* empty */
	efi_desc(&b, 14, ~0ull - 4095, 2, 0xf);				/* wraps */
	finish(&b);
	assert_true(parse(&b, b.len, &info));
	assert_int_equal(info.errors, 0);
	assert_true(info.efi_mmap);
	assert_int_equal(info.nefi_special, 2);
	assert_int_equal(info.efi_special[0].base, 1ull << 32);
	assert_int_equal(info.efi_special[0].len, 1ull << 30);
	assert_false(info.efi_special[0].persistent);
	assert_true(info.efi_special[1].persistent);

	begin(&b);
	put32(&b, MB2_TAG_EFI_MMAP);
	put32(&b, 16 + 40 * 48);
	put32(&b, 48);
	put32(&b, 1);
	for (unsigned i = 0; i < 40; i++)
		efi_desc(&b, 14, (uint64_t)i << 32, 1, 0);
	finish(&b);
	assert_true(parse(&b, b.len, &info));
	assert_int_equal(info.nefi_special, MB2_MAX_EFI_SPECIAL);
	assert_int_equal(info.efi_special_dropped, 40 - MB2_MAX_EFI_SPECIAL);

	begin(&b);
	put32(&b, MB2_TAG_EFI_MMAP);
	put32(&b, 16 + 8);
	put32(&b, 0xfffffff8u);		/* a descriptor size that would wrap */
	put32(&b, 1);
	put64(&b, 0);
	finish(&b);
	assert_true(parse(&b, b.len, &info));
	assert_int_equal(info.nefi_special, 0);
	assert_int_equal(info.errors, 0);	/* no descriptor read: nothing to say */
}

static void test_unterminated_string(void **state)
{
	struct builder b;
	struct mb2_info info;

	(void)state;
	begin(&b);
	put32(&b, MB2_TAG_CMDLINE);
	put32(&b, 8 + 8);
	memcpy(b.buf + b.len, "abcdefgh", 8);	/* no NUL inside the tag */
	b.len += 8;
	finish(&b);
	assert_true(parse(&b, b.len, &info));
	assert_null(info.cmdline);
	assert_int_equal(info.errors, 1);
}

static void test_no_end_tag_and_huge(void **state)
{
	struct builder b;
	struct mb2_info info;
	uint32_t huge = MB2_MAX_INFO_SIZE + 8;

	(void)state;
	begin(&b);
	tag_string(&b, MB2_TAG_CMDLINE, "x");
	memcpy(b.buf, &b.len, 4);
	assert_true(parse(&b, b.len, &info));
	assert_int_equal(info.errors, 1);
	build_valid(&b);
	memcpy(b.buf, &huge, 4);
	assert_false(mb2_parse(b.buf, sizeof(b.buf), &info, NULL));
	assert_false(mb2_parse(NULL, 100, &info, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_every_truncation),
		cmocka_unit_test(test_bad_tag_sizes),
		cmocka_unit_test(test_bad_mmap),
		cmocka_unit_test(test_mmap_entry_size_wraps),
		cmocka_unit_test(test_efi_mmap),
		cmocka_unit_test(test_unterminated_string),
		cmocka_unit_test(test_no_end_tag_and_huge),
	};
	return cmocka_run_group_tests_name("mb2", tests, NULL, NULL);
}
