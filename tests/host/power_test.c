/*
 * power_test.c: end= parsing and the port writes of reboot and S5 power-off (ACPI 6.5
 * §4.8.3.6, §4.8.3.2.1) against a port model that records every write, for FADTs with and
 * without a reset register, with SCI_EN clear (SMI_CMD handshake) and without \_S5.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/hw.h"
#include "platform/power.h"

static struct { uint16_t port; uint8_t val; } wlog[16];
static unsigned nw;
static uint8_t pm1_lo;		/* PM1a_CNT low byte (SCI_EN) */

uint8_t inb(uint16_t port)
{
	if (port == 0x604)
		return pm1_lo;
	return 0;		/* 8042 never busy, POST port */
}

void outb(uint16_t port, uint8_t v)
{
	if (port == 0xb2 && v == 0xf1)	/* SMI_CMD <- ACPI_ENABLE sets SCI_EN */
		pm1_lo |= 1;
	if (nw < 16)
		wlog[nw++] = (typeof(wlog[0])){ port, v };
}

uint16_t inw(uint16_t port)
{
	return inb(port);
}

void outw(uint16_t port, uint16_t v)
{
	if (nw < 16)
		wlog[nw++] = (typeof(wlog[0])){ port, (uint8_t)(v >> 8) };	/* high byte */
}

void mmio_write8(uintptr_t a, uint8_t v)
{
	outb(0xffff, v);	/* logged as port 0xffff */
	(void)a;
}

static struct acpi_info ai;

static int reset(void **state)
{
	(void)state;
	memset(&ai, 0, sizeof(ai));
	memset(wlog, 0, sizeof(wlog));
	nw = 0;
	pm1_lo = 1;
	return 0;
}

static void test_end_parse(void **state)
{
	enum end_action a;

	(void)state;
	assert_true(end_action_parse(NULL, &a));
	assert_int_equal(a, END_HALT);
	assert_true(end_action_parse("reboot", &a));
	assert_int_equal(a, END_REBOOT);
	assert_true(end_action_parse("poweroff", &a));
	assert_int_equal(a, END_POWEROFF);
	assert_false(end_action_parse("shutdown", &a));
	assert_int_equal(a, END_HALT);
}

static void test_reboot_acpi_first(void **state)
{
	(void)state;
	ai.valid = ai.have_fadt = true;
	ai.fadt.revision = 6;
	ai.fadt.reset_supported = true;
	ai.fadt.reset_reg = (struct acpi_gas){ .space_id = ACPI_AS_IO, .address = 0xcf9 };
	ai.fadt.reset_value = 0x0e;
	power_reboot(&ai);
	/* reset register; no 8042 (boot_arch bit clear on rev 6); then 0xcf9 fallback */
	assert_int_equal(nw, 3);
	assert_int_equal(wlog[0].port, 0xcf9);
	assert_int_equal(wlog[0].val, 0x0e);
	assert_int_equal(wlog[1].port, 0xcf9);
	assert_int_equal(wlog[2].val, 0x06);
}

static void test_reboot_no_acpi(void **state)
{
	(void)state;
	power_reboot(NULL);
	assert_int_equal(wlog[0].port, 0x64);
	assert_int_equal(wlog[0].val, 0xfe);
	assert_int_equal(nw, 3);
}

static void test_poweroff(void **state)
{
	const char *why = NULL;

	(void)state;
	power_off(&ai, &why);
	assert_non_null(why);
	assert_int_equal(nw, 0);
	ai.valid = ai.have_fadt = true;
	ai.fadt.pm1a_cnt = (struct acpi_gas){ .space_id = ACPI_AS_IO, .address = 0x604 };
	power_off(&ai, &why);
	assert_non_null(strstr(why, "_S5"));
	assert_int_equal(nw, 0);
	ai.s5 = (struct acpi_s5){ .found = true, .slp_typa = 5 };
	ai.fadt.smi_cmd = 0xb2;
	ai.fadt.acpi_enable = 0xf1;
	pm1_lo = 0;			/* SCI_EN clear: enable ACPI first */
	power_off(&ai, &why);
	assert_int_equal(wlog[0].port, 0xb2);
	assert_int_equal(wlog[1].port, 0x604);	/* outw: high byte logged */
	assert_int_equal(wlog[1].val, (5 << 2) | 0x20);
	nw = 0;
	ai.fadt.hw_reduced = true;	/* needs SLEEP_CONTROL_REG */
	power_off(&ai, &why);
	assert_non_null(strstr(why, "SLEEP_CONTROL_REG"));
	assert_int_equal(nw, 0);
	ai.fadt.sleep_ctl = (struct acpi_gas){ .space_id = ACPI_AS_IO, .address = 0x404 };
	power_off(&ai, &why);
	assert_int_equal(wlog[0].port, 0x404);
	assert_int_equal(wlog[0].val, (5 << 2) | 0x20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_end_parse, reset),
		cmocka_unit_test_setup(test_reboot_acpi_first, reset),
		cmocka_unit_test_setup(test_reboot_no_acpi, reset),
		cmocka_unit_test_setup(test_poweroff, reset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
