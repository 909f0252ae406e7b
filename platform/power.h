/*
 * power.h: ending a run on hardware (end=halt|reboot|poweroff). Reboot: the ACPI reset
 * register (ACPI 6.5 §4.8.3.6), then the 8042 keyboard controller pulse (command 0xFE on
 * port 0x64), then the PCI reset control port 0xCF9. Power-off: S5 through the PM1 control
 * blocks, or SLEEP_CONTROL_REG on HW-reduced platforms (§4.8.3.7, §16.1.7), only when the
 * \_S5 sleep type was found in the DSDT without running AML (platform/acpi_fadt.c).
 */
#ifndef PLATFORM_POWER_H
#define PLATFORM_POWER_H

#include <stdbool.h>

#include "platform/acpi.h"

enum end_action { END_HALT, END_REBOOT, END_POWEROFF };

/* "halt" | "reboot" | "poweroff" (NULL: halt). false for anything else (*a = END_HALT). */
bool end_action_parse(const char *val, enum end_action *a);

/* Each method is tried, then given ~100 ms; returns only when none reset the machine. */
void power_reboot(const struct acpi_info *ai);

/* Returns only when S5 did not happen; *why says why (no ACPI, no \_S5, ...). */
void power_off(const struct acpi_info *ai, const char **why);

#endif
