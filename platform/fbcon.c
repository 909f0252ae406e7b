/*
 * fbcon.c: text rendering into a linear RGB framebuffer (multiboot2 spec §3.6.12, framebuffer
 * type 1 "direct RGB"). Pure: writes only inside [base, base + pitch * height) and only the
 * first width * bpp/8 bytes of each line. Glyphs come from platform/font8x16.c, scaled by an
 * integer factor. Scrolling redraws the cells whose character changed from a copy of the text
 * grid in RAM (a framebuffer is never read back: that is slow on real hardware), and jumps
 * several lines at a time (fc->scroll_step); only a grid too large for the copy is moved with
 * memmove on the framebuffer. Cells are copied from pre-rendered 4-pixel runs (fc->run) with
 * 8-byte stores, and fills copy a run of the pixel value: few, wide stores (fbcon.h).
 */
#include "platform/fbcon.h"
#include "platform/font.h"

#include <string.h>

#define BANNER_MAX_MUL 4	/* banner letters up to 4x the text scale */

uint32_t fb_rgb(const struct fb_surface *fb, uint8_t r, uint8_t g, uint8_t b)
{
	uint32_t v = 0;

	if (fb->red_size)
		v |= ((uint32_t)r >> (8 - fb->red_size)) << fb->red_pos;
	if (fb->green_size)
		v |= ((uint32_t)g >> (8 - fb->green_size)) << fb->green_pos;
	if (fb->blue_size)
		v |= ((uint32_t)b >> (8 - fb->blue_size)) << fb->blue_pos;
	return v;
}

unsigned fbcon_auto_scale(uint32_t width, uint32_t height)
{
	uint32_t s = width / 960 < height / 540 ? width / 960 : height / 540;

	return s < 1 ? 1 : s > 8 ? 8 : s;
}

static inline void put_px(const struct fb_surface *fb, uint32_t x, uint32_t y, uint32_t v)
{
	uint8_t *p = fb->base + (size_t)y * fb->pitch + (size_t)x * (fb->bpp / 8);

	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	if (fb->bpp == 32)
		p[3] = (uint8_t)(v >> 24);
}

/* n bytes from src to dst: 8-byte stores, then 4, then single bytes. */
static void copy_wide(uint8_t *dst, const uint8_t *src, size_t n)
{
	for (; n >= 8; n -= 8, dst += 8, src += 8)
		__builtin_memcpy(dst, src, 8);
	if (n >= 4) {
		__builtin_memcpy(dst, src, 4);
		n -= 4, dst += 4, src += 4;
	}
	while (n--)
		*dst++ = *src++;
}

/* Fill a rectangle, clipped to the surface: every line copied with wide stores from a run of
 * the pixel value in RAM (the framebuffer is never read back). */
static void fill(const struct fb_surface *fb, uint32_t x, uint32_t y, uint32_t w, uint32_t h,
		 uint32_t v)
{
	uint8_t run[256];
	size_t bpp = fb->bpp / 8, chunk = sizeof(run) / bpp;

	if (x >= fb->width || y >= fb->height)
		return;
	if (w > fb->width - x)
		w = fb->width - x;
	if (h > fb->height - y)
		h = fb->height - y;
	for (size_t i = 0; i < chunk; i++)
		memcpy(run + i * bpp, &v, bpp);		/* little-endian pixel bytes, as put_px */
	for (uint32_t j = 0; j < h; j++) {
		uint8_t *p = fb->base + (size_t)(y + j) * fb->pitch + (size_t)x * bpp;

		for (size_t left = w; left;) {
			size_t n = left < chunk ? left : chunk;

			copy_wide(p, run, n * bpp);
			p += n * bpp;
			left -= n;
		}
	}
}

/* fc->run: every 4-pixel pattern of a font row, scaled, in fg and bg. */
static void build_runs(struct fbcon *fc)
{
	size_t bpp = fc->fb.bpp / 8;

	fc->run_bytes = 0;
	if (fc->scale > FBCON_FAST_SCALE)
		return;
	for (unsigned pat = 0; pat < 16; pat++)
		for (unsigned px = 0; px < 4 * fc->scale; px++) {
			uint32_t v = pat & (8u >> (px / fc->scale)) ? fc->fg : fc->bg;

			memcpy(&fc->run[pat][px * bpp], &v, bpp);
		}
	fc->run_bytes = (unsigned)(4 * fc->scale * bpp);
}

