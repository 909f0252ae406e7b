/*
 * uart_test.c: console= parsing, the default candidate order (BDA, SPCR, COM1), and the
 * 16550 driver's probe/transmit against a register-level model standing in for kernel/hw.h:
 * absent ports read 0xff, MMIO ports check access width and stride, a "deaf" UART fails
 * loopback, a stuck one never sets THRE (the driver must give up, not hang).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/hw.h"
#include "platform/uart.h"

/* ---- the model ---- */
struct model {
	bool on, mmio, deaf, stuck;
	uint64_t base;
	unsigned width;
	uint8_t reg[8], dll, dlm, rx;
	bool rx_full;
	char tx[64];
	unsigned ntx, bad_access, lsr_reads;
};
static struct model m[2];

static struct model *find(bool mmio, uint64_t addr, unsigned width, unsigned *r)
{
	for (int i = 0; i < 2; i++) {
		unsigned stride = m[i].mmio ? m[i].width : 1;
		if (!m[i].on || m[i].mmio != mmio || addr < m[i].base ||
		    addr >= m[i].base + 8 * stride)
			continue;
		if ((addr - m[i].base) % stride || (mmio && width != (m[i].width == 4 ? 4 : 1))) {
			m[i].bad_access++;
			return NULL;
		}
		*r = (unsigned)((addr - m[i].base) / stride);
		return &m[i];
	}
	return NULL;
}

static uint8_t reg_read(struct model *u, unsigned r)
{
	bool dlab = u->reg[3] & 0x80;

	switch (r) {
	case 0:
		if (dlab)
			return u->dll;
		u->rx_full = false;
		return u->rx;
	case 1: return dlab ? u->dlm : u->reg[1];
	case 5:
		u->lsr_reads++;
		return (uint8_t)((u->stuck ? 0 : 0x60) | (u->rx_full ? 1 : 0));
	default: return u->reg[r];
	}
}

static void reg_write(struct model *u, unsigned r, uint8_t v)
{
	bool dlab = u->reg[3] & 0x80;

	if (r == 0 && dlab) {
		u->dll = v;
	} else if (r == 1 && dlab) {
		u->dlm = v;
	} else if (r == 0) {
		if (u->reg[4] & 0x10) {		/* loopback */
			if (!u->deaf) {
				u->rx = v;
				u->rx_full = true;
			}
		} else if (u->ntx < sizeof(u->tx) - 1) {
			u->tx[u->ntx++] = (char)v;
		}
	} else {
		u->reg[r] = v;
	}
}

uint8_t inb(uint16_t port)
{
	unsigned r;
	struct model *u = find(false, port, 1, &r);
	return u ? reg_read(u, r) : 0xff;
}

void outb(uint16_t port, uint8_t v)
{
	unsigned r;
	struct model *u = find(false, port, 1, &r);
	if (u)
		reg_write(u, r, v);
}

uint8_t mmio_read8(uintptr_t a)
{
	unsigned r;
	struct model *u = find(true, a, 1, &r);
	return u ? reg_read(u, r) : 0xff;
}

uint32_t mmio_read32(uintptr_t a)
{
	unsigned r;
	struct model *u = find(true, a, 4, &r);
	return u ? reg_read(u, r) : 0xffffffffu;
}

void mmio_write8(uintptr_t a, uint8_t v)
{
	unsigned r;
	struct model *u = find(true, a, 1, &r);
	if (u)
		reg_write(u, r, v);
}

void mmio_write32(uintptr_t a, uint32_t v)
{
	unsigned r;
	struct model *u = find(true, a, 4, &r);
	if (u)
		reg_write(u, r, (uint8_t)v);
}

static int reset(void **state)
{
	(void)state;
	memset(m, 0, sizeof(m));
	return 0;
}

