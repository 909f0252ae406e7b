; entry.asm: 32-bit protected-mode entry from GRUB (multiboot2 spec 3.3) to 64-bit C.
; Checks the boot-loader magic and long-mode support (CPUID.80000001H:EDX.LM[29]), printing
; why on COM1 and halting if either is missing; builds early page tables identity-mapping
; the first 4 GiB with 2 MiB pages; enables PAE, LME (and NXE when CPUID.80000001H:EDX[20]),
; paging and WP; loads a 64-bit GDT and calls kmain(magic, info) (SDM Vol. 3A 10.8.5).
%include "defs.inc"

bits 32
section .boot.text progbits alloc exec nowrite
global _start, early_pml4
extern kmain
extern __bss_start, __bss_end, kstacks

_start:
	cli
	cld
	mov esp, early_stack_top
	mov edi, eax                          ; keep magic and info across the checks
	mov esi, ebx

	cmp edi, MB2_BOOTLOADER_MAGIC
	jne .no_mb2

	; CPUID must report extended leaf 0x80000001 and LM.
	mov eax, 0x80000000
	cpuid
	cmp eax, 0x80000001
	jb .no_lm
	mov eax, 0x80000001
	cpuid
	test edx, 1 << 29
	jz .no_lm
	mov [nx_supported], edx               ; bit 20 checked below

	; Early tables: PML4[0] -> PDPT; PDPT[0..3] -> PD0..3; each PD maps 1 GiB with 2 MiB pages.
	mov eax, early_pdpt
	or eax, 3
	mov [early_pml4], eax
	mov ecx, 0
.pdpt:
	mov eax, ecx
	shl eax, 12
	add eax, early_pd
	or eax, 3
	mov [early_pdpt + ecx * 8], eax
	inc ecx
	cmp ecx, 4
	jb .pdpt
	xor ecx, ecx                          ; 2048 entries of 2 MiB = 4 GiB
.pd:
	mov eax, ecx
	shl eax, 21
	or eax, 0x83                          ; present, writable, PS
	mov [early_pd + ecx * 8], eax
	mov eax, ecx
	shr eax, 11                           ; high dword: bits 32+ of the address
	mov [early_pd + ecx * 8 + 4], eax
	inc ecx
	cmp ecx, 2048
	jb .pd

	mov eax, cr4
	or eax, 1 << 5                        ; PAE
	mov cr4, eax
	mov eax, early_pml4
	mov cr3, eax
	mov ecx, 0xC0000080                   ; IA32_EFER
	rdmsr
	or eax, 1 << 8                        ; LME
	test dword [nx_supported], 1 << 20
	jz .no_nx
	or eax, 1 << 11                       ; NXE
.no_nx:
	wrmsr
	mov eax, cr0
	or eax, (1 << 31) | (1 << 16) | 1     ; PG, WP, PE
	mov cr0, eax

	lgdt [early_gdt_ptr]
	jmp GDT_KCODE:long_mode

.no_mb2:
	mov ebx, msg_no_mb2
	jmp .fatal
.no_lm:
	mov ebx, msg_no_lm
.fatal:
	call serial_puts32
	; under a hypervisor (CPUID.1:ECX[31]) report the failure through isa-debug-exit, as
	; kernel/exit.c does; real hardware never sees this port written
	mov eax, 1
	cpuid
	test ecx, 1 << 31
	jz .halt
	mov dx, DEBUG_EXIT_PORT
	mov al, 1
	out dx, al
.halt:
	cli
	hlt
	jmp .halt

; Print the NUL-terminated string at EBX on COM1; every wait is bounded (no UART: no hang).
serial_puts32:
	mov dx, COM1 + 3
	mov al, 0x80                          ; DLAB
	out dx, al
	mov dx, COM1
	mov al, 1                             ; divisor 1: 115200 baud
	out dx, al
	mov dx, COM1 + 1
	xor al, al
	out dx, al
	mov dx, COM1 + 3
	mov al, 3                             ; 8N1
	out dx, al
.next:
	mov al, [ebx]
	test al, al
	jz .done
	mov ecx, 100000
.wait:
	mov dx, COM1 + 5
	in al, dx
	test al, 0x20
	jnz .send
	dec ecx
	jnz .wait
.send:
	mov dx, COM1
	mov al, [ebx]
	out dx, al
	inc ebx
	jmp .next
.done:
	ret

bits 64
long_mode:
	mov ax, GDT_KDATA
	mov ds, ax
	mov es, ax
	mov ss, ax
	xor ax, ax
	mov fs, ax
	mov gs, ax
	mov rsp, kstacks + 4096 + BOOT_STACK_SIZE  ; stack 0: the boot stack, above its guard page
	; clear BSS (it holds the boot stack, still empty: rep stosb pushes nothing)
	mov rdx, rdi
	mov rbx, rsi
	mov rdi, __bss_start
	mov rcx, __bss_end
	sub rcx, rdi
	xor eax, eax
	rep stosb
	mov edi, edx                          ; kmain(magic, info)
	mov esi, ebx
	xor ebp, ebp
	call kmain
.hang:
	cli
	hlt
	jmp .hang

section .boot.rodata progbits alloc noexec nowrite
msg_no_mb2: db "Bail out! pebs-kernel: not started by a multiboot2 loader (bad magic in EAX): halted", 13, 10
            db "# EXIT: STATUS=1", 13, 10, 0
msg_no_lm:  db "Bail out! pebs-kernel: this CPU has no long mode (CPUID.80000001H:EDX.LM = 0): halted", 13, 10
            db "# EXIT: STATUS=1", 13, 10, 0
align 8
early_gdt:
	dq 0
	dq 0x00AF9A000000FFFF                 ; 0x08: 64-bit code, DPL 0
	dq 0x00CF92000000FFFF                 ; 0x10: data
early_gdt_ptr:
	dw early_gdt_ptr - early_gdt - 1
	dq early_gdt

section .boot.bss nobits alloc noexec write
alignb 4096
early_pml4:  resb 4096
early_pdpt:  resb 4096
early_pd:    resb 4096 * 4
nx_supported: resd 1
alignb 16
early_stack: resb 1024
early_stack_top:
