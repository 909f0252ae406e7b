/*
 * power.c: reboot and soft-off without an AML interpreter (see power.h). S5 is a 16-bit
 * read-modify-write of PM1x_CNT: SLP_TYP (bits 12:10) and SLP_EN (bit 13), keeping the other
 * bits; SCI_EN is bit 0 (ACPI 6.5 §4.8.3.2.1). PM1 blocks in I/O space only.
 */
#include "platform/power.h"
#include "kernel/hw.h"

#include <string.h>

#define KBC_STATUS  0x64
#define KBC_IBF     0x02	/* input buffer full: controller busy */
#define KBC_RESET   0xfe	/* pulse the reset line */
#define PCI_RST_CNT 0xcf9
#define PM1_SCI_EN  0x01
#define PM1_SLP_TYP   (7u << 10)
#define PM1_SLP_EN    (1u << 13)
#define SLPCTL_SLP_EN 0x20	/* SLEEP_CONTROL_REG: SLP_TYP bits 4:2, SLP_EN bit 5 */

bool end_action_parse(const char *val, enum end_action *a)
{
	*a = END_HALT;
	if (!val || !strcmp(val, "halt"))
		return true;
	if (!strcmp(val, "reboot")) {
		*a = END_REBOOT;
		return true;
	}
	if (!strcmp(val, "poweroff")) {
		*a = END_POWEROFF;
		return true;
	}
	return false;
}

/* ~1 us per read of the POST port on PC hardware. */
static void delay_us(unsigned n)
{
	while (n--)
		(void)inb(0x80);
}

/* Write one byte through a GAS; false for spaces we cannot reach. */
static bool gas_write8(const struct acpi_gas *g, uint8_t v)
{
	if (g->space_id == ACPI_AS_IO && g->address && g->address <= 0xffff) {
		outb((uint16_t)g->address, v);
		return true;
	}
	if (g->space_id == ACPI_AS_MEMORY && g->address) {
		mmio_write8((uintptr_t)g->address, v);
		return true;
	}
	return false;	/* PCI configuration space would need 32-bit port I/O */
}

void power_reboot(const struct acpi_info *ai)
{
	if (ai && ai->have_fadt && ai->fadt.reset_supported &&
	    gas_write8(&ai->fadt.reset_reg, ai->fadt.reset_value))
		delay_us(100000);
	/* The 8042 exists unless a FADT (revision >= 3 defines the bit) says it does not. */
	if (!ai || !ai->have_fadt || ai->fadt.revision < 3 ||
	    (ai->fadt.boot_arch & FADT_BOOT_ARCH_8042)) {
		for (unsigned i = 0; i < 100000 && (inb(KBC_STATUS) & KBC_IBF); i++)
			;
		outb(KBC_STATUS, KBC_RESET);
		delay_us(100000);
	}
	outb(PCI_RST_CNT, 0x02);	/* system reset, then hard reset with full power cycle */
	outb(PCI_RST_CNT, 0x06);
	delay_us(100000);
}

static void pm1_sleep(uint16_t port, uint8_t slp_typ)
{
	uint16_t v = inw(port) & (uint16_t)~(PM1_SLP_TYP | PM1_SLP_EN);

	outw(port, (uint16_t)(v | ((slp_typ & 7u) << 10) | PM1_SLP_EN));
}

static bool pm1_io(const struct acpi_gas *g)
{
	return g->space_id == ACPI_AS_IO && g->address && g->address < 0xffff;
}

void power_off(const struct acpi_info *ai, const char **why)
{
	const struct acpi_fadt *f;

	if (!ai || !ai->valid || !ai->have_fadt) {
		*why = "no usable ACPI FADT";
		return;
	}
	f = &ai->fadt;
	if (!ai->s5.found) {
		*why = "\\_S5 not found as a plain package in the DSDT (needs an AML interpreter)";
		return;
	}
	if (f->hw_reduced) {
		if (!gas_write8(&f->sleep_ctl, (uint8_t)((ai->s5.slp_typa << 2) | SLPCTL_SLP_EN))) {
			*why = "HW-reduced ACPI without a usable SLEEP_CONTROL_REG";
			return;
		}
		delay_us(100000);
		*why = "SLEEP_CONTROL_REG write did not power off";
		return;
	}
	if (!pm1_io(&f->pm1a_cnt)) {
		*why = "PM1a control block not in I/O space";
		return;
	}
	/* Legacy platforms start in SMM-owned mode: hand ACPI to the OS first (§4.8.2.1). */
	if (!(inb((uint16_t)f->pm1a_cnt.address) & PM1_SCI_EN) && f->smi_cmd && f->acpi_enable &&
	    f->smi_cmd <= 0xffff) {
		outb((uint16_t)f->smi_cmd, f->acpi_enable);
		for (unsigned i = 0; i < 300 && !(inb((uint16_t)f->pm1a_cnt.address) & PM1_SCI_EN); i++)
			delay_us(1000);
	}
	if (pm1_io(&f->pm1b_cnt))
		pm1_sleep((uint16_t)f->pm1b_cnt.address, ai->s5.slp_typb);
	pm1_sleep((uint16_t)f->pm1a_cnt.address, ai->s5.slp_typa);
	delay_us(100000);
	*why = "PM1 control write did not power off";
}