/* One text cell from the runs: two runs per pixel line of the font row, scale lines each. */
static void cell_runs(const struct fbcon *fc, uint32_t x, uint32_t y, unsigned char c)
{
	const uint8_t *rows = font8x16_glyph(c);
	size_t pitch = fc->fb.pitch, n = fc->run_bytes;
	uint8_t *p = fc->fb.base + (size_t)y * pitch + (size_t)x * (fc->fb.bpp / 8);

	for (unsigned gy = 0; gy < FONT_H; gy++)
		for (unsigned k = 0; k < fc->scale; k++, p += pitch) {
			copy_wide(p, fc->run[rows[gy] >> 4], n);
			copy_wide(p + n, fc->run[rows[gy] & 15], n);
		}
}

/* One glyph at pixel (x, y), scale s, clipped. */
static void glyph(const struct fb_surface *fb, uint32_t x, uint32_t y, unsigned s,
		  unsigned char c, uint32_t fg, uint32_t bg)
{
	const uint8_t *rows = font8x16_glyph(c);

	for (uint32_t gy = 0; gy < FONT_H * s; gy++) {
		uint32_t py = y + gy;
		uint8_t bits = rows[gy / s];

		if (py >= fb->height)
			return;
		for (uint32_t gx = 0; gx < FONT_W * s && x + gx < fb->width; gx++)
			put_px(fb, x + gx, py, (bits & (0x80 >> (gx / s))) ? fg : bg);
	}
}

static int check_field(uint8_t pos, uint8_t size, uint8_t bpp)
{
	return size <= 8 && pos + size <= bpp;
}

int fbcon_init(struct fbcon *fc, const struct fb_surface *fb, unsigned scale, const char **why)
{
	const char *w = NULL;

	memset(fc, 0, sizeof(*fc));
	if (!fb->base)
		w = "no framebuffer address";
	else if (fb->bpp != 24 && fb->bpp != 32)
		w = "unsupported depth (need 24 or 32 bpp)";
	else if (!check_field(fb->red_pos, fb->red_size, fb->bpp) ||
		 !check_field(fb->green_pos, fb->green_size, fb->bpp) ||
		 !check_field(fb->blue_pos, fb->blue_size, fb->bpp))
		w = "colour field outside the pixel";
	else if ((uint64_t)fb->pitch < (uint64_t)fb->width * (fb->bpp / 8))
		w = "pitch smaller than a line";
	else if (fb->width < FONT_W || fb->height < FONT_H)
		w = "smaller than one character";
	if (w) {
		if (why)
			*why = w;
		return -1;
	}
	fc->fb = *fb;
	fc->scale = scale ? scale : fbcon_auto_scale(fb->width, fb->height);
	while (fc->scale > 1 && (fb->width < FONT_W * fc->scale || fb->height < FONT_H * fc->scale))
		fc->scale--;
	fc->cols = fb->width / (FONT_W * fc->scale);
	fc->rows = fb->height / (FONT_H * fc->scale);
	fc->fg = fb_rgb(fb, 0xd0, 0xd0, 0xd0);
	fc->bg = fb_rgb(fb, 0, 0, 0);
	fc->scroll_step = fc->rows >= 8 ? fc->rows / 4 : 1;
	build_runs(fc);
	fc->shadow = (size_t)fc->cols * fc->rows <= FBCON_TEXT_MAX;
	if (fc->shadow)
		memset(fc->text, ' ', (size_t)fc->cols * fc->rows);	/* the cleared screen */
	fill(&fc->fb, 0, 0, fb->width, fb->height, fc->bg);
	return 0;
}

void fbcon_draw_cell(struct fbcon *fc, unsigned col, unsigned row, unsigned char c)
{
	unsigned cw = FONT_W * fc->scale, ch = FONT_H * fc->scale;

	if (col < fc->cols && row < fc->rows) {
		if (fc->run_bytes)	/* a grid cell lies wholly inside the surface */
			cell_runs(fc, col * cw, row * ch, c);
		else
			glyph(&fc->fb, col * cw, row * ch, fc->scale, c, fc->fg, fc->bg);
		if (fc->shadow)
			fc->text[(size_t)row * fc->cols + col] = c;
	}
}

