/*
 * acpi_spcr.c: the Serial Port Console Redirection table (Microsoft SPCR spec, revisions
 * 1-4; interface types from the DBG2 spec table 3) and the HPET description table (IA-PC
 * HPET spec 1.0a §3.2.4). Only 16550-family UARTs are usable by this kernel; the register
 * width follows the GAS Access Size the way Linux's drivers/acpi/spcr.c reads it.
 *
 * SPCR offsets: 36 Interface Type, 40 Base Address (GAS, 12), 52 Interrupt Type, 53 IRQ,
 * 54 GSI (4), 58 Configured Baud Rate, 59 Parity, 60 Stop Bits, 61 Flow Control,
 * 62 Terminal Type, 63 Language, 64 PCI Device ID (2), 66 PCI Vendor ID (2), 68 PCI Bus,
 * 69 PCI Device, 70 PCI Function, 71 PCI Flags (4), 75 PCI Segment, 76 UART Clock
 * Frequency (4, rev >= 3), 80 Precise Baud Rate (4, rev >= 4). Revision 1-2 length: 80.
 */
#include "platform/acpi.h"
#include "kernel/console.h"

#include <string.h>

/* Configured Baud Rate codes (SPCR table 1): 0 = as is. */
static uint32_t spcr_baud(uint8_t code)
{
	switch (code) {
	case 3: return 9600;
	case 4: return 19200;
	case 6: return 57600;
	case 7: return 115200;
	default: return 0;
	}
}

/* Register width in bytes from the GAS Access Size (1..3), else from Bit Width. */
static uint8_t reg_width(const struct acpi_gas *g)
{
	switch (g->access_size) {
	case 1: return 1;
	case 2: return 2;
	case 3: return 4;
	default: break;
	}
	switch (g->bit_width) {
	case 16: return 2;
	case 32: return 4;
	default: return 1;
	}
}

int acpi_parse_spcr(const uint8_t *t, uint32_t len, struct acpi_spcr *s)
{
	struct acpi_gas g;

	memset(s, 0, sizeof(*s));
	if (len < 80) {
		acpi_log("# acpi: SPCR length %u < 80, ignored\n", len);
		return -1;
	}
	s->revision = t[8];
	s->iface_type = t[36];
	acpi_rd_gas(t + 40, &g);
	s->base = g.address;
	s->mmio = g.space_id == ACPI_AS_MEMORY;
	s->reg_width = s->mmio ? reg_width(&g) : 1;
	s->baud = spcr_baud(t[58]);
	s->pci_device = acpi_rd16(t + 64);
	s->pci_vendor = acpi_rd16(t + 66);
	s->pci_bus = t[68];
	s->pci_dev = t[69];
	s->pci_fn = t[70];
	if (s->revision >= 3)
		s->uart_clock = acpi_rd32(t + 76);
	if (s->revision >= 4 && len >= 84 && acpi_rd32(t + 80) != 0)
		s->baud = acpi_rd32(t + 80);

	switch (s->iface_type) {
	case SPCR_IF_16550:
	case SPCR_IF_16450:
	case SPCR_IF_16550_GAS:
		break;
	default:
		s->why = "interface type is not a 16550 variant";
		return 0;
	}
	if (g.space_id != ACPI_AS_MEMORY && g.space_id != ACPI_AS_IO) {
		s->why = "base address space is neither memory nor I/O";
		return 0;
	}
	if (s->base == 0) {
		s->why = "base address is 0";
		return 0;
	}
	if (!s->mmio && s->base > 0xfff8) {
		s->why = "I/O base beyond 16-bit port space";
		return 0;
	}
	s->usable = true;
	return 0;
}

/* HPET: 36 Event Timer Block ID (4), 40 Base Address (GAS), 52 HPET Number,
 * 53 Main Counter Minimum Clock Tick (2), 55 Page Protection. Length 56. */
int acpi_parse_hpet(const uint8_t *t, uint32_t len, struct acpi_hpet *h)
{
	struct acpi_gas g;

	memset(h, 0, sizeof(*h));
	if (len < 56) {
		acpi_log("# acpi: HPET length %u < 56, ignored\n", len);
		return -1;
	}
	acpi_rd_gas(t + 40, &g);
	if (g.space_id != ACPI_AS_MEMORY || g.address == 0) {
		acpi_log("# acpi: HPET base not in memory space, ignored\n");
		return -1;
	}
	h->block_id = acpi_rd32(t + 36);
	h->base = g.address;
	h->number = t[52];
	h->min_tick = acpi_rd16(t + 53);
	return 0;
}
