/*
 * fbcon_test.c: the framebuffer text renderer against the font bitmap. Renders into
 * exact-size buffers (ASan catches any write outside) with 24/32 bpp, RGB and BGR masks,
 * padded pitch, scale 1-3; checks every pixel of the cells against font8x16_glyph, line
 * wrap, scrolling, the large banner, the status row under the scrolling grid, the cleared
 * page with coloured lines, and surfaces that must be refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "platform/fbcon.h"
#include "platform/font.h"

static struct fb_surface surf(uint32_t w, uint32_t h, uint32_t pitch, uint8_t bpp)
{
	struct fb_surface fb = {
		.width = w, .height = h, .pitch = pitch, .bpp = bpp,
		.red_pos = 16, .red_size = 8, .green_pos = 8, .green_size = 8,
		.blue_pos = 0, .blue_size = 8,
	};
	fb.base = malloc((size_t)pitch * h);
	assert_non_null(fb.base);
	memset(fb.base, 0xab, (size_t)pitch * h);	/* canary in the line padding */
	return fb;
}

static uint32_t get_px(const struct fb_surface *fb, uint32_t x, uint32_t y)
{
	const uint8_t *p = fb->base + (size_t)y * fb->pitch + (size_t)x * (fb->bpp / 8);
	uint32_t v = p[0] | p[1] << 8 | (uint32_t)p[2] << 16;

	return fb->bpp == 32 ? v | (uint32_t)p[3] << 24 : v;
}

/* Every pixel of the glyph for c at pixel (x, y) with scale s: fg where the font is set. */
static void check_glyph_at(const struct fb_surface *fb, uint32_t x, uint32_t y, unsigned s,
			   unsigned char c, uint32_t fg, uint32_t bg)
{
	const uint8_t *g = font8x16_glyph(c);

	for (uint32_t gy = 0; gy < FONT_H * s; gy++)
		for (uint32_t gx = 0; gx < FONT_W * s; gx++) {
			bool on = g[gy / s] & (0x80 >> (gx / s));
			if (get_px(fb, x + gx, y + gy) != (on ? fg : bg))
				fail_msg("char '%c' pixel (%u,%u) scale %u", c, gx, gy, s);
		}
}

static void check_cell(const struct fbcon *fc, unsigned col, unsigned row, unsigned char c)
{
	unsigned cw = FONT_W * fc->scale, ch = FONT_H * fc->scale;

	check_glyph_at(&fc->fb, col * cw, row * ch, fc->scale, c, fc->fg, fc->bg);
}

static void check_line(const struct fbcon *fc, unsigned row, const char *s)
{
	for (unsigned i = 0; s[i]; i++)
		check_cell(fc, i, row, (unsigned char)s[i]);
}

static void test_font_glyphs_distinct(void **state)
{
	(void)state;
	for (int a = FONT_FIRST; a <= FONT_LAST; a++) {
		const uint8_t *ga = font8x16_glyph((unsigned char)a);
		int set = 0;
		for (int r = 0; r < FONT_H; r++)
			set += ga[r] != 0;
		if (a != ' ')
			assert_true(set > 0);
		for (int b = a + 1; b <= FONT_LAST; b++)
			if (memcmp(ga, font8x16_glyph((unsigned char)b), FONT_H) == 0)
				fail_msg("glyphs 0x%02x and 0x%02x are identical", a, b);
	}
	assert_memory_equal(font8x16_glyph(0x01), font8x16_glyph(0x7f), FONT_H);
	assert_memory_equal(font8x16_glyph(0xc3), font8x16_glyph(0x7f), FONT_H);
}

static void test_render_32bpp(void **state)
{
	struct fb_surface fb = surf(160, 64, 160 * 4, 32);
	struct fbcon fc;

	(void)state;
	assert_int_equal(fbcon_init(&fc, &fb, 1, NULL), 0);
	assert_int_equal(fc.cols, 20);
	assert_int_equal(fc.rows, 4);
	fbcon_write(&fc, "Hello, PEBS!\nok 1 x", 19);
	check_line(&fc, 0, "Hello, PEBS!");
	check_line(&fc, 1, "ok 1 x");
	check_cell(&fc, 12, 0, ' ');
	assert_int_equal(fc.cx, 6);
	assert_int_equal(fc.cy, 1);
	assert_int_equal(get_px(&fb, 0, 0), 0);
	free(fb.base);
}

