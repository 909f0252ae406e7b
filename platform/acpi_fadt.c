/*
 * acpi_fadt.c: the Fixed ACPI Description Table (ACPI 6.5 §5.2.9, table 5.9) fields needed
 * to end a run: RESET_REG/RESET_VALUE (§4.8.3.6), PM1a/PM1b control blocks and the
 * HW-reduced sleep control register (§4.8.3.7), SMI_CMD/ACPI_ENABLE (§4.8.2.1), the DSDT
 * address; and a byte-pattern scan of the DSDT for Name(_S5, Package(){SLP_TYPa,
 * SLP_TYPb, ...}) (§7.4.2.6; AML encoding §20.2) so that S5 (soft off) works without an
 * AML interpreter when the firmware declares \_S5 as a plain package, which most do.
 */
#include "platform/acpi.h"
#include "kernel/console.h"

#include <string.h>

/* A 32-bit I/O block address as an I/O-space GAS (0 stays "absent"). */
static void io_gas(struct acpi_gas *g, uint32_t port, uint8_t width_bytes)
{
	memset(g, 0, sizeof(*g));
	if (port) {
		g->space_id = ACPI_AS_IO;
		g->bit_width = (uint8_t)(width_bytes * 8);
		g->address = port;
	}
}

int acpi_parse_fadt(const uint8_t *t, uint32_t len, struct acpi_fadt *f)
{
	struct acpi_gas x;

	memset(f, 0, sizeof(*f));
	if (len < 116) {	/* ACPI 1.0 FADT length */
		acpi_log("# acpi: FADT length %u < 116, ignored\n", len);
		return -1;
	}
	f->revision = t[8];
	f->dsdt = acpi_rd32(t + 40);
	f->smi_cmd = acpi_rd32(t + 48);
	f->acpi_enable = t[52];
	io_gas(&f->pm1a_cnt, acpi_rd32(t + 64), 2);
	io_gas(&f->pm1b_cnt, acpi_rd32(t + 68), 2);
	f->boot_arch = acpi_rd16(t + 109);
	f->flags = acpi_rd32(t + 112);
	f->hw_reduced = f->flags & FADT_F_HW_REDUCED_ACPI;
	if (len >= 129) {
		acpi_rd_gas(t + 116, &f->reset_reg);
		f->reset_value = t[128];
		f->reset_supported = (f->flags & FADT_F_RESET_REG_SUP) &&
				     f->reset_reg.address != 0 &&
				     (f->reset_reg.space_id == ACPI_AS_IO ||
				      f->reset_reg.space_id == ACPI_AS_MEMORY ||
				      f->reset_reg.space_id == ACPI_AS_PCI_CFG);
	}
	if (len >= 148 && acpi_rd64(t + 140))
		f->dsdt = acpi_rd64(t + 140);
	if (len >= 184) {
		acpi_rd_gas(t + 172, &x);
		if (x.address)
			f->pm1a_cnt = x;
	}
	if (len >= 196) {
		acpi_rd_gas(t + 184, &x);
		if (x.address)
			f->pm1b_cnt = x;
	}
	if (len >= 256)
		acpi_rd_gas(t + 244, &f->sleep_ctl);
	return 0;
}

/* One AML integer constant at p[0..end): ZeroOp, OneOp, BytePrefix, WordPrefix, DWordPrefix.
 * Returns bytes consumed, 0 when it is something else (then we give up). */
static uint32_t aml_int(const uint8_t *p, const uint8_t *end, uint32_t *v)
{
	if (p >= end)
		return 0;
	switch (p[0]) {
	case 0x00: *v = 0; return 1;
	case 0x01: *v = 1; return 1;
	case 0x0a: if (end - p < 2) return 0; *v = p[1]; return 2;
	case 0x0b: if (end - p < 3) return 0; *v = acpi_rd16(p + 1); return 3;
	case 0x0c: if (end - p < 5) return 0; *v = acpi_rd32(p + 1); return 5;
	default: return 0;
	}
}

int acpi_scan_s5(const uint8_t *t, uint32_t len, struct acpi_s5 *s5)
{
	memset(s5, 0, sizeof(*s5));
	if (len < ACPI_HDR_LEN + 4)
		return -1;
	for (uint32_t i = ACPI_HDR_LEN + 1; i + 4 <= len; i++) {
		const uint8_t *p = t + i, *end = t + len;
		uint32_t a, b, n, pkglen_bytes;

		if (memcmp(p, "_S5_", 4) != 0)
			continue;
		/* NameOp (0x08), optionally with a root prefix '\' in between. */
		if (!(p[-1] == 0x08 || (p[-1] == '\\' && i >= ACPI_HDR_LEN + 2 && p[-2] == 0x08)))
			continue;
		p += 4;
		if (p >= end || *p != 0x12)	/* PackageOp */
			continue;
		p++;
		if (p >= end)
			break;
		pkglen_bytes = 1u + (*p >> 6);	/* PkgLength lead byte bits 7:6 */
		if ((uint32_t)(end - p) < pkglen_bytes + 1)
			break;
		p += pkglen_bytes + 1;		/* PkgLength, NumElements */
		if (!(n = aml_int(p, end, &a)))
			continue;
		p += n;
		if (!aml_int(p, end, &b))
			b = 0;
		s5->found = true;
		s5->slp_typa = (uint8_t)(a & 7);
		s5->slp_typb = (uint8_t)(b & 7);
		return 0;
	}
	return -1;
}
