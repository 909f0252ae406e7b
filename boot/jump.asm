; jump.asm: kjmp_set/kjmp_long, a minimal setjmp/longjmp for the test runner. A test that
; takes an unexpected exception or overruns its watchdog is abandoned by jumping back to the
; runner, which reports it and goes on (kernel/jump.h). Saves the SysV callee-saved registers.
bits 64
section .text
global kjmp_set, kjmp_long

; int kjmp_set(struct kjmp *j)  -- returns 0 now, the value passed to kjmp_long later
kjmp_set:
	mov [rdi + 0], rbx
	mov [rdi + 8], rbp
	mov [rdi + 16], r12
	mov [rdi + 24], r13
	mov [rdi + 32], r14
	mov [rdi + 40], r15
	lea rdx, [rsp + 8]                    ; rsp after our return
	mov [rdi + 48], rdx
	mov rdx, [rsp]                        ; return address
	mov [rdi + 56], rdx
	xor eax, eax
	ret

; void kjmp_long(struct kjmp *j, int val)  -- never returns; val 0 becomes 1
kjmp_long:
	mov eax, esi
	test eax, eax
	jnz .nz
	inc eax
.nz:
	mov rbx, [rdi + 0]
	mov rbp, [rdi + 8]
	mov r12, [rdi + 16]
	mov r13, [rdi + 24]
	mov r14, [rdi + 32]
	mov r15, [rdi + 40]
	mov rsp, [rdi + 48]
	jmp [rdi + 56]