static void test_render_24bpp_padded_bgr(void **state)
{
	struct fb_surface fb = surf(83, 35, 83 * 3 + 7, 24);
	struct fbcon fc;

	(void)state;
	fb.red_pos = 0;
	fb.blue_pos = 16;
	assert_int_equal(fbcon_init(&fc, &fb, 1, NULL), 0);
	assert_int_equal(fc.cols, 10);
	assert_int_equal(fc.rows, 2);
	/* colour order: red in the lowest byte */
	assert_int_equal(fb_rgb(&fb, 0x11, 0x22, 0x33), 0x332211);
	fbcon_write(&fc, "KTAP 1..9\x01", 10);
	check_line(&fc, 0, "KTAP 1..9\x7f");
	for (uint32_t y = 0; y < fb.height; y++)
		for (uint32_t i = 83 * 3; i < fb.pitch; i++)
			assert_int_equal(fb.base[y * fb.pitch + i], 0xab);
	free(fb.base);
}

static void test_scale(void **state)
{
	struct fb_surface fb = surf(100, 100, 400, 32);
	struct fbcon fc;

	(void)state;
	for (unsigned s = 2; s <= 3; s++) {
		assert_int_equal(fbcon_init(&fc, &fb, s, NULL), 0);
		assert_int_equal(fc.cols, 100 / (8 * s));
		fbcon_write(&fc, "Wg", 2);
		check_line(&fc, 0, "Wg");
	}
	assert_int_equal(fbcon_auto_scale(1024, 768), 1);
	assert_int_equal(fbcon_auto_scale(1280, 800), 1);
	assert_int_equal(fbcon_auto_scale(1920, 1080), 2);
	assert_int_equal(fbcon_auto_scale(2560, 1440), 2);
	assert_int_equal(fbcon_auto_scale(3840, 2160), 4);
	assert_int_equal(fbcon_auto_scale(640, 480), 1);
	/* scale too big for the surface is reduced until a cell fits */
	assert_int_equal(fbcon_init(&fc, &fb, 50, NULL), 0);
	assert_int_equal(fc.scale, 6);
	free(fb.base);
}

/* Every character through both drawing paths: the pixel runs (scale <= FBCON_FAST_SCALE) and
 * pixel by pixel (a larger scale), 24 and 32 bpp, with line padding that must stay untouched
 * and the cell's right/bottom neighbours that must stay background. */
static void test_every_char_both_paths(void **state)
{
	static const unsigned scales[] = { 1, 2, 3, FBCON_FAST_SCALE, FBCON_FAST_SCALE + 1 };
	static struct fbcon fc;

	(void)state;
	for (unsigned b = 0; b < 2; b++)
		for (unsigned k = 0; k < sizeof(scales) / sizeof(scales[0]); k++) {
			unsigned sc = scales[k], bpp = b ? 32 : 24, w = 2 * FONT_W * sc + 3;
			struct fb_surface fb = surf(w, 2 * FONT_H * sc + 1, w * (bpp / 8) + 5,
						    (uint8_t)bpp);

			assert_int_equal(fbcon_init(&fc, &fb, sc, NULL), 0);
			assert_int_equal(fc.scale, sc);
			assert_int_equal(fc.runs.bytes != 0, sc <= FBCON_FAST_SCALE);
			for (unsigned c = 0; c < 256; c++) {
				fbcon_draw_cell(&fc, 0, 0, (unsigned char)c);
				fbcon_draw_cell(&fc, 1, 1, (unsigned char)(255 - c));
				check_cell(&fc, 0, 0, (unsigned char)c);
				check_cell(&fc, 1, 1, (unsigned char)(255 - c));
				check_cell(&fc, 1, 0, ' ');
				check_cell(&fc, 0, 1, ' ');
			}
			for (uint32_t y = 0; y < fb.height; y++) {
				for (uint32_t x = 2 * FONT_W * sc; x < fb.width; x++)
					assert_int_equal(get_px(&fb, x, y), fc.bg);
				for (uint32_t i = fb.width * (bpp / 8); i < fb.pitch; i++)
					assert_int_equal(fb.base[y * fb.pitch + i], 0xab);
			}
			free(fb.base);
		}
}

static void test_wrap_and_controls(void **state)
{
	struct fb_surface fb = surf(40, 48, 160, 32);	/* 5 x 3 cells */
	struct fbcon fc;

	(void)state;
	assert_int_equal(fbcon_init(&fc, &fb, 1, NULL), 0);
	fbcon_write(&fc, "abcdefg", 7);
	check_line(&fc, 0, "abcde");
	check_line(&fc, 1, "fg");
	fbcon_write(&fc, "\rX\tY", 4);
	check_line(&fc, 1, "X    ");	/* the tab overwrote g */
	assert_int_equal(fc.cy, 2);	/* the tab filled the line, Y wrapped */
	check_cell(&fc, 0, 2, 'Y');
	fbcon_write(&fc, "\bZ", 2);
	check_cell(&fc, 0, 2, 'Z');
	free(fb.base);
}

