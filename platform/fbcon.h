/*
 * fbcon.h: a text console drawn into a linear RGB framebuffer (pure C: it only writes the
 * memory it is given, so host tests render into a buffer and compare pixels). Framebuffer
 * geometry and colour masks come from the multiboot2 framebuffer tag (type 1, direct RGB;
 * multiboot2 spec §3.6.12). 24 and 32 bpp. The 8x16 font is scaled by an integer factor
 * so text stays readable on 4K panels. Text scrolls; a banner (the final verdict) can be
 * pinned to the bottom of the screen in large letters and stays there.
 */
#ifndef PLATFORM_FBCON_H
#define PLATFORM_FBCON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fb_surface {
	uint8_t *base;		/* first byte of the visible framebuffer */
	uint32_t width, height;	/* pixels */
	uint32_t pitch;		/* bytes per scan line (>= width * bpp / 8) */
	uint8_t bpp;		/* 24 or 32 */
	uint8_t red_pos, red_size, green_pos, green_size, blue_pos, blue_size;
};

/* Text grid kept in RAM so that scrolling redraws cells instead of reading the framebuffer
 * back (uncached or write-combining reads cost ~1 us each on real hardware); a grid larger
 * than this scrolls by memmove on the framebuffer. */
#define FBCON_TEXT_MAX 32768
/* Text cells are drawn from pre-rendered pixel runs: each 4-pixel pattern of a font row, in
 * fg/bg and scaled, is one entry (4 pixels x scale up to FBCON_FAST_SCALE x 4 bytes), copied
 * into the framebuffer with 8-byte stores instead of 3-4 single-byte stores per pixel (under
 * QEMU TCG every store is a soft-TLB lookup; a write-combining framebuffer also prefers wide
 * stores). A larger scale draws pixel by pixel. */
#define FBCON_FAST_SCALE 8
#define FBCON_RUN_MAX (4 * FBCON_FAST_SCALE * 4)

struct fbcon {
	struct fb_surface fb;
	unsigned scale;		/* font scale factor */
	unsigned cols, rows;	/* text grid (rows above the banner) */
	unsigned cx, cy;	/* cursor cell */
	uint32_t fg, bg;	/* pixel values in the framebuffer's format */
	uint32_t banner_h;	/* pixel rows reserved at the bottom (0: no banner) */
	unsigned scroll_step;	/* lines scrolled at once when the cursor leaves the grid */
	bool shadow;		/* text[] holds the grid (cols * rows <= FBCON_TEXT_MAX) */
	unsigned run_bytes;	/* bytes of one run[] entry; 0: scale too large, no runs */
	uint8_t run[16][FBCON_RUN_MAX];	/* 4-pixel pattern (bit 3 = leftmost) -> pixels */
	unsigned char text[FBCON_TEXT_MAX];
};

/* Pack 8-bit r, g, b into a pixel value using the surface's masks. */
uint32_t fb_rgb(const struct fb_surface *fb, uint8_t r, uint8_t g, uint8_t b);

/* A readable scale for this resolution: 1 up to ~1280x720, 2 at 1920x1080, 4 at 3840x2160. */
unsigned fbcon_auto_scale(uint32_t width, uint32_t height);

/*
 * Set up a console on `fb` (scale 0 = fbcon_auto_scale) and clear the screen.
 * Returns 0, or -1 when the surface is unusable (bpp not 24/32, a colour field outside
 * the pixel, pitch too small, or smaller than one character cell); `*why` says which.
 */
int fbcon_init(struct fbcon *fc, const struct fb_surface *fb, unsigned scale, const char **why);

/* Draw text: printable ASCII, '\n', '\r', '\t', '\b'; other bytes draw a box. */
void fbcon_write(struct fbcon *fc, const char *s, size_t n);

/* Draw one character cell at text position (col, row) without moving the cursor. */
void fbcon_draw_cell(struct fbcon *fc, unsigned col, unsigned row, unsigned char c);

/*
 * Pin `text` (one line) to the bottom of the screen in letters as large as fit (up to 4x
 * the text scale), colour (r, g, b) on the background; the text grid above shrinks and
 * later output scrolls above it. A second call replaces the banner.
 */
void fbcon_banner(struct fbcon *fc, const char *text, uint8_t r, uint8_t g, uint8_t b);

/* The banner's geometry (for tests): scale and top pixel row, 0 when none. */
unsigned fbcon_banner_scale(const struct fbcon *fc, size_t text_len);

#endif
