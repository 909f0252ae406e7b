/*
 * mb2.c: multiboot2 boot-information parser (Multiboot2 Specification 2.0, 3.6). Pure C.
 * Layout: u32 total_size, u32 reserved, then tags {u32 type, u32 size, payload} each padded
 * to 8 bytes, ending with a type-0 tag of size 8. Fields are read with memcpy so unaligned
 * or hostile input cannot fault.
 */
#include "kernel/mb2.h"
#include "kernel/unaligned.h"
#include "kernel/fmt.h"

#include <string.h>

static void warnf(struct mb2_info *out, mb2_warn_fn warn, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void warnf(struct mb2_info *out, mb2_warn_fn warn, const char *fmt, ...)
{
	char msg[128];
	va_list ap;

	out->errors++;
	if (!warn)
		return;
	va_start(ap, fmt);
	fmt_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	warn(msg);
}

/* A string tag is valid only if it holds a NUL inside its payload. */
static const char *tag_string(const uint8_t *payload, uint32_t len)
{
	return len && memchr(payload, '\0', len) ? (const char *)payload : NULL;
}

static void parse_mmap(struct mb2_info *out, const uint8_t *p, uint32_t len, mb2_warn_fn warn)
{
	uint32_t esize, off;

	if (len < 8) {
		warnf(out, warn, "mb2: memory map tag too short (%u bytes)", len);
		return;
	}
	esize = load_le32(p);
	if (esize < 24 || esize % 8) {
		warnf(out, warn, "mb2: memory map entry size %u invalid (want >= 24, multiple of 8)",
		      esize);
		return;
	}
	/* esize <= len - off, never off + esize <= len: an entry size near 2^32 (a multiple
	 * of 8) wraps the sum to a small number and the entry would be read past the tag */
	for (off = 8; esize <= len - off; off += esize) {
		struct mb2_mmap_entry *e;

		if (out->nmmap == MB2_MAX_MMAP) {
			out->mmap_truncated = true;
			warnf(out, warn, "mb2: more than %d memory map entries: rest ignored",
			      MB2_MAX_MMAP);
			return;
		}
		e = &out->mmap[out->nmmap];
		e->base = load_le64(p + off);
		e->len = load_le64(p + off + 8);
		e->type = load_le32(p + off + 16);
		if (e->len == 0 || e->base + e->len < e->base) {
			warnf(out, warn, "mb2: memory map entry %u (base 0x%llx len 0x%llx) invalid",
			      out->nmmap, (unsigned long long)e->base, (unsigned long long)e->len);
			continue;
		}
		out->nmmap++;
	}
	if (off != len)
		warnf(out, warn, "mb2: memory map has %u trailing bytes", len - off);
}

#define EFI_PERSISTENT_MEMORY 14
#define EFI_MEMORY_SP         (1ull << 18)
#define EFI_PAGE              4096ull

/* EFI memory map tag: u32 descriptor size, u32 descriptor version, then descriptors {u32
 * Type, u32 pad, u64 PhysicalStart, u64 VirtualStart, u64 NumberOfPages, u64 Attribute}. */
static void parse_efi_mmap(struct mb2_info *out, const uint8_t *p, uint32_t len,
			   mb2_warn_fn warn)
{
	uint32_t dsize;

	out->efi_mmap = true;
	if (len < 8)
		return;
	dsize = load_le32(p);
	if (dsize < 40 || dsize % 8) {
		warnf(out, warn, "mb2: EFI memory map descriptor size %u invalid (want >= 40, "
		      "multiple of 8)", dsize);
		return;
	}
	for (uint32_t off = 8; dsize <= len - off; off += dsize) {
		uint32_t type = load_le32(p + off);
		uint64_t base = load_le64(p + off + 8), pages = load_le64(p + off + 24),
			 attr = load_le64(p + off + 32);
		struct mb2_efi_special *e;

		if (type != EFI_PERSISTENT_MEMORY && !(attr & EFI_MEMORY_SP))
			continue;
		if (!pages || pages > (UINT64_MAX - base) / EFI_PAGE)
			continue;	/* empty or wrapping: nothing to say of it */
		if (out->nefi_special == MB2_MAX_EFI_SPECIAL) {
			out->efi_special_dropped++;
			continue;
		}
		e = &out->efi_special[out->nefi_special++];
		*e = (struct mb2_efi_special){ .base = base, .len = pages * EFI_PAGE,
					       .persistent = type == EFI_PERSISTENT_MEMORY };
	}
}

static void parse_fb(struct mb2_info *out, const uint8_t *p, uint32_t len, mb2_warn_fn warn)
{
	struct mb2_framebuffer *fb = &out->fb;

	if (len < 22) {
		warnf(out, warn, "mb2: framebuffer tag too short (%u bytes)", len);
		return;
	}
	fb->addr = load_le64(p);
	fb->pitch = load_le32(p + 8);
	fb->width = load_le32(p + 12);
	fb->height = load_le32(p + 16);
	fb->bpp = p[20];
	fb->type = p[21];
	if (fb->type == 1 && len >= 30) {
		/* direct RGB: u16 reserved at 22, then positions and sizes */
		fb->red_pos = p[24];
		fb->red_size = p[25];
		fb->green_pos = p[26];
		fb->green_size = p[27];
		fb->blue_pos = p[28];
		fb->blue_size = p[29];
	}
	fb->present = fb->addr && fb->width && fb->height && fb->pitch;
}

bool mb2_parse(const void *info, size_t avail, struct mb2_info *out, mb2_warn_fn warn)
{
	const uint8_t *base = info;
	uint32_t off = 8;
	bool ended = false;

	memset(out, 0, sizeof(*out));
	if (!info || avail < 16) {
		warnf(out, warn, "mb2: no boot information (%zu bytes available)", avail);
		return false;
	}
	out->total_size = load_le32(base);
	if (out->total_size < 16 || out->total_size > avail || out->total_size > MB2_MAX_INFO_SIZE) {
		warnf(out, warn, "mb2: total size %u invalid (available %zu)", out->total_size,
		      avail);
		return false;
	}
	while (off + 8 <= out->total_size) {
		uint32_t type = load_le32(base + off), size = load_le32(base + off + 4);
		const uint8_t *p = base + off + 8;
		uint32_t len;

		if (size < 8 || size > out->total_size - off) {
			warnf(out, warn, "mb2: tag type %u at offset %u has size %u beyond the end (%u)",
			      type, off, size, out->total_size);
			break;
		}
		len = size - 8;
		out->ntags++;
		switch (type) {
		case MB2_TAG_END:
			ended = true;
			break;
		case MB2_TAG_CMDLINE:
			out->cmdline = tag_string(p, len);
			if (!out->cmdline)
				warnf(out, warn, "mb2: command line not terminated: ignored");
			break;
		case MB2_TAG_LOADER:
			out->loader = tag_string(p, len);
			break;
		case MB2_TAG_MEMINFO:
			if (len >= 8) {
				out->mem_lower_kb = load_le32(p);
				out->mem_upper_kb = load_le32(p + 4);
			}
			break;
		case MB2_TAG_MMAP:
			parse_mmap(out, p, len, warn);
			break;
		case MB2_TAG_FRAMEBUFFER:
			parse_fb(out, p, len, warn);
			break;
		case MB2_TAG_ACPI_OLD:
			out->rsdp_old = p;
			out->rsdp_old_len = len;
			break;
		case MB2_TAG_ACPI_NEW:
			out->rsdp_new = p;
			out->rsdp_new_len = len;
			break;
		case MB2_TAG_EFI_MMAP:
			parse_efi_mmap(out, p, len, warn);
			break;
		case MB2_TAG_EFI64:
			if (len >= 8) {
				out->efi64 = true;
				out->efi64_systab = load_le64(p);
			}
			break;
		default:
			break;
		}
		if (ended)
			break;
		off += (size + 7) & ~7u;
	}
	if (!ended)
		warnf(out, warn, "mb2: no end tag within %u bytes: boot information truncated",
		      out->total_size);
	return true;
}

const char *mb2_mem_type_name(uint32_t type)
{
	switch (type) {
	case MB2_MEM_AVAILABLE:
		return "usable";
	case MB2_MEM_RESERVED:
		return "reserved";
	case MB2_MEM_ACPI:
		return "ACPI";
	case MB2_MEM_NVS:
		return "NVS";
	case MB2_MEM_BAD:
		return "bad";
	default:
		return "unknown";
	}
}
