/*
 * inject.c: the injector (loads/inject.h). The passes are a top-level assembly block, System V
 * AMD64 calling convention (rdi, rsi, rdx in; rax out; rcx, r8-r11 clobbered), assembled alike
 * into the kernel and into loadbench. Instruction mix per line: 2 MOV + 6 ADD loads (8 x 8 B),
 * 4 ADD reg, [LOADED_RW: 8 MOV stores], ADD/CMP/JB, and `delay` x (DEC, JNZ). The loads of a line
 * are independent of other lines, so consecutive lines' misses overlap as far as the core lets
 * them (Intel MLC injects the same way: independent sequential lines, a delay between them).
 */
#include "loads/inject.h"
#include "kernel/tsc.h"

/* The parts both passes share: entry (rax <- 0, rsi <- end, nothing to do when empty), the
 * eight loads of one 64-byte line summed into rax, and the delay then the next line. */
#define INJ_ENTER(name)							\
	".p2align 4\n"							\
	".globl " name "\n"						\
	".type " name ", @function\n"					\
	name ":\n"							\
	"	xor %eax, %eax\n"					\
	"	add %rdi, %rsi\n"					\
	"	cmp %rsi, %rdi\n"					\
	"	jae 3f\n"
#define INJ_LOAD_LINE							\
	"1:	mov (%rdi), %r8\n"					\
	"	mov 8(%rdi), %r9\n"					\
	"	add 16(%rdi), %r8\n"					\
	"	add 24(%rdi), %r9\n"					\
	"	add 32(%rdi), %r8\n"					\
	"	add 40(%rdi), %r9\n"					\
	"	add 48(%rdi), %r8\n"					\
	"	add 56(%rdi), %r9\n"					\
	"	add %r8, %rax\n"					\
	"	add %r9, %rax\n"
#define INJ_DELAY_NEXT(name)						\
	"	mov %rdx, %rcx\n"					\
	"	test %rcx, %rcx\n"					\
	"	jz 2f\n"						\
	"4:	dec %rcx\n"						\
	"	jnz 4b\n"						\
	"2:	add $64, %rdi\n"					\
	"	cmp %rsi, %rdi\n"					\
	"	jb 1b\n"						\
	"3:	ret\n"							\
	".size " name ", .-" name "\n"

__asm__(
	".text\n"
	INJ_ENTER("inject_read_pass")
	INJ_LOAD_LINE
	INJ_DELAY_NEXT("inject_read_pass")
	"\n"
	INJ_ENTER("inject_rw_pass")
	INJ_LOAD_LINE
	"	mov %rax, (%rdi)\n"
	"	mov %rax, 8(%rdi)\n"
	"	mov %rax, 16(%rdi)\n"
	"	mov %rax, 24(%rdi)\n"
	"	mov %rax, 32(%rdi)\n"
	"	mov %rax, 40(%rdi)\n"
	"	mov %rax, 48(%rdi)\n"
	"	mov %rax, 56(%rdi)\n"
	INJ_DELAY_NEXT("inject_rw_pass")
	"\n"
	".p2align 4\n"
	".globl inject_delay\n"
	".type inject_delay, @function\n"
	"inject_delay:\n"
	"	mov %rdi, %rcx\n"
	"	test %rcx, %rcx\n"
	"	jz 2f\n"
	"4:	dec %rcx\n"
	"	jnz 4b\n"
	"2:	ret\n"
	".size inject_delay, .-inject_delay\n");

void inject_job_arm(struct inject_job *job, uint64_t delay, uint64_t bound_ticks)
{
	job->delay = delay;
	job->stop = 0;
	job->running = 0;
	job->res = (struct loaded_inj){ 0 };
	job->bound_ticks = bound_ticks;
}

uint64_t inject_calibrate(uint64_t iters)
{
	uint64_t best = UINT64_MAX;

	for (unsigned i = 0; i < 3; i++) {
		uint64_t t0 = rdtsc_ordered(), t1;

		inject_delay(iters);
		t1 = rdtsc_ordered();
		if (t1 - t0 < best)
			best = t1 - t0;
	}
	return iters ? best * 100 / iters : 0;
}

unsigned inject_line_bytes(enum loaded_mix mix)
{
	return mix == LOADED_RW ? 128u : 64u;
}

void inject_run(struct inject_job *j)
{
	uint64_t off = 0, t0 = rdtsc_ordered(), t1 = t0;
	unsigned per_line = inject_line_bytes(j->mix);

	j->res = (struct loaded_inj){ .started = true };
	__atomic_store_n(&j->running, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&j->stop, __ATOMIC_ACQUIRE)) {
		if (j->mix == LOADED_RW)
			j->sum += inject_rw_pass(j->buf + off, LOADED_CHUNK, j->delay);
		else
			j->sum += inject_read_pass(j->buf + off, LOADED_CHUNK, j->delay);
		t1 = rdtsc_ordered();
		j->res.bytes += LOADED_CHUNK / 64 * per_line;
		off = off + LOADED_CHUNK >= j->bytes ? 0 : off + LOADED_CHUNK;
		if (j->bound_ticks && t1 - t0 > j->bound_ticks)
			break;
	}
	j->res.ticks = t1 - t0;
	j->res.stopped = true;
}
