/*
 * smbios_read.c: finding the SMBIOS tables and saying who the machine is (smbios.h). The
 * entry point comes from the EFI configuration table when the loader handed over an EFI
 * system table (UEFI 2.10 4.3 EFI_SYSTEM_TABLE, 4.6 EFI_CONFIGURATION_TABLE; SMBIOS3_TABLE_GUID
 * and SMBIOS_TABLE_GUID from DSP0134 5.2.2 / 5.2.1), else from the legacy scan of the BIOS
 * segment 0xF0000-0xFFFFF on 16-byte boundaries (DSP0134 5.2, "_SM3_" first). Memory types
 * are DSP0134 7.18.2. Pure: memory through the caller's map function.
 */
#include "platform/smbios.h"
#include "kernel/fmt.h"

#include <string.h>

/* DSP0134 5.2.2 / 5.2.1, in EFI_GUID byte order (the first three fields little-endian) */
static const uint8_t guid_smbios3[16] = { 0x44, 0x15, 0xfd, 0xf2, 0x94, 0x97, 0x2c, 0x4a,
					  0x99, 0x2e, 0xe5, 0xbb, 0xcf, 0x20, 0xe3, 0x94 };
static const uint8_t guid_smbios[16] = { 0x31, 0x2d, 0x9d, 0xeb, 0x88, 0x2d, 0xd3, 0x11,
					 0x9a, 0x16, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d };

#define EFI_ST_NTABLES	104	/* EFI_SYSTEM_TABLE.NumberOfTableEntries (UINTN) */
#define EFI_ST_TABLES	112	/* EFI_SYSTEM_TABLE.ConfigurationTable */
#define EFI_ST_SIZE	120
#define EFI_CT_ENTRY	24	/* EFI_GUID + VOID * */
#define EFI_MAX_TABLES	256

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The entry point's address from the EFI configuration table (3.x preferred), or 0. */
static uint64_t from_efi(uint64_t systab, smbios_map_fn map, void *ctx)
{
	const uint8_t *st = map(ctx, systab, EFI_ST_SIZE), *ct;
	uint64_t n, found = 0;

	if (!st || memcmp(st, "IBI SYST", 8))		/* EFI_SYSTEM_TABLE_SIGNATURE */
		return 0;
	n = rd64(st + EFI_ST_NTABLES);
	if (n > EFI_MAX_TABLES || !(ct = map(ctx, rd64(st + EFI_ST_TABLES), n * EFI_CT_ENTRY)))
		return 0;
	for (uint64_t i = 0; i < n; i++) {
		const uint8_t *e = ct + i * EFI_CT_ENTRY;

		if (!memcmp(e, guid_smbios3, 16))
			return rd64(e + 16);
		if (!memcmp(e, guid_smbios, 16))
			found = rd64(e + 16);
	}
	return found;
}

void smbios_read(struct smbios_info *s, uint64_t efi_systab, smbios_map_fn map, void *ctx)
{
	struct smbios_entry e;
	const char *why = "no SMBIOS entry point (EFI configuration table or 0xF0000 scan)";
	const uint8_t *p = NULL, *t;
	uint64_t at = efi_systab ? from_efi(efi_systab, map, ctx) : 0;
	bool ok = false;

	memset(s, 0, sizeof(*s));
	if (at && (p = map(ctx, at, 32)))
		ok = smbios_entry_parse(p, 32, &e, &why);
	else if (!efi_systab && (p = map(ctx, 0xf0000, 0x10000))) {
		for (int pass = 0; pass < 2 && !ok; pass++)	/* "_SM3_" first */
			for (unsigned o = 0; o + 32 <= 0x10000 && !ok; o += 16)
				if (!memcmp(p + o, pass ? "_SM_" : "_SM3_", pass ? 4 : 5))
					ok = smbios_entry_parse(p + o, 32, &e, &why);
	}
	if (!ok) {
		fmt_snprintf(s->why, sizeof(s->why), "%s", why);
		return;
	}
	s->ep = e;
	if (!e.len || e.len > SMBIOS_MAX_TABLE || !(t = map(ctx, e.table, e.len))) {
		fmt_snprintf(s->why, sizeof(s->why), "structure table at 0x%llx, %u bytes: not "
			     "readable", (unsigned long long)e.table, e.len);
		return;
	}
	s->present = true;
	smbios_walk(t, e.len, &e, s);
}

