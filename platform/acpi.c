/*
 * acpi.c: RSDP validation (ACPI 6.5 §5.2.5.3), the RSDT/XSDT walk (§5.2.7, §5.2.8) and the
 * tables it hands to their parsers (MADT, SPCR, HPET, FADT). Pure C: physical memory only
 * through the caller's map function. The header checks and field readers every parser uses
 * are in platform/acpi_table.c.
 */
#include "platform/acpi.h"
#include "kernel/console.h"
#include "kernel/fmt.h"

#include <stdarg.h>
#include <string.h>

int acpi_rsdp_parse(struct acpi_info *ai, const void *rsdp, size_t len)
{
	const uint8_t *r = rsdp;

	if (!r || len < 20 || memcmp(r, "RSD PTR ", 8) != 0) {
		acpi_log("# acpi: no RSDP (missing or bad signature)\n");
		return -1;
	}
	if (acpi_checksum(r, 20) != 0) {
		acpi_log("# acpi: RSDP checksum bad\n");
		return -1;
	}
	ai->rsdp_revision = r[15];
	memcpy(ai->oem_id, r + 9, 6);
	ai->oem_id[6] = '\0';
	ai->xsdt = false;
	ai->root_phys = acpi_rd32(r + 16);
	if (r[15] >= 2) {
		uint32_t xlen = len >= 24 ? acpi_rd32(r + 20) : 0;
		if (xlen < 36 || xlen > len) {
			acpi_log("# acpi: RSDP v2 length %u outside 36..%zu, using the RSDT\n",
				xlen, len);
		} else if (acpi_checksum(r, xlen) != 0) {
			acpi_log("# acpi: RSDP extended checksum bad, using the RSDT\n");
		} else if (acpi_rd64(r + 24) != 0) {
			ai->xsdt = true;
			ai->root_phys = acpi_rd64(r + 24);
		}
	}
	if (ai->root_phys == 0) {
		acpi_log("# acpi: RSDP has no root table address\n");
		return -1;
	}
	return 0;
}

static int walk_root(struct acpi_info *ai, acpi_map_fn map, void *ctx, bool xsdt,
		     uint64_t root)
{
	uint32_t len, esz = xsdt ? 8 : 4;
	const uint8_t *t = acpi_map_table(map, ctx, root, xsdt ? "XSDT" : "RSDT", &len);

	if (!t)
		return -1;
	ai->xsdt = xsdt;
	ai->root_phys = root;
	for (uint32_t off = ACPI_HDR_LEN; off + esz <= len; off += esz) {
		uint64_t phys = xsdt ? acpi_rd64(t + off) : acpi_rd32(t + off);
		const uint8_t *e;
		uint32_t elen;

		if (phys == 0) {
			ai->nbad++;
			continue;
		}
		e = acpi_map_table(map, ctx, phys, NULL, &elen);
		if (!e) {
			ai->nbad++;
			continue;
		}
		if (ai->ntables == ACPI_MAX_TABLES) {
			acpi_log("# acpi: more than %d tables, rest ignored\n", ACPI_MAX_TABLES);
			break;
		}
		struct acpi_table_ref *ref = &ai->table[ai->ntables++];
		memcpy(ref->sig, e, 4);
		ref->sig[4] = '\0';
		ref->phys = phys;
		ref->len = elen;
	}
	if ((len - ACPI_HDR_LEN) % esz)
		acpi_log("# acpi: %s length not a multiple of %u, tail ignored\n",
			xsdt ? "XSDT" : "RSDT", esz);
	return 0;
}

const struct acpi_table_ref *acpi_find(const struct acpi_info *ai, const char *sig)
{
	for (unsigned i = 0; i < ai->ntables; i++)
		if (memcmp(ai->table[i].sig, sig, 4) == 0)
			return &ai->table[i];
	return NULL;
}

/* Re-map a listed table (validated during the walk) for a parser. */
static const uint8_t *remap(acpi_map_fn map, void *ctx, const struct acpi_table_ref *r)
{
	return r ? map(ctx, r->phys, r->len) : NULL;
}

