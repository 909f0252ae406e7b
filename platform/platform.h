/*
 * platform.h: what a real machine needs besides the CPU (issue 8, docs/usb.md): the ACPI tables,
 * the serial ports found by discovery (platform/uart.h), the framebuffer console
 * (platform/fbcon.h) and how the run ends (platform/power.h). init/main.c calls the three
 * steps below in order; everything else in the kernel just calls kprintf.
 */
#ifndef PLATFORM_PLATFORM_H
#define PLATFORM_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>

#include "platform/acpi.h"
#include "kernel/cmdline.h"
#include "kernel/mb2.h"
#include "platform/numa.h"

/* The ACPI tables as read at boot (valid == false when there were none). */
extern struct acpi_info acpi;
/* The NUMA topology from the SRAT and SLIT (platform/numa.h; one node without an SRAT). */
extern struct numa_info numa;

/*
 * Before mm_init (the early page tables identity-map the low 4 GiB, BDA and ACPI tables
 * included): read ACPI, apply console=, probe the UART candidates and register every one
 * that answers. Returns true when the platform now owns serial output (the caller then
 * silences its early COM1 port); a problem for the log goes to `warn` (may be "").
 */
bool platform_console_setup(const struct mb2_info *bi, const struct cmdline *cl,
			    char *warn, size_t warn_len);

/* After mm_init: map and start the framebuffer console, install the end= hook. */
void platform_late_setup(const struct mb2_info *bi);

/* Environment header lines ("# console: ...", "# acpi: ..."). */
void platform_print_header(const struct mb2_info *bi);

/* The SMBIOS tables as platform_print_header read them (platform/smbios.h). */
struct smbios_info;
const struct smbios_info *platform_smbios(void);

#endif
