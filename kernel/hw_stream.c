/*
 * hw_stream.c: the bandwidth instruction kernels of kernel/hw_stream.h, as file-scope
 * assembly: the compiler emits these bytes as written, at -O2 on the host (tools/loadbench)
 * as in the kernel (-mgeneral-regs-only -fno-builtin), with no vector unit, no call to
 * memset or memcpy, no reordering. System V AMD64 calling convention: arguments in RDI, RSI,
 * RDX, RCX, result in RAX; only caller-saved registers are used (RAX RCX RDX RSI RDI R8-R11),
 * no stack. Per iteration, fully unrolled, offsets 0..56 of a 64-byte line:
 *   read   32 x `add m64, r64`, one line of each of 4 streams, 4 accumulators (4 independent
 *          dependency chains of 8 adds, never the limit: the load ports are, SDM Vol. 1 /
 *          Optimization Reference Manual "load ports" per microarchitecture)
 *   write  32 x `mov r64, m64`; write_nt: 32 x MOVNTI, one SFENCE after the loop
 *   mixR   8R x `add m64, r64` (R read streams) and 8 x `mov r64, m64` (one write stream)
 * plus 4-6 pointer adds, one DEC and one JNZ. The loads and stores of one iteration are
 * interleaved stream by stream (docs/bandwidth.md §1 lists the exact sequence).
 */
#include "kernel/hw_stream.h"

#define FN(n) ".pushsection .text." #n ",\"ax\",@progbits\n\t.globl " #n "\n\t.type " #n \
	", @function\n\t.p2align 5\n" #n ":\n\t"
#define END(n) ".size " #n ", . - " #n "\n\t.popsection\n\t"
#define OFFS "0, 8, 16, 24, 32, 40, 48, 56"

/* hw_stream_read(buf = RDI, bytes = RSI) -> RAX. Streams RDI R8 R9 R10, count RCX. */
__asm__(FN(hw_stream_read)
	"xorl %eax, %eax\n\t"
	"movq %rsi, %rcx\n\t"
	"shrq $8, %rcx\n\t"		/* iterations: bytes / 256 */
	"jz 2f\n\t"
	"shrq $2, %rsi\n\t"		/* one stream: bytes / 4 */
	"leaq (%rdi, %rsi), %r8\n\t"
	"leaq (%r8, %rsi), %r9\n\t"
	"leaq (%r9, %rsi), %r10\n\t"
	"xorl %edx, %edx\n\t"
	"xorl %r11d, %r11d\n\t"
	"xorl %esi, %esi\n\t"
	".p2align 4\n"
	"1:\n\t"
	".irp o, " OFFS "\n\t"
	"addq \\o(%rdi), %rax\n\t"
	"addq \\o(%r8), %rdx\n\t"
	"addq \\o(%r9), %r11\n\t"
	"addq \\o(%r10), %rsi\n\t"
	".endr\n\t"
	"addq $64, %rdi\n\t"
	"addq $64, %r8\n\t"
	"addq $64, %r9\n\t"
	"addq $64, %r10\n\t"
	"decq %rcx\n\t"
	"jnz 1b\n\t"
	"addq %rdx, %rax\n\t"
	"addq %r11, %rax\n\t"
	"addq %rsi, %rax\n"
	"2:\n\t"
	"ret\n\t"
	END(hw_stream_read));

/* hw_stream_write / _nt (buf = RDI, bytes = RSI, val = RDX): one body, the store given. */
#define WRITE_BODY(n, st, tail) FN(n) \
	"movq %rsi, %rcx\n\t" \
	"shrq $8, %rcx\n\t" \
	"jz 2f\n\t" \
	"shrq $2, %rsi\n\t" \
	"leaq (%rdi, %rsi), %r8\n\t" \
	"leaq (%r8, %rsi), %r9\n\t" \
	"leaq (%r9, %rsi), %r10\n\t" \
	".p2align 4\n" \
	"1:\n\t" \
	".irp o, " OFFS "\n\t" \
	st " %rdx, \\o(%rdi)\n\t" \
	st " %rdx, \\o(%r8)\n\t" \
	st " %rdx, \\o(%r9)\n\t" \
	st " %rdx, \\o(%r10)\n\t" \
	".endr\n\t" \
	"addq $64, %rdi\n\t" \
	"addq $64, %r8\n\t" \
	"addq $64, %r9\n\t" \
	"addq $64, %r10\n\t" \
	"decq %rcx\n\t" \
	"jnz 1b\n\t" \
	tail \
	"2:\n\t" \
	"ret\n\t" \
	END(n)

__asm__(WRITE_BODY(hw_stream_write, "movq", ""));
__asm__(WRITE_BODY(hw_stream_write_nt, "movnti", "sfence\n"));

/* hw_stream_mixR(src = RDI, dst = RSI, wbytes = RDX, val = RCX) -> RAX. Read streams RDI,
 * R8, R9 (accumulators RAX, R10, R11), write stream RSI, count RDX. */
#define MIX_BODY(n, r) FN(n) \
	"xorl %eax, %eax\n\t" \
	"xorl %r10d, %r10d\n\t" \
	"xorl %r11d, %r11d\n\t" \
	"leaq (%rdi, %rdx), %r8\n\t" \
	"leaq (%r8, %rdx), %r9\n\t" \
	"shrq $6, %rdx\n\t" \
	"jz 2f\n\t" \
	".p2align 4\n" \
	"1:\n\t" \
	".irp o, " OFFS "\n\t" \
	"addq \\o(%rdi), %rax\n\t" \
	".if " #r " >= 2\n\taddq \\o(%r8), %r10\n\t.endif\n\t" \
	".if " #r " >= 3\n\taddq \\o(%r9), %r11\n\t.endif\n\t" \
	"movq %rcx, \\o(%rsi)\n\t" \
	".endr\n\t" \
	"addq $64, %rdi\n\t" \
	".if " #r " >= 2\n\taddq $64, %r8\n\t.endif\n\t" \
	".if " #r " >= 3\n\taddq $64, %r9\n\t.endif\n\t" \
	"addq $64, %rsi\n\t" \
	"decq %rdx\n\t" \
	"jnz 1b\n\t" \
	"addq %r10, %rax\n\t" \
	"addq %r11, %rax\n" \
	"2:\n\t" \
	"ret\n\t" \
	END(n)

__asm__(MIX_BODY(hw_stream_mix1, 1));
__asm__(MIX_BODY(hw_stream_mix2, 2));
__asm__(MIX_BODY(hw_stream_mix3, 3));
