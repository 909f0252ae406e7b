/*
 * smbios.h: who the machine is, from the firmware's SMBIOS tables (DMTF DSP0134 "System
 * Management BIOS Reference Specification" 3.7.0): the BIOS (type 0, 7.1), the system
 * (type 1, 7.2), the board (type 2, 7.3), the processors (type 4, 7.5) and the memory
 * population (type 17, 7.18), read once and printed as `# smbios:` header lines (the first
 * thing a lab compares when two machines of one CPU model disagree). Pure C: the tables are
 * reached through the caller's map function, every length and string index is checked, and a
 * malformed table is reported, never followed.
 */
#ifndef PLATFORM_SMBIOS_H
#define PLATFORM_SMBIOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SMBIOS_STR 48		/* strings are cut here (and made printable ASCII) */
#define SMBIOS_MAX_TABLE (1u << 20)	/* a structure table longer than this is refused */

struct smbios_entry {
	uint8_t major, minor;	/* the specification version the entry point names */
	uint64_t table;		/* structure table address */
	uint32_t len;		/* its length (3.x: the maximum size) */
	uint32_t count;		/* 2.x: number of structures; 3.x: 0 (until the end-of-table) */
};

struct smbios_info {
	bool present;
	char why[64];		/* when not present, or what was wrong */
	struct smbios_entry ep;
	char bios_vendor[SMBIOS_STR], bios_version[SMBIOS_STR], bios_date[SMBIOS_STR];
	char sys_vendor[SMBIOS_STR], sys_product[SMBIOS_STR], sys_version[SMBIOS_STR];
	char board_vendor[SMBIOS_STR], board_product[SMBIOS_STR], board_version[SMBIOS_STR];
	char cpu_version[SMBIOS_STR];
	unsigned sockets, sockets_populated, cores, threads;
	unsigned slots, populated;		/* type 17 rows, and those with a module */
	uint64_t mem_mib;			/* sum of the populated modules */
	uint8_t mem_type;			/* 7.18.2 code of the first populated module */
	bool mixed_type, mixed_speed, mixed_size;
	unsigned speed, conf_speed;		/* MT/s of the first populated module */
	char channels[27];			/* channel letters the locators name, "A".."Z" */
	char dimm_vendor[SMBIOS_STR], dimm_part[SMBIOS_STR];
	unsigned structures, bad;		/* walked, and left out as malformed */
};

typedef const void *(*smbios_map_fn)(void *ctx, uint64_t phys, uint64_t len);

/* Parse an entry point ("_SM3_" 5.2.2, or "_SM_" with its "_DMI_" part 5.2.1): lengths and
 * checksums. false with e->... untouched and *why set when it is not a valid one. */
bool smbios_entry_parse(const uint8_t *p, size_t avail, struct smbios_entry *e,
			const char **why);
/* Walk the structure table at t (len bytes) into s. */
void smbios_walk(const uint8_t *t, size_t len, const struct smbios_entry *e,
		 struct smbios_info *s);
/* Find the entry point (the EFI configuration table when efi_systab != 0, else the legacy
 * scan of 0xF0000-0xFFFFF on 16-byte boundaries, 5.2) and read the tables into s. */
void smbios_read(struct smbios_info *s, uint64_t efi_systab, smbios_map_fn map, void *ctx);
/* Header line i (no "# " and no newline) into b; false past the last. */
bool smbios_header_line(const struct smbios_info *s, unsigned i, char *b, size_t n);
/* DDR4, DDR5, ... for a 7.18.2 memory type code ("type 0x.." when unknown). */
const char *smbios_mem_type_name(uint8_t code, char *b, size_t n);

#endif