/* ---- console= ---- */
static void test_console_opt_good(void **state)
{
	struct console_choice c;
	const char *err = NULL;

	(void)state;
	assert_true(console_opt_parse(NULL, &c, &err));
	assert_true(c.serial && c.fb && !c.named);
	assert_true(console_opt_parse("ttyS1", &c, &err));
	assert_true(c.named && c.serial && c.fb);
	assert_int_equal(c.port.space, UART_IO);
	assert_int_equal(c.port.base, 0x2f8);
	assert_int_equal(c.port.baud, 115200);
	assert_true(console_opt_parse("ttyS0,9600", &c, &err));
	assert_int_equal(c.port.base, 0x3f8);
	assert_int_equal(c.port.baud, 9600);
	assert_true(console_opt_parse("uart,io,0xe000,57600", &c, &err));
	assert_int_equal(c.port.base, 0xe000);
	assert_int_equal(c.port.baud, 57600);
	assert_true(console_opt_parse("uart,mmio32,0xfe032000", &c, &err));
	assert_int_equal(c.port.space, UART_MMIO);
	assert_int_equal(c.port.reg_width, 4);
	assert_int_equal(c.port.base, 0xfe032000);
	assert_true(console_opt_parse("uart,mmio,0x80001000,115200", &c, &err));
	assert_int_equal(c.port.reg_width, 1);
	assert_true(console_opt_parse("fb", &c, &err));
	assert_true(!c.serial && c.fb);
	assert_true(console_opt_parse("noserial", &c, &err));
	assert_false(c.serial);
	assert_true(console_opt_parse("nofb", &c, &err));
	assert_true(c.serial && !c.fb && !c.named);
}

static void test_console_opt_bad(void **state)
{
	static const char *const bad[] = {
		"ttyS4", "ttyS1x", "ttyS1,7", "ttyS1,230400", "ttyS1,", "uart,io,0x10000",
		"uart,io,", "uart,io,zz", "uart,mmio,0", "uart,mmio8,0x1000", "uart", "vga",
		"uart,mmio32,0x1000,abc", "",
	};
	struct console_choice c;

	(void)state;
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *err = NULL;
		if (console_opt_parse(bad[i], &c, &err))
			fail_msg("console=%s accepted", bad[i]);
		assert_non_null(err);
		assert_true(c.serial && c.fb && !c.named);	/* defaults kept */
	}
}

/* ---- discovery order ---- */
static void test_candidates(void **state)
{
	struct uart_cfg out[UART_MAX_PORTS];
	uint16_t bda[4] = { 0x3f8, 0x2f8, 0, 0 };
	struct acpi_spcr spcr = { .usable = true, .base = 0x2f8, .reg_width = 1, .baud = 0 };
	unsigned n;

	(void)state;
	n = uart_candidates(bda, &spcr, out, UART_MAX_PORTS);
	assert_int_equal(n, 4);		/* SPCR, COM1, COM2 duplicate BDA entries */
	assert_int_equal(out[0].base, 0x3f8);
	assert_string_equal(out[0].source, "BDA");
	assert_int_equal(out[1].base, 0x2f8);
	assert_string_equal(out[1].source, "BDA");
	assert_int_equal(out[2].base, 0x3e8);
	assert_string_equal(out[2].source, "COM3");
	assert_int_equal(out[3].base, 0x2e8);

	spcr = (struct acpi_spcr){ .usable = true, .mmio = true, .base = 0xfe032000,
				   .reg_width = 4, .baud = 115200, .uart_clock = 1843200 };
	n = uart_candidates(NULL, &spcr, out, UART_MAX_PORTS);
	assert_int_equal(n, 5);		/* no BDA (UEFI): SPCR, then COM1..4 */
	assert_int_equal(out[0].space, UART_MMIO);
	assert_int_equal(out[0].reg_width, 4);
	assert_string_equal(out[0].source, "SPCR");
	assert_int_equal(out[1].base, 0x3f8);
	assert_string_equal(out[1].source, "COM1");

	bda[0] = 0xffff; bda[1] = 0x123; bda[2] = 0x2f8; bda[3] = 0x2f8;
	spcr.usable = false;
	n = uart_candidates(bda, &spcr, out, UART_MAX_PORTS);
	assert_int_equal(n, 4);		/* junk skipped, duplicate skipped, then COM1, 3, 4 */
	assert_int_equal(out[0].base, 0x2f8);
	assert_int_equal(out[1].base, 0x3f8);
	assert_string_equal(out[1].source, "COM1");
	assert_int_equal(out[2].base, 0x3e8);
	assert_int_equal(uart_candidates(NULL, NULL, out, 1), 1);
	assert_int_equal(uart_candidates(bda, NULL, out, 0), 0);
}

