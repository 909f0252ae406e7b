/*
 * mb2.h: multiboot2 boot information (Multiboot2 Specification 2.0, section 3.6), parsed once
 * into struct mb2_info (pure C). The parser trusts nothing: total size, every tag size and
 * every entry size is checked against the bounds before it is read; problems are reported
 * through a callback and counted, and whatever was valid is kept.
 */
#ifndef KERNEL_MB2_H
#define KERNEL_MB2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MB2_BOOTLOADER_MAGIC 0x36d76289u
#define MB2_MAX_INFO_SIZE    (1u << 20)	/* larger than any real boot info: refused */
#define MB2_MAX_MMAP         128

/* Tag types (spec 3.6.x). */
enum {
	MB2_TAG_END = 0, MB2_TAG_CMDLINE = 1, MB2_TAG_LOADER = 2, MB2_TAG_MODULE = 3,
	MB2_TAG_MEMINFO = 4, MB2_TAG_BOOTDEV = 5, MB2_TAG_MMAP = 6, MB2_TAG_VBE = 7,
	MB2_TAG_FRAMEBUFFER = 8, MB2_TAG_ELF = 9, MB2_TAG_APM = 10, MB2_TAG_EFI32 = 11,
	MB2_TAG_EFI64 = 12, MB2_TAG_SMBIOS = 13, MB2_TAG_ACPI_OLD = 14, MB2_TAG_ACPI_NEW = 15,
	MB2_TAG_NETWORK = 16, MB2_TAG_EFI_MMAP = 17, MB2_TAG_EFI_BS = 18, MB2_TAG_EFI32_IH = 19,
	MB2_TAG_EFI64_IH = 20, MB2_TAG_LOAD_BASE = 21,
};

/* Memory map entry types (spec 3.6.8). */
enum {
	MB2_MEM_AVAILABLE = 1, MB2_MEM_RESERVED = 2, MB2_MEM_ACPI = 3, MB2_MEM_NVS = 4,
	MB2_MEM_BAD = 5,
};

struct mb2_mmap_entry {
	uint64_t base, len;
	uint32_t type;
};

/* What the EFI memory map (tag 17: UEFI 2.10 §7.2 EFI_MEMORY_DESCRIPTOR) says beyond usable
 * RAM: "specific purpose" memory (Attribute EFI_MEMORY_SP, bit 18: CXL, HBM set aside by the
 * firmware) and EfiPersistentMemory (type 14). Up to MB2_MAX_EFI_SPECIAL ranges kept. */
#define MB2_MAX_EFI_SPECIAL 32
struct mb2_efi_special {
	uint64_t base, len;
	bool persistent;	/* EfiPersistentMemory; else EFI_MEMORY_SP */
};

struct mb2_framebuffer {
	bool present;
	uint64_t addr;
	uint32_t pitch, width, height;
	uint8_t bpp, type;	/* type 1: direct RGB */
	uint8_t red_pos, red_size, green_pos, green_size, blue_pos, blue_size;
};

struct mb2_info {
	uint32_t total_size;
	unsigned ntags;
	const char *cmdline;		/* points into the boot info; NUL inside the tag */
	const char *loader;
	struct mb2_mmap_entry mmap[MB2_MAX_MMAP];
	unsigned nmmap;
	bool mmap_truncated;
	uint32_t mem_lower_kb, mem_upper_kb;
	struct mb2_framebuffer fb;
	const void *rsdp_old, *rsdp_new;	/* RSDP copies inside the boot info */
	uint32_t rsdp_old_len, rsdp_new_len;
	bool efi_mmap;			/* an EFI memory map tag was present */
	struct mb2_efi_special efi_special[MB2_MAX_EFI_SPECIAL];
	unsigned nefi_special, efi_special_dropped;
	bool efi64;			/* EFI 64-bit system table pointer present */
	uint64_t efi64_systab;
	unsigned errors;
};

typedef void (*mb2_warn_fn)(const char *msg);

/*
 * Parse the boot information at `info`, of which at most `avail` bytes may be read (the
 * caller's bound; the info's own total_size is checked against it). Returns false when the
 * information is unusable as a whole (bad header); individual bad tags are skipped.
 */
bool mb2_parse(const void *info, size_t avail, struct mb2_info *out, mb2_warn_fn warn);

const char *mb2_mem_type_name(uint32_t type);

#endif
