/*
 * fbcon_draw.c: pixels for the framebuffer console (fbcon_draw.h; multiboot2 spec §3.6.12,
 * framebuffer type 1 "direct RGB"). Pure: writes only inside [base, base + pitch * height)
 * and only the first width * bpp/8 bytes of each line; the framebuffer is never read back
 * (uncached or write-combining reads cost ~1 us each on real hardware). Glyphs come from
 * platform/font8x16.c, scaled by an integer factor; cells are copied from pre-rendered
 * 4-pixel runs with 8-byte stores, and fills copy a run of the pixel value: few, wide stores.
 */
#include "platform/fbcon_draw.h"
#include "platform/font.h"

#include <string.h>

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

void fb_fill(const struct fb_surface *fb, uint32_t x, uint32_t y, uint32_t w, uint32_t h,
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

void fb_runs_build(struct fb_runs *r, const struct fb_surface *fb, unsigned scale, uint32_t fg,
		   uint32_t bg)
{
	size_t bpp = fb->bpp / 8;

	r->bytes = 0;
	if (scale > FBCON_FAST_SCALE || !scale)
		return;
	for (unsigned pat = 0; pat < 16; pat++)
		for (unsigned px = 0; px < 4 * scale; px++) {
			uint32_t v = pat & (8u >> (px / scale)) ? fg : bg;

			memcpy(&r->run[pat][px * bpp], &v, bpp);
		}
	r->bytes = (unsigned)(4 * scale * bpp);
}

/* One glyph from the runs: two runs per pixel line of the font row, s lines each. */
static void glyph_runs(const struct fb_surface *fb, const struct fb_runs *r, uint32_t x,
		       uint32_t y, unsigned s, unsigned char c)
{
	const uint8_t *rows = font8x16_glyph(c);
	size_t pitch = fb->pitch, n = r->bytes;
	uint8_t *p = fb->base + (size_t)y * pitch + (size_t)x * (fb->bpp / 8);

	for (unsigned gy = 0; gy < FONT_H; gy++)
		for (unsigned k = 0; k < s; k++, p += pitch) {
			copy_wide(p, r->run[rows[gy] >> 4], n);
			copy_wide(p + n, r->run[rows[gy] & 15], n);
		}
}

void fb_glyph(const struct fb_surface *fb, const struct fb_runs *r, uint32_t x, uint32_t y,
	      unsigned s, unsigned char c, uint32_t fg, uint32_t bg)
{
	const uint8_t *rows = font8x16_glyph(c);

	if (r && r->bytes && r->bytes == 4 * s * (fb->bpp / 8u) && x < fb->width &&
	    fb->width - x >= FONT_W * s && y < fb->height && fb->height - y >= FONT_H * s) {
		glyph_runs(fb, r, x, y, s, c);
		return;
	}
	for (uint32_t gy = 0; gy < FONT_H * s; gy++) {
		uint32_t py = y + gy;
		uint8_t bits = rows[gy / s];

		if (py >= fb->height)
			return;
		for (uint32_t gx = 0; gx < FONT_W * s && x + gx < fb->width; gx++)
			put_px(fb, x + gx, py, (bits & (0x80 >> (gx / s))) ? fg : bg);
	}
}
