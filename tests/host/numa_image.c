/*
 * numa_image.c: SRAT and SLIT builders for the NUMA host tests (numa_image.h; ACPI 6.5
 * §5.2.16 structure layouts, §5.2.17 matrix).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "platform/numa.h"
#include "host/numa_image.h"

static void put(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint8_t *grow(struct tbl *t, uint32_t n)
{
	uint8_t *p = t->b + t->len;

	if (t->len + n > sizeof(t->b))
		abort();
	memset(p, 0, n);
	t->len += n;
	return p;
}

static void header(struct tbl *t, const char *sig, uint8_t rev, uint32_t fixed)
{
	t->len = 0;
	grow(t, 36 + fixed);
	memcpy(t->b, sig, 4);
	t->b[8] = rev;
	memcpy(t->b + 10, "PEBSOK", 6);
}

void tbl_srat(struct tbl *t, uint8_t rev)
{
	header(t, "SRAT", rev, 12);
	put(t->b + 36, 1, 4);	/* Reserved: 1 for backward compatibility */
}

void tbl_slit(struct tbl *t, uint64_t nloc, const uint8_t *matrix, uint64_t matrix_bytes)
{
	header(t, "SLIT", 1, 8);
	put(t->b + 36, nloc, 8);
	memcpy(grow(t, (uint32_t)matrix_bytes), matrix, matrix_bytes);
}

void srat_lapic(struct tbl *t, uint8_t apic_id, uint32_t pxm, uint32_t flags)
{
	uint8_t *e = grow(t, 16);

	e[0] = 0;
	e[1] = 16;
	e[2] = (uint8_t)pxm;
	e[3] = apic_id;
	put(e + 4, flags, 4);
	put(e + 9, pxm >> 8, 3);
}

void srat_x2apic(struct tbl *t, uint32_t x2apic_id, uint32_t pxm, uint32_t flags)
{
	uint8_t *e = grow(t, 24);

	e[0] = 2;
	e[1] = 24;
	put(e + 4, pxm, 4);
	put(e + 8, x2apic_id, 4);
	put(e + 12, flags, 4);
}

void srat_mem(struct tbl *t, uint64_t base, uint64_t len, uint32_t pxm, uint32_t flags)
{
	uint8_t *e = grow(t, 40);

	e[0] = 1;
	e[1] = 40;
	put(e + 2, pxm, 4);
	put(e + 8, base, 8);
	put(e + 16, len, 8);
	put(e + 28, flags, 4);
}

void tbl_raw(struct tbl *t, const uint8_t *p, uint32_t n)
{
	memcpy(grow(t, n), p, n);
}

uint8_t *tbl_done(struct tbl *t)
{
	uint8_t *c;

	put(t->b + 4, t->len, 4);
	t->b[9] = 0;
	t->b[9] = (uint8_t)(0x100 - acpi_checksum(t->b, t->len));
	c = malloc(t->len);
	if (!c)
		abort();
	memcpy(c, t->b, t->len);
	return c;
}

int tbl_parse_srat(struct tbl *t, struct numa_info *n)
{
	uint8_t *c = tbl_done(t);
	int rc = acpi_parse_srat(c, t->len, n);

	free(c);
	return rc;
}

int tbl_parse_slit(struct tbl *t, struct numa_info *n)
{
	uint8_t *c = tbl_done(t);
	int rc = acpi_parse_slit(c, t->len, n);

	free(c);
	return rc;
}

int slit_parse(struct tbl *t, struct numa_info *n, uint64_t nloc, const uint8_t *matrix,
	       uint64_t matrix_bytes)
{
	tbl_slit(t, nloc, matrix, matrix_bytes);
	return tbl_parse_slit(t, n);
}

void srat_qemu_two_nodes(struct tbl *t)
{
	tbl_srat(t, 1);
	for (uint8_t id = 0; id < 4; id++)
		srat_lapic(t, id, id / 2, 1);
	srat_mem(t, 0, 0xa0000, 0, 1);
	srat_mem(t, 0x100000, (512u << 20) - 0x100000, 0, 1);
	srat_mem(t, 512u << 20, 512u << 20, 1, 1);
}

void tbl_hmat(struct tbl *t, uint8_t rev)
{
	header(t, "HMAT", rev, 4);
}

void hmat_proximity(struct tbl *t, uint32_t initiator_pxm, uint32_t memory_pxm, bool valid)
{
	uint8_t *e = grow(t, 40);

	put(e, 0, 2);
	put(e + 4, 40, 4);
	put(e + 8, valid, 2);
	put(e + 12, initiator_pxm, 4);
	put(e + 16, memory_pxm, 4);
}

