/*
 * exit.h: how a run ends. Under a hypervisor (CPUID.1:ECX[31]) the verdict goes to the
 * isa-debug-exit port 0xf4 (QEMU exits with (v << 1) | 1: 1 = passed, 3 = failed); on real
 * hardware that port is never touched and the kernel halts after its last line (or reboots /
 * powers off when end= asks; the platform code installs those through run_set_end_hook).
 * `exit=port|halt` overrides the automatic choice.
 */
#ifndef KERNEL_EXIT_H
#define KERNEL_EXIT_H

#include <stdbool.h>

#define DEBUG_EXIT_PORT 0xf4

__attribute__((noreturn)) void run_exit(bool failed);
/* Bail out from anywhere: prints the reason, the totals so far, and ends with a failure. */
__attribute__((noreturn)) void run_fatal(const char *why);

/* Called last on hardware instead of halting (end=reboot|poweroff); must not return. */
void run_set_end_hook(void (*fn)(bool failed));

#endif
