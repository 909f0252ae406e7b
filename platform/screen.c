/*
 * screen.c: the framebuffer side of a run (screen.h): the console mirror, the status line and
 * the result page, over platform/fbcon.c. The framebuffer is the multiboot2 framebuffer tag's
 * (multiboot2 spec §3.6.12; direct RGB only: EGA text and indexed colour are reported, not
 * drawn), mapped write-combining (SDM Vol. 3A 12.3 "Methods of Caching Available": WC for a
 * frame buffer). The status line and the page write pixels only; nothing here prints.
 */
#include "platform/screen.h"
#include "platform/fbcon.h"
#include "kernel/console.h"
#include "kernel/fmt.h"
#include "kernel/ktap.h"
#include "kernel/mm.h"

#include <string.h>

static struct fbcon fbc;
static bool fb_on, page_on;
static int verdict_drawn = -1;	/* the `failed` the banner shows; -1: none yet */
static struct console_backend fb_be;

static void fb_write(struct console_backend *be, const char *s, size_t n)
{
	(void)be;
	if (!page_on)
		fbcon_write(&fbc, s, n);
}

bool screen_start(const struct mb2_info *bi, const char *early, size_t early_len,
		  const char **note)
{
	const struct mb2_framebuffer *f = &bi->fb;
	struct fb_surface s;
	uint64_t bytes = (uint64_t)f->pitch * f->height;
	void *base;

	if (!f->present)
		return false;
	if (f->type != 1) {
		*note = f->type == 2 ? "EGA text mode (not drawn)" : "indexed colour (not drawn)";
		return false;
	}
	/* write-combining wherever it is: uncached (an MTRR UC range, or any mapping above
	 * 4 GiB) costs a bus transaction per byte written */
	base = mm_map_wc(f->addr, bytes);
	if (!base) {
		*note = "could not be mapped";
		return false;
	}
	s = (struct fb_surface){
		.base = base, .width = f->width, .height = f->height, .pitch = f->pitch,
		.bpp = f->bpp, .red_pos = f->red_pos, .red_size = f->red_size,
		.green_pos = f->green_pos, .green_size = f->green_size,
		.blue_pos = f->blue_pos, .blue_size = f->blue_size,
	};
	if (fbcon_init(&fbc, &s, 0, note) != 0)
		return false;
	fbcon_write(&fbc, early, early_len);
	fb_be = (struct console_backend){ .name = "fb", .write = fb_write };
	console_register(&fb_be);
	fb_on = true;
	return true;
}

bool screen_describe(char *b, size_t n)
{
	if (!fb_on)
		return false;
	fmt_snprintf(b, n, "framebuffer: %ux%u %u bpp pitch %u, text %ux%u scale %u",
		     fbc.fb.width, fbc.fb.height, fbc.fb.bpp, fbc.fb.pitch, fbc.cols, fbc.rows,
		     fbc.scale);
	return true;
}

void screen_status(const char *text)
{
	if (fb_on && !page_on)
		fbcon_status(&fbc, text, 0xff, 0xd0, 0x40);	/* amber: not a log line */
}

void screen_verdict(bool failed)
{
	const struct ktap_totals *t = ktap_get_cases();	/* the numbers of `# Totals:` */
	char line[80];

	if (!fb_on || verdict_drawn == (int)failed)
		return;
	fmt_snprintf(line, sizeof(line), "%s  pass:%u fail:%u skip:%u", failed ? "FAIL" : "PASS",
		     t->pass, t->fail, t->skip);
	fbcon_banner(&fbc, line, failed ? 0xff : 0x20, failed ? 0x30 : 0xe0, 0x30);
	verdict_drawn = failed;
}

unsigned screen_page_begin(bool failed, unsigned *cols)
{
	*cols = 0;
	if (!fb_on)
		return 0;
	screen_verdict(failed);
	page_on = true;
	fbcon_clear(&fbc);
	*cols = fbc.cols;
	return fbc.rows;
}

void screen_page_line(unsigned row, const char *text, enum screen_ink ink)
{
	static const uint8_t rgb[][3] = {
		[INK_TEXT] = { 0xd0, 0xd0, 0xd0 }, [INK_TITLE] = { 0xff, 0xff, 0xff },
		[INK_PASS] = { 0x40, 0xe0, 0x40 }, [INK_FAIL] = { 0xff, 0x50, 0x50 },
		[INK_NOTE] = { 0x80, 0xb0, 0xff },
	};
	const uint8_t *c = rgb[ink <= INK_NOTE ? ink : INK_TEXT];

	if (page_on)
		fbcon_text(&fbc, 0, row, text, strlen(text), fb_rgb(&fbc.fb, c[0], c[1], c[2]));
}