/* Move the text grid up by n lines and clear the freed lines at its bottom. */
static void scroll(struct fbcon *fc, unsigned n)
{
	size_t lh = (size_t)FONT_H * fc->scale, line = lh * fc->fb.pitch;

	if (n > fc->rows)
		n = fc->rows;
	if (fc->shadow) {
		/* row r takes row r + n's text; only cells that change are drawn (rows ascend, so
		 * row r + n is read before it is overwritten) */
		for (size_t r = 0; r < fc->rows; r++)
			for (size_t c = 0; c < fc->cols; c++) {
				unsigned char *old = &fc->text[r * fc->cols + c];
				unsigned char now = r + n < fc->rows ? old[n * fc->cols] : ' ';

				if (*old != now)
					fbcon_draw_cell(fc, (unsigned)c, (unsigned)r, now);
			}
		fc->cy = fc->cy >= n ? fc->cy - n : 0;
		return;
	}
	if (n < fc->rows)
		memmove(fc->fb.base, fc->fb.base + n * line, (fc->rows - n) * line);
	fill(&fc->fb, 0, (uint32_t)((fc->rows - n) * lh), fc->fb.width, (uint32_t)(n * lh), fc->bg);
	fc->cy = fc->cy >= n ? fc->cy - n : 0;
}

static void newline(struct fbcon *fc)
{
	fc->cx = 0;
	if (++fc->cy >= fc->rows)
		scroll(fc, fc->cy - fc->rows + fc->scroll_step);
}

void fbcon_write(struct fbcon *fc, const char *s, size_t n)
{
	if (!fc->rows || !fc->cols)
		return;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '\n':
			newline(fc);
			continue;
		case '\r':
			fc->cx = 0;
			continue;
		case '\b':
			if (fc->cx)
				fc->cx--;
			continue;
		case '\t':
			do {
				fbcon_write(fc, " ", 1);
			} while (fc->cx % 8 && fc->cx < fc->cols);
			continue;
		default:
			break;
		}
		if (fc->cx >= fc->cols)
			newline(fc);
		fbcon_draw_cell(fc, fc->cx++, fc->cy, c);
	}
}

unsigned fbcon_banner_scale(const struct fbcon *fc, size_t len)
{
	size_t s = BANNER_MAX_MUL * fc->scale;

	if (len && s > fc->fb.width / (len * FONT_W))
		s = fc->fb.width / (len * FONT_W);
	if (s > fc->fb.height / (3 * FONT_H))	/* at most a third of the screen */
		s = fc->fb.height / (3 * FONT_H);
	return s ? (unsigned)s : 1;
}

void fbcon_banner(struct fbcon *fc, const char *text, uint8_t r, uint8_t g, uint8_t b)
{
	size_t len = strlen(text), max_len = fc->fb.width / FONT_W;
	unsigned s, lh = FONT_H * fc->scale, rows;
	uint32_t h, top, x, fg = fb_rgb(&fc->fb, r, g, b);

	if (len > max_len)
		len = max_len;
	s = fbcon_banner_scale(fc, len);
	h = FONT_H * s + lh;			/* half a text line of margin above and below */
	if (h > fc->fb.height)
		h = fc->fb.height;
	rows = (fc->fb.height - h) / lh;
	if (fc->banner_h == 0 || rows < fc->rows) {
		if (fc->cy >= rows && rows)
			scroll(fc, fc->cy - rows + 1);
		fc->rows = rows;
	}
	fc->banner_h = fc->fb.height - fc->rows * lh;
	top = fc->fb.height - fc->banner_h;
	fill(&fc->fb, 0, top, fc->fb.width, fc->banner_h, fc->bg);
	x = (uint32_t)((fc->fb.width - len * FONT_W * s) / 2);
	top += (fc->banner_h - FONT_H * s) / 2;
	for (size_t i = 0; i < len; i++)
		glyph(&fc->fb, x + (uint32_t)(i * FONT_W * s), top, s, (unsigned char)text[i], fg,
		      fc->bg);
}
