/*
 * fbcon.c: text rendering into a linear RGB framebuffer (multiboot2 spec §3.6.12, framebuffer
 * type 1 "direct RGB"). Pure: draws through platform/fbcon_draw.c, which writes only inside the
 * surface. Scrolling redraws the cells whose character changed from a copy of the text grid
 * in RAM (a framebuffer is never read back: that is slow on real hardware), and jumps several
 * lines at a time (fc->scroll_step); only a grid too large for the copy is moved with memmove
 * on the framebuffer. Below the grid: the status line (one text row), then the banner.
 */
#include "platform/fbcon.h"
#include "platform/font.h"

#include <string.h>

#define BANNER_MAX_MUL 4	/* banner letters up to 4x the text scale */

unsigned fbcon_auto_scale(uint32_t width, uint32_t height)
{
	uint32_t s = width / 960 < height / 540 ? width / 960 : height / 540;

	return s < 1 ? 1 : s > 8 ? 8 : s;
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
	fb_runs_build(&fc->runs, fb, fc->scale, fc->fg, fc->bg);
	fc->shadow = (size_t)fc->cols * fc->rows <= FBCON_TEXT_MAX;
	if (fc->shadow)
		memset(fc->text, ' ', (size_t)fc->cols * fc->rows);	/* the cleared screen */
	fb_fill(&fc->fb, 0, 0, fb->width, fb->height, fc->bg);
	return 0;
}

void fbcon_draw_cell(struct fbcon *fc, unsigned col, unsigned row, unsigned char c)
{
	unsigned cw = FONT_W * fc->scale, ch = FONT_H * fc->scale;

	if (col < fc->cols && row < fc->rows) {
		fb_glyph(&fc->fb, &fc->runs, col * cw, row * ch, fc->scale, c, fc->fg, fc->bg);
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
	fb_fill(&fc->fb, 0, (uint32_t)((fc->rows - n) * lh), fc->fb.width, (uint32_t)(n * lh),
		fc->bg);
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
	fc->status = false;	/* the banner's fill below takes the status row */
	if (fc->banner_h == 0 || rows < fc->rows) {
		if (fc->cy >= rows && rows)
			scroll(fc, fc->cy - rows + 1);
		fc->rows = rows;
	}
	fc->banner_h = fc->fb.height - fc->rows * lh;
	top = fc->fb.height - fc->banner_h;
	fb_fill(&fc->fb, 0, top, fc->fb.width, fc->banner_h, fc->bg);
	x = (uint32_t)((fc->fb.width - len * FONT_W * s) / 2);
	top += (fc->banner_h - FONT_H * s) / 2;
	for (size_t i = 0; i < len; i++)
		fb_glyph(&fc->fb, NULL, x + (uint32_t)(i * FONT_W * s), top, s,
			 (unsigned char)text[i], fg, fc->bg);
}

/* n characters of s at cell (col, row) of any text row above the banner, in fg; the runs for
 * a colour other than the text's are built here (16 entries, cheaper than a pixel loop). */
static void text_at(struct fbcon *fc, unsigned col, unsigned row, const char *s, size_t n,
		    uint32_t fg)
{
	static struct fb_runs ink;	/* static: 2 KiB, kept off the kernel stack */
	unsigned cw = FONT_W * fc->scale, ch = FONT_H * fc->scale;
	const struct fb_runs *r = &fc->runs;

	if (fg != fc->fg) {
		fb_runs_build(&ink, &fc->fb, fc->scale, fg, fc->bg);
		r = &ink;
	}
	for (size_t i = 0; i < n && col + i < fc->cols; i++)
		fb_glyph(&fc->fb, r, (uint32_t)((col + i) * cw), row * ch, fc->scale,
			 (unsigned char)s[i], fg, fc->bg);
}

void fbcon_text(struct fbcon *fc, unsigned col, unsigned row, const char *s, size_t n,
		uint32_t fg)
{
	if (row >= fc->rows || col >= fc->cols)
		return;
	text_at(fc, col, row, s, n, fg);
	if (fc->shadow)		/* a later scroll redraws these cells in the text colour */
		for (size_t i = 0; i < n && col + i < fc->cols; i++)
			fc->text[(size_t)row * fc->cols + col + i] = (unsigned char)s[i];
}

void fbcon_status(struct fbcon *fc, const char *text, uint8_t r, uint8_t g, uint8_t b)
{
	size_t len = strlen(text);

	if (!fc->status) {
		if (fc->rows < 2 || fc->banner_h)
			return;		/* no room, or the run is over (the banner is up) */
		if (fc->cy >= fc->rows - 1)
			scroll(fc, fc->cy - (fc->rows - 1) + 1);
		fc->rows--;
		fc->status = true;
	}
	if (len > fc->cols)
		len = fc->cols;
	text_at(fc, 0, fc->rows, text, len, fb_rgb(&fc->fb, r, g, b));
	fb_fill(&fc->fb, (uint32_t)(len * FONT_W * fc->scale), fc->rows * FONT_H * fc->scale,
		fc->fb.width, FONT_H * fc->scale, fc->bg);
}

void fbcon_clear(struct fbcon *fc)
{
	if (fc->status) {
		fc->rows++;
		fc->status = false;
	}
	fb_fill(&fc->fb, 0, 0, fc->fb.width, fc->fb.height - fc->banner_h, fc->bg);
	if (fc->shadow)
		memset(fc->text, ' ', (size_t)fc->cols * fc->rows);
	fc->cx = fc->cy = 0;
}