const char *smbios_mem_type_name(uint8_t code, char *b, size_t n)
{
	static const char *const name[] = {		/* DSP0134 7.18.2 */
		[0x01] = "type Other", [0x02] = "type Unknown",
		[0x03] = "DRAM", [0x07] = "RAM", [0x0f] = "SDRAM", [0x12] = "DDR",
		[0x13] = "DDR2", [0x14] = "DDR2 FB-DIMM", [0x18] = "DDR3", [0x19] = "FBD2",
		[0x1a] = "DDR4", [0x1b] = "LPDDR", [0x1c] = "LPDDR2", [0x1d] = "LPDDR3",
		[0x1e] = "LPDDR4", [0x1f] = "NVDIMM", [0x20] = "HBM", [0x21] = "HBM2",
		[0x22] = "DDR5", [0x23] = "LPDDR5", [0x24] = "HBM3",
	};

	if (code < sizeof(name) / sizeof(name[0]) && name[code])
		return name[code];
	fmt_snprintf(b, n, "type 0x%02x", code);
	return b;
}

static const char *or_dash(const char *s)
{
	return s[0] ? s : "-";
}

bool smbios_header_line(const struct smbios_info *s, unsigned i, char *b, size_t n)
{
	char tb[16], sp[40];

	if (!s->present)
		return i == 0 ? fmt_snprintf(b, n, "smbios: none (%s)", s->why), true : false;
	switch (i) {
	case 0:
		fmt_snprintf(b, n, "smbios: bios \"%s\" version \"%s\" date %s (SMBIOS %u.%u)",
			     or_dash(s->bios_vendor), or_dash(s->bios_version), or_dash(s->bios_date),
			     s->ep.major, s->ep.minor);
		return true;
	case 1:
		fmt_snprintf(b, n, "smbios: system \"%s\" \"%s\" version \"%s\"; board \"%s\" "
			     "\"%s\" version \"%s\"", or_dash(s->sys_vendor), or_dash(s->sys_product),
			     or_dash(s->sys_version), or_dash(s->board_vendor),
			     or_dash(s->board_product), or_dash(s->board_version));
		return true;
	case 2:
		fmt_snprintf(b, n, "smbios: processors %u of %u sockets populated, %u cores, %u "
			     "threads, \"%s\"", s->sockets_populated, s->sockets, s->cores,
			     s->threads, or_dash(s->cpu_version));
		return true;
	case 3:
		if (!s->populated) {
			fmt_snprintf(b, n, "smbios: memory 0 of %u slots populated (no module size "
				     "in type 17)", s->slots);
			return true;
		}
		if (s->speed)
			fmt_snprintf(sp, sizeof(sp), "%u MT/s (configured %u)", s->speed,
				     s->conf_speed);
		else
			fmt_snprintf(sp, sizeof(sp), "speed unknown");
		fmt_snprintf(b, n, "smbios: memory %u of %u slots populated, %llu MiB, %s%s %s%s, "
			     "channels %s; \"%s\" \"%s\"%s", s->populated, s->slots,
			     (unsigned long long)s->mem_mib,
			     smbios_mem_type_name(s->mem_type, tb, sizeof(tb)),
			     s->mixed_type ? " (mixed types)" : "", sp,
			     s->mixed_speed ? " (mixed speeds)" : "",
			     s->channels[0] ? s->channels : "unknown", or_dash(s->dimm_vendor),
			     or_dash(s->dimm_part), s->mixed_size ? ", mixed sizes" : "");
		return true;
	case 4:
		if (!s->bad)
			return false;
		fmt_snprintf(b, n, "smbios: %u structure(s) read, the rest left out: %s",
			     s->structures, s->why);
		return true;
	}
	return false;
}
