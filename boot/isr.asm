; isr.asm: the 256 interrupt entry stubs and the common path into C (SDM Vol. 3A 6.12, 6.14).
; Each entry pushes a zero error code where the CPU pushes none, then its vector, so every
; frame has the shape of struct trap_frame (kernel/idt.h). The common path saves all GPRs,
; aligns the stack for the C ABI, calls trap_dispatch(frame) and returns with IRETQ.
%include "defs.inc"

bits 64
section .text
extern trap_dispatch
global isr_entry_table

; vectors whose exceptions push an error code: #DF 8, #TS 10, #NP 11, #SS 12, #GP 13,
; #PF 14, #AC 17, #CP 21, #VC 29, #SX 30
%macro ISR_ENTRY 1
isr_entry_%1:
%if %1 == 8 || (%1 >= 10 && %1 <= 14) || %1 == 17 || %1 == 21 || %1 == 29 || %1 == 30
%else
	push 0
%endif
	push %1
	jmp isr_common
%endmacro

%assign v 0
%rep 256
ISR_ENTRY v
%assign v v + 1
%endrep

isr_common:
	push rax
	push rbx
	push rcx
	push rdx
	push rsi
	push rdi
	push rbp
	push r8
	push r9
	push r10
	push r11
	push r12
	push r13
	push r14
	push r15
	mov rdi, rsp
	mov rbx, rsp                          ; rbx is callee-saved: restores rsp after the call
	and rsp, -16
	cld
	call trap_dispatch
	mov rsp, rbx
	pop r15
	pop r14
	pop r13
	pop r12
	pop r11
	pop r10
	pop r9
	pop r8
	pop rbp
	pop rdi
	pop rsi
	pop rdx
	pop rcx
	pop rbx
	pop rax
	add rsp, 16                           ; vector and error code
	iretq

section .rodata
align 8
isr_entry_table:
%assign v 0
%rep 256
	dq isr_entry_ %+ v
%assign v v + 1
%endrep
