/*
 * fbcon.h: a text console drawn into a linear RGB framebuffer (pure C: it only writes the
 * memory it is given, so host tests render into a buffer and compare pixels). Framebuffer
 * geometry and colour masks come from the multiboot2 framebuffer tag (type 1, direct RGB;
 * multiboot2 spec §3.6.12). 24 and 32 bpp. The 8x16 font is scaled by an integer factor
 * so text stays readable on 4K panels. Text scrolls; a banner (the final verdict) can be
 * pinned to the bottom of the screen in large letters and stays there; a status line can be
 * kept on the text row under the scrolling grid; the screen can be cleared for a page of
 * lines drawn at fixed rows, in colours. Pixels: platform/fbcon_draw.h.
 */
#ifndef PLATFORM_FBCON_H
#define PLATFORM_FBCON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "platform/fbcon_draw.h"

/* Text grid kept in RAM so that scrolling redraws cells instead of reading the framebuffer
 * back (uncached or write-combining reads cost ~1 us each on real hardware); a grid larger
 * than this scrolls by memmove on the framebuffer. */
#define FBCON_TEXT_MAX 32768

struct fbcon {
	struct fb_surface fb;
	unsigned scale;		/* font scale factor */
	unsigned cols, rows;	/* text grid (rows above the status row and the banner) */
	unsigned cx, cy;	/* cursor cell */
	uint32_t fg, bg;	/* pixel values in the framebuffer's format */
	uint32_t banner_h;	/* pixel rows reserved at the bottom (0: no banner) */
	unsigned scroll_step;	/* lines scrolled at once when the cursor leaves the grid */
	bool shadow;		/* text[] holds the grid (cols * rows <= FBCON_TEXT_MAX) */
	bool status;		/* text row `rows` holds the status line (fbcon_status) */
	struct fb_runs runs;	/* cells in fg on bg */
	unsigned char text[FBCON_TEXT_MAX];
};

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

/*
 * The status line: `text` on the text row right under the scrolling grid (the grid gives up
 * its last row on the first call, scrolling one line when the cursor was on it), in colour
 * (r, g, b), cut at the width and padded with blanks; later calls redraw that row only.
 * Scrolling never touches it; a banner takes its place.
 */
void fbcon_status(struct fbcon *fc, const char *text, uint8_t r, uint8_t g, uint8_t b);

/* Clear every text row above the banner (the status line too, which is given up) and put the
 * cursor home: a page follows. */
void fbcon_clear(struct fbcon *fc);

/* Draw n characters of s at text cell (col, row) in colour fg (a pixel value, fb_rgb), cut at
 * the last column; the cursor stays. Rows of the grid only. */
void fbcon_text(struct fbcon *fc, unsigned col, unsigned row, const char *s, size_t n,
		uint32_t fg);

#endif
