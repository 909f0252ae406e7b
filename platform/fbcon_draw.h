/*
 * fbcon_draw.h: the pixel layer under the framebuffer console (platform/fbcon.h): a linear
 * RGB surface as the multiboot2 framebuffer tag describes it (type 1, direct RGB; multiboot2
 * spec §3.6.12), pixel values packed from its colour masks, rectangle fills and 8x16 glyphs
 * at an integer scale, in any colour. Pure C: writes only inside the surface.
 */
#ifndef PLATFORM_FBCON_DRAW_H
#define PLATFORM_FBCON_DRAW_H

#include <stddef.h>
#include <stdint.h>

struct fb_surface {
	uint8_t *base;		/* first byte of the visible framebuffer */
	uint32_t width, height;	/* pixels */
	uint32_t pitch;		/* bytes per scan line (>= width * bpp / 8) */
	uint8_t bpp;		/* 24 or 32 */
	uint8_t red_pos, red_size, green_pos, green_size, blue_pos, blue_size;
};

/* Text cells are drawn from pre-rendered pixel runs: each 4-pixel pattern of a font row, in
 * fg/bg and scaled, is one entry (4 pixels x scale up to FBCON_FAST_SCALE x 4 bytes), copied
 * into the framebuffer with 8-byte stores instead of 3-4 single-byte stores per pixel (under
 * QEMU TCG every store is a soft-TLB lookup; a write-combining framebuffer also prefers wide
 * stores). A larger scale draws pixel by pixel. */
#define FBCON_FAST_SCALE 8
#define FBCON_RUN_MAX (4 * FBCON_FAST_SCALE * 4)

struct fb_runs {
	unsigned bytes;		/* bytes of one entry; 0: scale too large, no runs */
	uint8_t run[16][FBCON_RUN_MAX];	/* 4-pixel pattern (bit 3 = leftmost) -> pixels */
};

/* Pack 8-bit r, g, b into a pixel value using the surface's masks. */
uint32_t fb_rgb(const struct fb_surface *fb, uint8_t r, uint8_t g, uint8_t b);

/* Fill a rectangle with pixel value v, clipped to the surface (wide stores, no read back). */
void fb_fill(const struct fb_surface *fb, uint32_t x, uint32_t y, uint32_t w, uint32_t h,
	     uint32_t v);

/* Every 4-pixel pattern of a font row at `scale`, in fg on bg (r->bytes = 0 past
 * FBCON_FAST_SCALE). */
void fb_runs_build(struct fb_runs *r, const struct fb_surface *fb, unsigned scale, uint32_t fg,
		   uint32_t bg);

/* The glyph of c at pixel (x, y), scale s: from the runs when r has them and the cell lies
 * wholly inside the surface, else pixel by pixel, clipped. */
void fb_glyph(const struct fb_surface *fb, const struct fb_runs *r, uint32_t x, uint32_t y,
	      unsigned s, unsigned char c, uint32_t fg, uint32_t bg);

#endif
