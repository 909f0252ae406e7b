/*
 * boot.h: what the boot path leaves for the rest of the kernel: the parsed multiboot2
 * information and where it lives, and kmain itself (called from boot/entry.asm).
 */
#ifndef KERNEL_BOOT_H
#define KERNEL_BOOT_H

#include <stdint.h>

#include "kernel/mb2.h"

extern struct mb2_info boot_info;
extern uint64_t boot_info_addr;

void kmain(uint32_t magic, uint64_t info);

#endif
