/*
 * acpi.h: the static ACPI tables this kernel reads without an AML interpreter (pure C).
 * RSDP (ACPI 6.5 §5.2.5), RSDT/XSDT (§5.2.7, §5.2.8), MADT (§5.2.12), FADT (§5.2.9),
 * HPET (IA-PC HPET spec 1.0a §3.2.4), SPCR (Microsoft "Serial Port Console Redirection
 * Table" spec, revisions 1-4), and the \_S5 package found by a byte-pattern scan of the
 * DSDT (§7.4.2; no AML is executed).
 *
 * Physical memory is reached only through a caller-supplied map function, so host tests
 * feed byte buffers and the kernel passes its identity map. Every table is checked
 * (signature, length, checksum) before it is read; a bad one is reported with kprintf
 * ("# acpi: ...") and ignored. Nothing here reads outside the ranges it mapped.
 */
#ifndef PLATFORM_ACPI_H
#define PLATFORM_ACPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Return a pointer through which `len` bytes at physical `phys` can be read, or NULL when
 * the range cannot be mapped (out of memory range, overflow). May be called many times.
 */
typedef const void *(*acpi_map_fn)(void *ctx, uint64_t phys, uint64_t len);

#define ACPI_HDR_LEN      36	/* System Description Table Header, §5.2.6 */
#define ACPI_MAX_TABLES   64
/* Local APIC IDs this kernel records, as Linux (arch/x86/include/asm/apicdef.h MAX_LOCAL_APIC,
 * checked in arch/x86/kernel/cpu/topology.c topo_register_apic): a processor with a higher ID
 * is counted and left out. It bounds the processors a MADT or SRAT can name (distinct IDs). */
#define ACPI_APIC_ID_LIMIT 32768u
#define ACPI_MAX_TABLE_LEN (16u << 20)	/* sanity cap on a header's Length */

/* Generic Address Structure, §5.2.3.2. */
struct acpi_gas {
	uint8_t space_id;	/* ACPI_AS_* */
	uint8_t bit_width;
	uint8_t bit_offset;
	uint8_t access_size;	/* 0 undefined, 1 byte, 2 word, 3 dword, 4 qword */
	uint64_t address;
};
#define ACPI_AS_MEMORY  0
#define ACPI_AS_IO      1
#define ACPI_AS_PCI_CFG 2

struct acpi_table_ref {
	char sig[5];
	uint64_t phys;
	uint32_t len;
};

struct acpi_cpu {
	uint32_t apic_id;	/* xAPIC ID (type 0) or x2APIC ID (type 9) */
	uint32_t uid;		/* ACPI Processor UID */
	bool x2apic;		/* came from a Processor Local x2APIC entry */
	bool enabled;		/* flags bit 0 */
	bool online_capable;	/* flags bit 1 (MADT revision >= 5, ACPI 6.3+) */
};

/* The processor list has no compile-time size: the caller hands in cpu[] of cap entries (the
 * kernel allocates it from the memory map once a first parse with cap 0 has counted them) and
 * the parse keeps both. Distinct IDs below ACPI_APIC_ID_LIMIT bound the count. */
struct acpi_madt {
	uint64_t lapic_addr;	/* after a Local APIC Address Override (type 5) if any */
	bool lapic_override;
	bool pcat_compat;	/* flags bit 0: dual 8259 present */
	unsigned ncpus;		/* entries stored in cpu[] (enabled or online-capable) */
	unsigned ncpus_disabled;	/* neither enabled nor online-capable: skipped */
	unsigned ncpus_dropped;	/* usable, but no room in cpu[] (cap): counted, not stored */
	unsigned ncpus_invalid;	/* broadcast APIC ID (0xFF / 0xFFFFFFFF): skipped */
	unsigned ncpus_dup;	/* an APIC ID listed before (type 0 and 9 alike): skipped */
	unsigned ncpus_high;	/* APIC ID >= ACPI_APIC_ID_LIMIT: skipped */
	uint8_t revision;	/* header Revision: Online Capable is defined from 5 */
	unsigned nioapic;
	struct acpi_cpu *cpu;	/* the caller's storage, kept across parses (NULL: count only) */
	unsigned cap;		/* entries cpu[] holds */
	uint64_t seen[ACPI_APIC_ID_LIMIT / 64];	/* APIC IDs met (duplicate check in O(1)) */
};
/* Bit set of APIC IDs below ACPI_APIC_ID_LIMIT (the MADT's and the SRAT's duplicate check):
 * true when id was already set; sets it. */
bool acpi_id_seen(uint64_t *set, uint32_t id);

/* SPCR Interface Type (DBG2 serial subtypes, Microsoft DBG2 spec table 3). */
#define SPCR_IF_16550        0x00	/* full 16550 */
#define SPCR_IF_16450        0x01	/* 16550 subset (16450: no FIFO) */
#define SPCR_IF_16550_GAS    0x13	/* 16550-compatible, parameters from the GAS */

struct acpi_spcr {
	uint8_t revision;
	uint8_t iface_type;	/* SPCR_IF_* or other (then usable == false) */
	bool usable;		/* a 16550-family UART on I/O ports or MMIO */
	bool mmio;		/* base is MMIO (else I/O port) */
	uint64_t base;
	uint8_t reg_width;	/* register width and stride in bytes: 1, 2 or 4 */
	uint32_t baud;		/* 0 = "as is" (leave the firmware's setting) */
	uint32_t uart_clock;	/* rev >= 3, 0 = unknown */
	uint16_t pci_vendor, pci_device;	/* 0xffff = not a PCI device */
	uint8_t pci_bus, pci_dev, pci_fn;
	const char *why;	/* when !usable: the reason, for the log */
};

