; trampoline.asm: the application-processor start-up code (SDM Vol. 3A 9.4 "Multiple-Processor
; (MP) Initialization", 9.4.4.2 "Typical AP Initialization Sequence"; 10.8.5 "Initializing
; IA-32e Mode"). smp/smp_boot.c copies smp_tramp_start..smp_tramp_end to a free page below
; 1 MiB (the SIPI vector is its page number) and fills the parameter block at its end. The AP
; starts in real mode at CS = page << 8, IP = 0: it marks itself alive, loads the block's GDT,
; enters 32-bit protected mode, turns on PAE, the boot page tables (boot/entry.asm: 4 GiB
; identity, no NX bits, so this page is executable) and EFER.LME (+ NXE), and jumps to 64-bit
; code in the kernel image, which switches to the kernel's page tables and stack and calls
; smp_ap_main(percpu). Field offsets: TP_* below, mirrored by struct smp_tramp_params.
%include "defs.inc"

%define TP_EARLY_CR3   0    ; u32: boot page tables (below 4 GiB)
%define TP_EFER        4    ; u32: EFER bits to set (LME, NXE)
%define TP_JMP64       8    ; m16:32 far pointer to smp_ap_entry64, selector 0x18
%define TP_KCR3       16    ; u64: the kernel's page tables
%define TP_STACK      24    ; u64: stack top for this AP
%define TP_PERCPU     32    ; u64: struct percpu * of this AP
%define TP_ALIVE      40    ; u32: the AP writes 1 as its first act
%define TP_TAKEN      44    ; u32: the AP writes 1 once it holds its stack and percpu (the
                            ; boot CPU may then fill the block for the next AP)
%define TP_GDTR       48    ; u16 limit + u32 base (patched: page + offset of tramp_gdt)
%define TP_JMP32      56    ; m16:32 far pointer to pm32 (patched), selector 0x08
%define TP_SLOTS      64    ; u64: parallel start: the batch's slots (struct smp_slot)
%define TP_NSLOTS     72    ; u32: slots in the table
%define TP_IDLEAF     76    ; u32: CPUID leaf (0BH/1FH) whose EDX is this AP's x2APIC ID;
                            ; 0: one AP at a time, TP_STACK / TP_PERCPU are its own
%define SLOT_ID        0    ; u32 APIC ID
%define SLOT_TAKEN     4    ; u32: the AP writes 1 when it found its slot
%define SLOT_STACK     8    ; u64
%define SLOT_PERCPU   16    ; u64
%define SLOT_SIZE     24

section .rodata
align 16
global smp_tramp_start, smp_tramp_end, smp_tramp_params, smp_tramp_pm32, smp_tramp_gdt
smp_tramp_start:
bits 16
	cli
	cld
	mov ax, cs
	mov ds, ax
	mov dword [smp_tramp_params - smp_tramp_start + TP_ALIVE], 1
	xor ebx, ebx
	mov bx, ax
	shl ebx, 4                            ; EBX = linear base of this page, kept to 64-bit
	o32 lgdt [smp_tramp_params - smp_tramp_start + TP_GDTR]
	mov eax, cr0
	or eax, 1                             ; PE
	mov cr0, eax
	jmp dword far [smp_tramp_params - smp_tramp_start + TP_JMP32]

bits 32
smp_tramp_pm32:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov eax, cr4
	or eax, 1 << 5                        ; PAE
	mov cr4, eax
	mov eax, [ebx + smp_tramp_params - smp_tramp_start + TP_EARLY_CR3]
	mov cr3, eax
	mov ecx, 0xC0000080                   ; IA32_EFER
	rdmsr
	or eax, [ebx + smp_tramp_params - smp_tramp_start + TP_EFER]
	wrmsr
	; CR0 after INIT has CD and NW set (SDM Vol. 3A 10.1.1, Table 10-1): a fresh value turns
	; caching on (CD = NW = 0), as Linux's trampoline_64.S does with CR0_STATE
	mov eax, (1 << 31) | (1 << 16) | (1 << 5) | (1 << 4) | 1   ; PG, WP, NE, ET, PE
	mov cr0, eax
	jmp far [ebx + smp_tramp_params - smp_tramp_start + TP_JMP64]

align 8
smp_tramp_gdt:
	dq 0
	dq 0x00CF9A000000FFFF                 ; 0x08: 32-bit code
	dq 0x00CF92000000FFFF                 ; 0x10: data
	dq 0x00AF9A000000FFFF                 ; 0x18: 64-bit code
align 8
smp_tramp_params:
	times 80 db 0
smp_tramp_end:

section .text
bits 64
global smp_ap_entry64
extern smp_ap_main
smp_ap_entry64:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov ebx, ebx                          ; upper halves are undefined after the switch
	mov rax, [rbx + smp_tramp_params - smp_tramp_start + TP_KCR3]
	mov cr3, rax
	mov eax, [rbx + smp_tramp_params - smp_tramp_start + TP_IDLEAF]
	test eax, eax
	jnz .by_id
	mov rsp, [rbx + smp_tramp_params - smp_tramp_start + TP_STACK]
	mov rdi, [rbx + smp_tramp_params - smp_tramp_start + TP_PERCPU]
	mov dword [rbx + smp_tramp_params - smp_tramp_start + TP_TAKEN], 1
	jmp .go
.by_id:	; parallel start (Linux head_64.S STARTUP_READ_APICID): this AP's x2APIC ID from
	; CPUID leaf EAX subleaf 0, EDX (SDM Vol. 2A CPUID 0BH/1FH), looked up in the slots
	mov r8, rbx                           ; CPUID writes EBX
	xor ecx, ecx
	cpuid
	mov rsi, [r8 + smp_tramp_params - smp_tramp_start + TP_SLOTS]
	mov ecx, [r8 + smp_tramp_params - smp_tramp_start + TP_NSLOTS]
.next:
	test ecx, ecx
	jz .hang                              ; not in this batch: wait for INIT
	cmp [rsi + SLOT_ID], edx
	je .found
	add rsi, SLOT_SIZE
	dec ecx
	jmp .next
.found:
	mov rsp, [rsi + SLOT_STACK]
	mov rdi, [rsi + SLOT_PERCPU]
	mov dword [rsi + SLOT_TAKEN], 1
.go:
	xor ebp, ebp
	call smp_ap_main
.hang:
	cli
	hlt
	jmp .hang