static void test_scroll(void **state)
{
	struct fb_surface fb = surf(64, 16 * 10, 64 * 4, 32);	/* 8 x 10 cells */
	struct fbcon fc;
	char line[8];

	(void)state;
	assert_int_equal(fbcon_init(&fc, &fb, 1, NULL), 0);
	assert_int_equal(fc.rows, 10);
	assert_int_equal(fc.scroll_step, 2);
	for (int i = 0; i < 11; i++) {	/* lines L0..L10, cursor leaves the grid at L10 */
		int n = snprintf(line, sizeof(line), "L%d\n", i);
		fbcon_write(&fc, line, (size_t)n);
	}
	/* 11 newlines: the 10th scrolled by 2 lines; L10's newline put the cursor at row 9. */
	assert_int_equal(fc.cy, 9);
	check_line(&fc, 0, "L2");
	check_line(&fc, 7, "L9");
	check_line(&fc, 8, "L10");
	check_line(&fc, 9, "        ");
	free(fb.base);
}

/* Scrolling must not read the framebuffer back (uncached or write-combining memory on real
 * hardware: ~1 us a read): a pixel the console did not draw is never copied elsewhere. */
static void test_scroll_never_reads_back(void **state)
{
	struct fb_surface fb = surf(64, 16 * 10, 64 * 4, 32);	/* 8 x 10 cells */
	struct fbcon fc;
	const uint32_t poison = 0x00123456;
	char line[8];

	(void)state;
	assert_int_equal(fbcon_init(&fc, &fb, 1, NULL), 0);
	for (int i = 0; i < 10; i++) {	/* L0..L9 fill the grid, the cursor on row 9 */
		int n = snprintf(line, sizeof(line), "L%d%s", i, i < 9 ? "\n" : "");
		fbcon_write(&fc, line, (size_t)n);
	}
	/* a stray pixel in row 5's first cell ('L', as in the rows it moves to) */
	memcpy(fb.base + (5 * 16 + 3) * fb.pitch + 1 * 4, &poison, 4);
	fbcon_write(&fc, "\n", 1);	/* scrolls by 2 */
	check_line(&fc, 0, "L2");
	check_line(&fc, 7, "L9");
	for (uint32_t y = 0; y < fb.height; y++)
		for (uint32_t x = 0; x < fb.width; x++)
			if (get_px(&fb, x, y) == poison && !(y == 5 * 16 + 3 && x == 1))
				fail_msg("pixel (%u,%u) copied from the framebuffer", x, y);
	free(fb.base);
}

static void test_banner(void **state)
{
	struct fb_surface fb = surf(320, 240, 320 * 4, 32);	/* 40 x 15 cells */
	struct fbcon fc;
	unsigned s;
	uint32_t green;

	(void)state;
	assert_int_equal(fbcon_init(&fc, &fb, 1, NULL), 0);
	for (int i = 0; i < 14; i++)
		fbcon_write(&fc, "line\n", 5);
	s = fbcon_banner_scale(&fc, 4);
	assert_int_equal(s, 4);	/* 4x the text scale */
	fbcon_banner(&fc, "PASS", 0, 0xff, 0);
	green = fb_rgb(&fb, 0, 0xff, 0);
	/* banner: 16*4 + 16 = 80 rows -> text grid 160 / 16 = 10 rows */
	assert_int_equal(fc.rows, 10);
	assert_int_equal(fc.banner_h, 80);
	for (unsigned i = 0; i < 4; i++)
		check_glyph_at(&fb, (320 - 4 * 32) / 2 + i * 32, 160 + 8, s, "PASS"[i], green, 0);
	assert_true(fc.cy < fc.rows);
	/* output after the banner scrolls above it and leaves it intact */
	for (int i = 0; i < 30; i++)
		fbcon_write(&fc, "more\n", 5);
	fbcon_write(&fc, "last", 4);
	check_cell(&fc, 0, fc.cy, 'l');
	check_glyph_at(&fb, (320 - 4 * 32) / 2, 160 + 8, s, 'P', green, 0);
	/* a long banner is made smaller to fit the width */
	assert_int_equal(fbcon_banner_scale(&fc, 30), 1);
	assert_int_equal(fbcon_banner_scale(&fc, 10), 4);
	assert_int_equal(fbcon_banner_scale(&fc, 15), 2);
	fbcon_banner(&fc, "# Totals: pass:1 fail:0 skip:0 total:1 and more than fits", 0xff, 0, 0);
	free(fb.base);
}

/* Every cell of text row `row` from column `col`: s, then blanks to the last column. */
static void check_row_ink(const struct fbcon *fc, unsigned row, const char *s, uint32_t fg)
{
	unsigned cw = FONT_W * fc->scale, ch = FONT_H * fc->scale;
	size_t n = strlen(s);

	for (unsigned c = 0; c < fc->cols; c++)
		check_glyph_at(&fc->fb, c * cw, row * ch, fc->scale,
			       c < n ? (unsigned char)s[c] : ' ', fg, fc->bg);
}

/* The status line keeps the row under the grid while the log scrolls above it. */
static void test_status_row(void **state)
{
	struct fb_surface fb = surf(96, 16 * 6, 96 * 4, 32);	/* 12 x 6 cells */
	struct fbcon fc;
	uint32_t yellow;
	char line[8];

	(void)state;
	assert_int_equal(fbcon_init(&fc, &fb, 1, NULL), 0);
	yellow = fb_rgb(&fb, 0xff, 0xd0, 0x40);
	for (int i = 0; i < 5; i++) {	/* L0..L4, the cursor on row 5: the last row */
		int n = snprintf(line, sizeof(line), "L%d\n", i);
		fbcon_write(&fc, line, (size_t)n);
	}
	assert_int_equal(fc.cy, 5);
	fbcon_status(&fc, "test 1 of 17: boot and more", 0xff, 0xd0, 0x40);
	assert_true(fc.status);
	assert_int_equal(fc.rows, 5);
	assert_true(fc.cy < fc.rows);
	check_row_ink(&fc, 5, "test 1 of 17", yellow);	/* cut at 12 columns */
	check_line(&fc, 0, "L1");			/* one line scrolled off */
	fbcon_status(&fc, "test 2", 0xff, 0xd0, 0x40);
	check_row_ink(&fc, 5, "test 2", yellow);	/* padded: no tail of the last one */
	for (int i = 5; i < 30; i++) {
		int n = snprintf(line, sizeof(line), "L%d\n", i);
		fbcon_write(&fc, line, (size_t)n);
	}
	check_row_ink(&fc, 5, "test 2", yellow);	/* scrolling never touches it */
	assert_true(fc.cy < 5);
	/* the page: everything cleared, the status row given back, lines at fixed rows */
	fbcon_clear(&fc);
	assert_false(fc.status);
	assert_int_equal(fc.rows, 6);
	assert_int_equal(fc.cx, 0);
	assert_int_equal(fc.cy, 0);
	fbcon_text(&fc, 0, 0, "pebs-kernel xyz", 15, fc.fg);
	fbcon_text(&fc, 2, 5, "FAIL", 4, fb_rgb(&fb, 0xff, 0x30, 0x30));
	fbcon_text(&fc, 0, 6, "outside", 7, fc.fg);	/* past the grid: nothing */
	check_row_ink(&fc, 0, "pebs-kernel ", fc.fg);
	for (unsigned r = 1; r < 5; r++)
		check_row_ink(&fc, r, "", fc.fg);
	for (unsigned i = 0; i < fc.cols; i++)
		check_glyph_at(&fb, i * 8, 5 * 16, 1, i >= 2 && i < 6 ? "FAIL"[i - 2] : ' ',
			       fb_rgb(&fb, 0xff, 0x30, 0x30), fc.bg);
	/* a banner takes the status row's place; no status line after it */
	fbcon_status(&fc, "test 9", 0xff, 0xd0, 0x40);
	fbcon_banner(&fc, "PASS", 0, 0xff, 0);
	assert_false(fc.status);
	fbcon_status(&fc, "late", 0xff, 0xd0, 0x40);
	assert_false(fc.status);
	free(fb.base);
}

static void test_refused(void **state)
{
	struct fb_surface fb = surf(64, 64, 256, 32);
	struct fbcon fc;
	const char *why = NULL;

	(void)state;
	fb.bpp = 16;
	assert_int_equal(fbcon_init(&fc, &fb, 1, &why), -1);
	assert_non_null(why);
	fb.bpp = 24;
	fb.red_pos = 20;	/* 20 + 8 > 24 */
	assert_int_equal(fbcon_init(&fc, &fb, 1, &why), -1);
	fb.red_pos = 16;
	fb.bpp = 32;
	fb.pitch = 100;		/* < 64 * 4 */
	assert_int_equal(fbcon_init(&fc, &fb, 1, &why), -1);
	fb.pitch = 256;
	fb.height = 10;
	assert_int_equal(fbcon_init(&fc, &fb, 1, &why), -1);
	fb.height = 64;
	uint8_t *base = fb.base;
	fb.base = NULL;
	assert_int_equal(fbcon_init(&fc, &fb, 1, &why), -1);
	free(base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_font_glyphs_distinct),
		cmocka_unit_test(test_render_32bpp),
		cmocka_unit_test(test_render_24bpp_padded_bgr),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_every_char_both_paths),
		cmocka_unit_test(test_wrap_and_controls),
		cmocka_unit_test(test_scroll),
		cmocka_unit_test(test_scroll_never_reads_back),
		cmocka_unit_test(test_banner),
		cmocka_unit_test(test_status_row),
		cmocka_unit_test(test_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
