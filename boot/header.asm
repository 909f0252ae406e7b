; header.asm: the multiboot2 header (multiboot2 spec 3.1). GRUB finds it in the first 32 KiB.
; Tags: information request (so GRUB knows what we parse), then the end tag.
%include "defs.inc"

section .multiboot2
align 8
mb2_header:
	dd MB2_HEADER_MAGIC
	dd 0                                  ; architecture 0: i386 protected mode
	dd mb2_header_end - mb2_header
	dd -(MB2_HEADER_MAGIC + 0 + (mb2_header_end - mb2_header))
align 8
	; framebuffer tag (type 5), optional (flags bit 0): any mode GRUB picks (0 = no preference)
	dw 5, 1
	dd 20
	dd 0, 0, 32
align 8
	dw 0, 0                               ; end tag
	dd 8
mb2_header_end:
