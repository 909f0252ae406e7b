/*
 * screen.h: what the run puts on the machine's own screen (issue 29; drawn by
 * platform/screen.h, on the framebuffer only): the status line before each test ("test 7 of
 * 17: load_l1") and, after the totals, the result page: who the machine is (CPU, SMBIOS
 * system/board/BIOS and memory, the run id), the per-level table of load_l1..load_dram (ns and
 * core cycles per load, the sampler's share of the target level or why it did not run), the
 * totals and every FAIL with its reason. The serial log does not gain a byte.
 */
#ifndef KTESTS_SCREEN_H
#define KTESTS_SCREEN_H

#include <stdbool.h>

/* Start watching the results (kernel/ktap.h ktap_set_observer) for the page. */
void kscreen_init(void);
/* The status line for test k of n, named name. */
void kscreen_status(unsigned k, unsigned n, const char *name);
/* The result page (after ktap_totals); failed: the run's verdict. */
void kscreen_page(bool failed);

#endif
