/*
 * jump.h: setjmp/longjmp for the kernel test runner (boot/jump.asm). Used to abandon a test
 * after an unexpected exception or a watchdog expiry and return to the runner.
 */
#ifndef KERNEL_JUMP_H
#define KERNEL_JUMP_H

#include <stdint.h>

struct kjmp {
	uint64_t rbx, rbp, r12, r13, r14, r15, rsp, rip;
};

int kjmp_set(struct kjmp *j) __attribute__((returns_twice));
__attribute__((noreturn)) void kjmp_long(struct kjmp *j, int val);

#endif
