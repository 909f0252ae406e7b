/*
 * init.h: the run's own entry point, for init/ alone (nothing else includes the top of the
 * layer stack): kmain, called once by boot/entry.asm in 64-bit mode with the multiboot2
 * magic (EAX at hand-over, Multiboot2 Specification 3.2) and the boot information's address.
 */
#ifndef INIT_INIT_H
#define INIT_INIT_H

#include <stdint.h>

void kmain(uint32_t magic, uint64_t info);

#endif