void hmat_locality(struct tbl *t, uint8_t flags, uint8_t data_type, uint64_t base_unit,
		   uint32_t ni, const uint32_t *ini, uint32_t nt, const uint32_t *tgt,
		   const uint16_t *entries)
{
	uint32_t len = 32 + 4 * ni + 4 * nt + 2 * ni * nt;
	uint8_t *e = grow(t, len);

	put(e, 1, 2);
	put(e + 4, len, 4);
	e[8] = flags;
	e[9] = data_type;
	put(e + 12, ni, 4);
	put(e + 16, nt, 4);
	put(e + 24, base_unit, 8);
	for (uint32_t i = 0; i < ni; i++)
		put(e + 32 + 4 * i, ini[i], 4);
	for (uint32_t i = 0; i < nt; i++)
		put(e + 32 + 4 * ni + 4 * i, tgt[i], 4);
	for (uint32_t i = 0; i < ni * nt; i++)
		put(e + 32 + 4 * ni + 4 * nt + 2 * i, entries[i], 2);
}

int tbl_parse_hmat(struct tbl *t, struct numa_info *n)
{
	uint8_t *c = tbl_done(t);
	int rc = acpi_parse_hmat(c, t->len, n);

	free(c);
	return rc;
}

void numa_image_storage(struct numa_info *n)
{
	static struct numa_cpu cpus[IMG_CPUS];
	static uint32_t pxm[IMG_NODES];
	static struct numa_mem mem[IMG_MEM];
	static uint8_t slit[IMG_LOCAL * IMG_LOCAL];
	static struct numa_hmat_cell hmat[IMG_HMAT * IMG_HMAT];

	n->cpu = cpus;
	n->cpu_cap = IMG_CPUS;
	n->node_pxm = pxm;
	n->node_cap = IMG_NODES;
	n->mem = mem;
	n->mem_cap = IMG_MEM;
	n->slit = slit;
	n->slit_cap = IMG_LOCAL;
	n->hmat = hmat;
	n->hmat_cap = IMG_HMAT;
}

void numa_image_reset(struct numa_info *n)
{
	struct numa_info k = *n;

	memset(n, 0, sizeof(*n));
	n->cpu = k.cpu;
	n->cpu_cap = k.cpu_cap;
	n->node_pxm = k.node_pxm;
	n->node_cap = k.node_cap;
	n->mem = k.mem;
	n->mem_cap = k.mem_cap;
	n->slit = k.slit;
	n->slit_cap = k.slit_cap;
	n->hmat = k.hmat;
	n->hmat_cap = k.hmat_cap;
}

static uint8_t arena[8u << 20];
static size_t arena_used;

void *numa_image_alloc(void *ctx, size_t bytes)
{
	void *p;

	(void)ctx;
	bytes = (bytes + 63) & ~(size_t)63;
	if (bytes > sizeof(arena) - arena_used)
		return NULL;
	p = arena + arena_used;
	arena_used += bytes;
	memset(p, 0, bytes);
	return p;
}

void numa_image_arena_reset(void)
{
	arena_used = 0;
}

void tbl_begin(struct tbl *t, const char *sig, uint8_t rev, uint32_t fixed)
{
	header(t, sig, rev, fixed);
}

void tbl_madt(struct tbl *t, const uint8_t *ids, unsigned n)
{
	header(t, "APIC", 5, 8);
	put(t->b + 36, 0xfee00000u, 4);
	for (unsigned i = 0; i < n; i++) {
		uint8_t *e = grow(t, 8);

		e[0] = 0;
		e[1] = 8;
		e[2] = (uint8_t)i;
		e[3] = ids[i];
		put(e + 4, 1, 4);
	}
}

struct image {
	uint8_t *p;
	size_t n;
};

static const void *image_map(void *ctx, uint64_t phys, uint64_t len)
{
	struct image *m = ctx;

	return phys > m->n || len > m->n - phys ? NULL : m->p + phys;
}

int numa_image_walk(struct tbl *const *tables, unsigned ntables, struct acpi_info *ai,
		    struct numa_info *n, numa_alloc_fn alloc)
{
	static struct tbl x;
	size_t size = 4096, at;
	uint8_t rsdp[36] = "RSD PTR ", *t;
	struct image m;
	int rc;

	for (unsigned i = 0; i < ntables; i++)
		size += tables[i]->len + 16;
	m = (struct image){ calloc(1, size), size };
	if (!m.p)
		abort();
	header(&x, "XSDT", 1, 8 * ntables);
	at = 64 + x.len + 8;
	for (unsigned i = 0; i < ntables; i++) {
		t = tbl_done(tables[i]);
		memcpy(m.p + at, t, tables[i]->len);
		put(x.b + 36 + 8 * i, at, 8);
		at += (tables[i]->len + 15) & ~15u;
		free(t);
	}
	t = tbl_done(&x);
	memcpy(m.p + 64, t, x.len);
	free(t);
	rsdp[15] = 2;
	rsdp[20] = 36;
	rsdp[24] = 64;
	rsdp[8] = (uint8_t)(0x100 - acpi_checksum(rsdp, 20));
	rsdp[32] = (uint8_t)(0x100 - acpi_checksum(rsdp, 36));
	rc = acpi_init(ai, rsdp, sizeof(rsdp), image_map, &m);
	numa_from_acpi(n, ai, image_map, &m, alloc, NULL);
	free(m.p);
	return rc;
}
