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
/* "pebs-kernel <version>  run id=<hex> time=<RTC>": the `# pebs-kernel` and `# run:` header
 * lines in one (init/main.c), the result screen's first line */
extern char boot_run_identity[112];

#endif
