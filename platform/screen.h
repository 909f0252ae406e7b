/*
 * screen.h: what the run shows on the machine's own screen (issue 29), for a person at the
 * machine without a serial cable: the framebuffer console (platform/fbcon.h) that mirrors the
 * log while the run starts, a status line at a fixed row while tests run ("test 7 of 17:
 * load_l1"), and after the run one page of lines at fixed rows above the verdict banner.
 * The status line and the page are drawn on the framebuffer only: the serial log does not
 * gain a byte. The run (ktests/) decides what the lines say; this layer only draws them.
 */
#ifndef PLATFORM_SCREEN_H
#define PLATFORM_SCREEN_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/mb2.h"

/* Map the multiboot2 framebuffer write-combining, start the console on it, replay the `early`
 * output onto it and register it as a console. false with *note when there is none to draw. */
bool screen_start(const struct mb2_info *bi, const char *early, size_t early_len,
		  const char **note);
/* The `# framebuffer:` header text (geometry, text grid, scale) into b; false without one. */
bool screen_describe(char *b, size_t n);

/* The status line (cut at the width); nothing without a framebuffer or once the page is up. */
void screen_status(const char *text);

/* Colours of a page line. */
enum screen_ink { INK_TEXT, INK_TITLE, INK_PASS, INK_FAIL, INK_NOTE };

/* Start the result page: the verdict banner (screen_verdict), every text row cleared, and the
 * console no longer drawn (the page stays as drawn). Returns the rows of the page (0 without
 * a framebuffer) and their width in *cols. */
unsigned screen_page_begin(bool failed, unsigned *cols);
/* One line of the page at text row `row` (0 = top), cut at the width. */
void screen_page_line(unsigned row, const char *text, enum screen_ink ink);

/* The verdict banner from the test-case totals (kernel/ktap.h), green PASS or red FAIL;
 * drawn once per verdict (the end= hook calls it again). */
void screen_verdict(bool failed);

#endif
