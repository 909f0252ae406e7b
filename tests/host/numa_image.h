/*
 * numa_image.h: SRAT and SLIT builders for the NUMA host tests (ACPI 6.5 §5.2.16, §5.2.17).
 * A table is built in a growable scratch buffer, then copied into a heap block of exactly its
 * length, so AddressSanitizer reports any read past the table's end.
 */
#ifndef TESTS_HOST_NUMA_IMAGE_H
#define TESTS_HOST_NUMA_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tbl {
	uint8_t b[1 << 18];	/* room for 5000 x2APIC affinity structures */
	uint32_t len;
};

/* Start a table: 36-byte header (signature, revision), SRAT/SLIT fixed fields zeroed. */
void tbl_srat(struct tbl *t, uint8_t rev);
void tbl_slit(struct tbl *t, uint64_t nloc, const uint8_t *matrix, uint64_t matrix_bytes);
/* SRAT structures (flags bit 0 = Enabled). */
void srat_lapic(struct tbl *t, uint8_t apic_id, uint32_t pxm, uint32_t flags);
void srat_x2apic(struct tbl *t, uint32_t x2apic_id, uint32_t pxm, uint32_t flags);
void srat_mem(struct tbl *t, uint64_t base, uint64_t len, uint32_t pxm, uint32_t flags);
/* Raw bytes appended as they are (hostile entries). */
void tbl_raw(struct tbl *t, const uint8_t *p, uint32_t n);
/* Length field and checksum set; returns a malloc'd exact copy (free it). */
uint8_t *tbl_done(struct tbl *t);

/* tbl_done, then the SRAT / SLIT parser over the exact copy (freed after). */
#include "platform/numa.h"

int tbl_parse_srat(struct tbl *t, struct numa_info *n);
int tbl_parse_slit(struct tbl *t, struct numa_info *n);
/* tbl_slit, then tbl_parse_slit. */
int slit_parse(struct tbl *t, struct numa_info *n, uint64_t nloc, const uint8_t *matrix,
	       uint64_t matrix_bytes);

/* HMAT (ACPI 6.5 §5.2.28): header + reserved u32; a Memory Proximity Domain Attributes
 * structure (type 0); a System Locality Latency and Bandwidth Information structure (type 1)
 * with ni initiators, nt targets, entries[ni * nt]. */
void tbl_hmat(struct tbl *t, uint8_t rev);
void hmat_proximity(struct tbl *t, uint32_t initiator_pxm, uint32_t memory_pxm, bool valid);
void hmat_locality(struct tbl *t, uint8_t flags, uint8_t data_type, uint64_t base_unit,
		   uint32_t ni, const uint32_t *ini, uint32_t nt, const uint32_t *tgt,
		   const uint16_t *entries);
int tbl_parse_hmat(struct tbl *t, struct numa_info *n);

/* Any table: header (signature, revision) and `fixed` zero bytes after it. */
void tbl_begin(struct tbl *t, const char *sig, uint8_t rev, uint32_t fixed);
/* MADT (ACPI 6.5 §5.2.12) with Processor Local APIC entries (type 0) for ids[0..n). */
void tbl_madt(struct tbl *t, const uint8_t *ids, unsigned n);

/* The whole walk (RSDP, XSDT, the tables given) in one heap block, then acpi_init and
 * numa_from_acpi(alloc); ai must keep its madt storage. Returns acpi_init's result. */
struct acpi_info;
int numa_image_walk(struct tbl *const *tables, unsigned ntables, struct acpi_info *ai,
		    struct numa_info *n, numa_alloc_fn alloc);

/* Fixed storage as before the tables sized it (platform/numa.h): IMG_* entries each. */
enum { IMG_CPUS = 128, IMG_NODES = 64, IMG_MEM = 256, IMG_LOCAL = 64, IMG_HMAT = 16 };
void numa_image_storage(struct numa_info *n);
/* Zero n but its storage. */
void numa_image_reset(struct numa_info *n);
/* numa_alloc_fn over a bump arena (numa_image_arena_reset gives it all back). */
void *numa_image_alloc(void *ctx, size_t bytes);
void numa_image_arena_reset(void);

/* The two-node machine QEMU describes for -smp 4 with two -numa nodes of 512 MiB:
 * APIC ids 0,1 in domain 0 and 2,3 in domain 1; RAM [0, 640K) and [1M, 512M) in 0,
 * [512M, 1G) in 1. */
void srat_qemu_two_nodes(struct tbl *t);

#endif