struct acpi_hpet {
	uint64_t base;		/* MMIO base of the timer block */
	uint32_t block_id;	/* Event Timer Block ID (vendor, count, ...) */
	uint8_t number;
	uint16_t min_tick;
};

struct acpi_fadt {
	uint8_t revision;
	uint32_t flags;
	uint16_t boot_arch;	/* IAPC_BOOT_ARCH */
	bool reset_supported;	/* flags RESET_REG_SUP and a plausible RESET_REG */
	struct acpi_gas reset_reg;
	uint8_t reset_value;
	bool hw_reduced;	/* flags HW_REDUCED_ACPI */
	uint64_t dsdt;		/* X_DSDT if set, else DSDT */
	uint32_t smi_cmd;
	uint8_t acpi_enable;
	struct acpi_gas pm1a_cnt, pm1b_cnt;	/* from X_ fields or the 32-bit blocks */
	struct acpi_gas sleep_ctl;		/* HW-reduced sleep control (rev >= 5) */
};
#define FADT_F_RESET_REG_SUP   (1u << 10)
#define FADT_F_HW_REDUCED_ACPI (1u << 20)
#define FADT_BOOT_ARCH_8042    (1u << 1)

/* \_S5 sleep-type values, from the DSDT byte scan. */
struct acpi_s5 {
	bool found;
	uint8_t slp_typa, slp_typb;
};

struct acpi_info {
	bool valid;		/* an RSDP and a root table were read */
	uint8_t rsdp_revision;
	char oem_id[7];
	bool xsdt;		/* entries came from the XSDT (else RSDT) */
	uint64_t root_phys;
	unsigned ntables;
	struct acpi_table_ref table[ACPI_MAX_TABLES];	/* only tables that checked out */
	unsigned nbad;		/* entries rejected (map, length, checksum) */

	bool have_madt, have_spcr, have_hpet, have_fadt;
	struct acpi_madt madt;
	struct acpi_spcr spcr;
	struct acpi_hpet hpet;
	struct acpi_fadt fadt;
	struct acpi_s5 s5;
};

/* Byte sum of `len` bytes (0 for a valid ACPI table). */
uint8_t acpi_checksum(const void *p, size_t len);

/* Little-endian reads at a byte offset (callers check the bounds). */
uint16_t acpi_rd16(const uint8_t *p);
uint32_t acpi_rd32(const uint8_t *p);
uint64_t acpi_rd64(const uint8_t *p);
void acpi_rd_gas(const uint8_t *p, struct acpi_gas *g);

/* The next {type, length, ...} subtable of a table with entries (MADT, ACPI 6.5 5.2.12;
 * SRAT, 5.2.16) at *off, which moves past it: 1 with *e set, 0 at the table's end, -1 (logged
 * with the signature sig) when an entry's length is below 2 or runs past the table. */
int acpi_subtable_next(const uint8_t *t, uint32_t len, uint32_t *off, const char *sig,
		       const uint8_t **e);

/*
 * Validate an RSDP of `len` bytes (the copy in the multiboot2 ACPI tag, or memory).
 * v1: 20 bytes, checksum over 20. v2+: Length field, extended checksum over Length
 * (at most `len`). Fills revision, oem_id and root_phys/xsdt of `ai`. 0 or -1 (reported).
 */
int acpi_rsdp_parse(struct acpi_info *ai, const void *rsdp, size_t len);

/*
 * Map a table at `phys`, check its header Length (>= 36, <= cap, fully mappable) and its
 * checksum, and the signature when `sig` is not NULL. Returns the mapped table and its
 * length in *len_out, or NULL after printing why.
 */
const uint8_t *acpi_map_table(acpi_map_fn map, void *ctx, uint64_t phys, const char *sig,
			      uint32_t *len_out);

/*
 * The whole walk: RSDP, then the XSDT (or the RSDT when the XSDT is absent or bad), then
 * every entry; MADT, FADT (+ DSDT \_S5), HPET and SPCR are parsed when present and valid.
 * Returns 0 when an RSDP and a root table were read, else -1 (ai->valid false).
 */
int acpi_init(struct acpi_info *ai, const void *rsdp, size_t rsdp_len,
	      acpi_map_fn map, void *ctx);

/* The first valid table with this signature, or NULL. */
const struct acpi_table_ref *acpi_find(const struct acpi_info *ai, const char *sig);

/* Table parsers over a validated table (t, len including the header). 0 or -1 (reported).
 * The MADT parse keeps m->cpu and m->cap (set them before); acpi_init keeps ai->madt's. */
int acpi_parse_madt(const uint8_t *t, uint32_t len, struct acpi_madt *m);
int acpi_parse_spcr(const uint8_t *t, uint32_t len, struct acpi_spcr *s);
int acpi_parse_hpet(const uint8_t *t, uint32_t len, struct acpi_hpet *h);
int acpi_parse_fadt(const uint8_t *t, uint32_t len, struct acpi_fadt *f);
/* Scan DSDT AML bytes (after the header) for Name(_S5, Package(){a, b, ...}). */
int acpi_scan_s5(const uint8_t *t, uint32_t len, struct acpi_s5 *s5);

/* Messages about bad tables go to the console unless turned off (for a quiet first parse). */
void acpi_set_log(bool on);
void acpi_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A short summary (one or two "# acpi: ..." lines) on the console; full (log=full, docs/output.md
 * "Log budget") adds the HPET line and the FADT line, which is printed anyway without S5. */
void acpi_print_summary(const struct acpi_info *ai, bool full);

#endif