int acpi_init(struct acpi_info *ai, const void *rsdp, size_t rsdp_len,
	      acpi_map_fn map, void *ctx)
{
	const struct acpi_table_ref *r;
	const uint8_t *t;
	struct acpi_cpu *cpus = ai->madt.cpu;	/* the caller's storage stays */
	unsigned cap = ai->madt.cap;

	memset(ai, 0, sizeof(*ai));
	ai->madt.cpu = cpus;
	ai->madt.cap = cap;
	if (acpi_rsdp_parse(ai, rsdp, rsdp_len) != 0)
		return -1;
	if (walk_root(ai, map, ctx, ai->xsdt, ai->root_phys) != 0) {
		const uint8_t *rp = rsdp;
		uint32_t rsdt = acpi_rd32(rp + 16);

		if (!ai->xsdt || rsdt == 0 || walk_root(ai, map, ctx, false, rsdt) != 0) {
			acpi_log("# acpi: no usable root table\n");
			return -1;
		}
		acpi_log("# acpi: XSDT unusable, fell back to the RSDT\n");
	}
	ai->valid = true;

	if ((t = remap(map, ctx, r = acpi_find(ai, "APIC"))))
		ai->have_madt = acpi_parse_madt(t, r->len, &ai->madt) == 0;
	if ((t = remap(map, ctx, r = acpi_find(ai, "SPCR"))))
		ai->have_spcr = acpi_parse_spcr(t, r->len, &ai->spcr) == 0;
	if ((t = remap(map, ctx, r = acpi_find(ai, "HPET"))))
		ai->have_hpet = acpi_parse_hpet(t, r->len, &ai->hpet) == 0;
	if ((t = remap(map, ctx, r = acpi_find(ai, "FACP"))))
		ai->have_fadt = acpi_parse_fadt(t, r->len, &ai->fadt) == 0;
	if (ai->have_fadt && ai->fadt.dsdt) {
		uint32_t dlen;
		const uint8_t *d = acpi_map_table(map, ctx, ai->fadt.dsdt, "DSDT", &dlen);

		if (d)
			acpi_scan_s5(d, dlen, &ai->s5);
	}
	return 0;
}

void acpi_print_summary(const struct acpi_info *ai, bool full)
{
	if (!ai->valid) {
		acpi_log("# acpi: none\n");
		return;
	}
	acpi_log("# acpi: rev %u oem %s %s at 0x%llx, %u tables (%u bad):", ai->rsdp_revision,
		ai->oem_id, ai->xsdt ? "XSDT" : "RSDT", (unsigned long long)ai->root_phys,
		ai->ntables, ai->nbad);
	for (unsigned i = 0; i < ai->ntables; i++)
		acpi_log(" %s", ai->table[i].sig);
	acpi_log("\n");
	if (ai->have_madt)
		acpi_log("# acpi: MADT lapic 0x%llx%s, %u cpus (%u disabled), %u ioapic\n",
			(unsigned long long)ai->madt.lapic_addr,
			ai->madt.lapic_override ? " (override)" : "", ai->madt.ncpus,
			ai->madt.ncpus_disabled, ai->madt.nioapic);
	if (ai->have_hpet && full)
		acpi_log("# acpi: HPET at 0x%llx\n", (unsigned long long)ai->hpet.base);
	if (ai->have_fadt && (full || !ai->s5.found))	/* what poweroff needs, when missing */
		acpi_log("# acpi: FADT rev %u%s, reset %s, S5 %s (SLP_TYPa %u)\n",
			 ai->fadt.revision, ai->fadt.hw_reduced ? " HW-reduced" : "",
			 ai->fadt.reset_supported ? "register" : "none",
			 ai->s5.found ? "found" : "not found", ai->s5.slp_typa);
	if (ai->have_spcr)
		acpi_log("# acpi: SPCR type 0x%02x %s 0x%llx width %u baud %u%s%s\n",
			ai->spcr.iface_type, ai->spcr.mmio ? "mmio" : "io",
			(unsigned long long)ai->spcr.base, ai->spcr.reg_width, ai->spcr.baud,
			ai->spcr.usable ? "" : ", unusable: ",
			ai->spcr.usable ? "" : ai->spcr.why);
}
