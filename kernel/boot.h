/*
 * boot.h: what the boot path leaves for the rest of the kernel: the parsed multiboot2
 * information and where it lives (kernel/boot.c; filled in by the run, init/main.c).
 */
#ifndef KERNEL_BOOT_H
#define KERNEL_BOOT_H

#include <stdint.h>

#include "kernel/mb2.h"

extern struct mb2_info boot_info;
extern uint64_t boot_info_addr;
/* "id=<hex> time=<RTC>" of the `# run:` header line (init/main.c), for the result screen */
extern char boot_run_identity[64];

#endif