/* ---- the driver on the model ---- */
static void test_io_present_and_absent(void **state)
{
	struct uart u;
	struct uart_cfg cfg = { .space = UART_IO, .base = 0x2f8, .baud = 9600 };

	(void)state;
	m[0] = (struct model){ .on = true, .base = 0x2f8 };
	assert_true(uart_init(&u, &cfg));
	assert_int_equal(m[0].dll, 12);	/* 115200 / 9600 */
	assert_int_equal(m[0].dlm, 0);
	assert_int_equal(m[0].reg[3], 0x03);	/* 8N1, DLAB clear */
	assert_int_equal(m[0].reg[4], 0x03);	/* loopback off again */
	u.be.write(&u.be, "ok\n", 3);
	assert_string_equal(m[0].tx, "ok\r\n");
	cfg.base = 0x3f8;			/* nothing there */
	assert_false(uart_init(&u, &cfg));
	assert_false(u.present);
	uart_putc(&u, 'x');			/* harmless */
}

static void test_mmio_width(void **state)
{
	struct uart u;
	struct uart_cfg cfg = { .space = UART_MMIO, .base = 0x100000, .reg_width = 4,
				.baud = 115200 };

	(void)state;
	m[0] = (struct model){ .on = true, .mmio = true, .base = 0x100000, .width = 4 };
	assert_true(uart_init(&u, &cfg));
	uart_putc(&u, 'A');
	assert_string_equal(m[0].tx, "A");
	assert_int_equal(m[0].bad_access, 0);
	assert_int_equal(m[0].dll, 1);
	/* byte-wide MMIO registers */
	m[1] = (struct model){ .on = true, .mmio = true, .base = 0x200000, .width = 1 };
	cfg.base = 0x200000;
	cfg.reg_width = 1;
	cfg.baud = 0;				/* keep the firmware's divisor */
	m[1].dll = 0x42;
	assert_true(uart_init(&u, &cfg));
	assert_int_equal(m[1].dll, 0x42);
	assert_int_equal(m[1].bad_access, 0);
}

static void test_deaf_and_stuck(void **state)
{
	struct uart u;
	struct uart_cfg cfg = { .space = UART_IO, .base = 0x3f8, .baud = 115200 };

	(void)state;
	m[0] = (struct model){ .on = true, .base = 0x3f8, .deaf = true };
	assert_false(uart_init(&u, &cfg));	/* scratch ok, loopback fails */
	m[0] = (struct model){ .on = true, .base = 0x3f8 };
	assert_true(uart_init(&u, &cfg));
	m[0].stuck = true;			/* THRE never comes */
	for (int i = 0; i < 20; i++)
		uart_putc(&u, 'x');
	assert_false(u.present);		/* dropped after bounded waits */
	assert_int_equal(m[0].ntx, 0);
	unsigned reads = m[0].lsr_reads;
	uart_putc(&u, 'y');
	assert_int_equal(m[0].lsr_reads, reads);	/* no more waiting at all */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_console_opt_good, reset),
		cmocka_unit_test_setup(test_console_opt_bad, reset),
		cmocka_unit_test_setup(test_candidates, reset),
		cmocka_unit_test_setup(test_io_present_and_absent, reset),
		cmocka_unit_test_setup(test_mmio_width, reset),
		cmocka_unit_test_setup(test_deaf_and_stuck, reset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
