; empty.asm: the smallest multiboot2 kernel that ends a QEMU run the way pebs-kernel does, for
; tests/bench/boot.bench's baseline (firmware + GRUB + one serial line + exit, nothing else).
; The header asks GRUB for the same tags as boot/header.asm (multiboot2 spec 3.1: a framebuffer
; tag, type 5, optional), so GRUB does the same mode-setting work for both kernels. At entry
; (multiboot2 spec 3.2: 32-bit protected mode, paging off) it writes "# EXIT: STATUS=0" to
; COM1 (the line tests/boot/qemu-run.sh reads) and 0 to the isa-debug-exit port 0xF4 (QEMU
; exits with status 1 = (0 << 1) | 1).
bits 32
section .multiboot2
align 8
hdr:
	dd 0xE85250D6
	dd 0
	dd hdr_end - hdr
	dd -(0xE85250D6 + 0 + (hdr_end - hdr))
align 8
	dw 5, 1
	dd 20
	dd 0, 0, 32
align 8
	dw 0, 0
	dd 8
hdr_end:

section .text
global _start
_start:
	mov esi, msg
.next:	lodsb
	test al, al
	jz .exit
	mov ah, al
	mov dx, 0x3FD			; line status register: wait for THR empty (bit 5)
.wait:	in al, dx
	test al, 0x20
	jz .wait
	mov al, ah
	mov dx, 0x3F8
	out dx, al
	jmp .next
.exit:	mov dx, 0xF4
	xor eax, eax
	out dx, eax
.halt:	cli
	hlt
	jmp .halt

section .rodata
msg:	db "# EXIT: STATUS=0", 13, 10, 0
