/*
 * console_opt.c: the console= option and the default UART candidate order (pure C; see
 * uart.h). Linux's earlycon spelling is accepted for MMIO ports (uart,mmio32,ADDR);
 * BDA words at 0x400 (COM1..COM4 I/O bases, IBM PC BIOS Data Area) come in as an array.
 */
#include "platform/uart.h"
#include "kernel/cmdline.h"

#include <string.h>

static const uint16_t com_base[4] = { 0x3f8, 0x2f8, 0x3e8, 0x2e8 };
static const char *const com_names[4] = { "COM1", "COM2", "COM3", "COM4" };

/* ",baud" or "" at s; baud must divide 115200 (1.8432 MHz / 16) evenly. */
static bool parse_baud(const char *s, uint32_t *baud)
{
	uint64_t b;

	if (*s == '\0')
		return true;
	if (*s != ',' || !cmdline_parse_u64(s + 1, &b) || b < 50 || b > 115200 || 115200 % b)
		return false;
	*baud = (uint32_t)b;
	return true;
}

/* "0xNNNN" (or decimal) up to the next ',' or the end. */
static bool parse_addr(const char *s, uint64_t *addr, const char **rest)
{
	char buf[24];
	const char *e = strchr(s, ',');
	size_t n = e ? (size_t)(e - s) : strlen(s);

	if (n == 0 || n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*rest = s + n;
	return cmdline_parse_u64(buf, addr);
}

bool console_opt_parse(const char *val, struct console_choice *c, const char **err)
{
	struct uart_cfg p = { .space = UART_IO, .reg_width = 1, .baud = UART_DEFAULT_BAUD,
			      .source = "cmdline" };
	const char *rest;

	memset(c, 0, sizeof(*c));
	c->serial = c->fb = true;
	if (!val)
		return true;
	if (!strcmp(val, "fb") || !strcmp(val, "noserial")) {
		c->serial = false;
		return true;
	}
	if (!strcmp(val, "nofb")) {
		c->fb = false;
		return true;
	}
	if (!strncmp(val, "ttyS", 4) && val[4] >= '0' && val[4] <= '3') {
		p.base = com_base[val[4] - '0'];
		rest = val + 5;
	} else if (!strncmp(val, "uart,io,", 8)) {
		if (!parse_addr(val + 8, &p.base, &rest) || p.base == 0 || p.base > 0xfff8) {
			*err = "uart,io needs a port 0x1..0xfff8";
			return false;
		}
	} else if (!strncmp(val, "uart,mmio", 9)) {
		const char *a = val + 9;

		p.space = UART_MMIO;
		if (!strncmp(a, "32,", 3)) {
			p.reg_width = 4;
			a += 3;
		} else if (!strncmp(a, "16,", 3)) {
			p.reg_width = 2;
			a += 3;
		} else if (*a == ',') {
			a++;
		} else {
			*err = "expected uart,mmio,ADDR, uart,mmio16,ADDR or uart,mmio32,ADDR";
			return false;
		}
		if (!parse_addr(a, &p.base, &rest) || p.base == 0) {
			*err = "uart,mmio needs a nonzero address";
			return false;
		}
	} else {
		*err = "want ttyS0-3[,baud], uart,io|mmio|mmio32,ADDR[,baud], fb, nofb, noserial";
		return false;
	}
	if (!parse_baud(rest, &p.baud)) {
		*err = "baud must be 50..115200 and divide 115200";
		return false;
	}
	c->named = true;
	c->port = p;
	return true;
}

static bool listed(const struct uart_cfg *out, unsigned n, enum uart_space sp, uint64_t base)
{
	for (unsigned i = 0; i < n; i++)
		if (out[i].space == sp && out[i].base == base)
			return true;
	return false;
}

unsigned uart_candidates(const uint16_t *bda, const struct acpi_spcr *spcr,
			 struct uart_cfg *out, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; bda && i < 4 && n < max; i++) {
		uint16_t b = bda[i];

		/* a real BDA holds 0 or a port; anything odd is not worth probing */
		if (b == 0 || b > 0xfff8 || (b & 7) || listed(out, n, UART_IO, b))
			continue;
		out[n++] = (struct uart_cfg){ .space = UART_IO, .base = b, .reg_width = 1,
					      .baud = UART_DEFAULT_BAUD, .source = "BDA" };
	}
	if (spcr && spcr->usable && n < max) {
		enum uart_space sp = spcr->mmio ? UART_MMIO : UART_IO;

		if (!listed(out, n, sp, spcr->base))
			out[n++] = (struct uart_cfg){
				.space = sp, .base = spcr->base, .reg_width = spcr->reg_width,
				.baud = spcr->baud, .clock = spcr->uart_clock, .source = "SPCR" };
	}
	/* then the legacy ports, COM1 first: UEFI keeps no BDA, and without SPCR a COM2
	 * serial-over-LAN port would otherwise never be found; absent ones fail the probe */
	for (unsigned i = 0; i < 4 && n < max; i++)
		if (!listed(out, n, UART_IO, com_base[i]))
			out[n++] = (struct uart_cfg){ .space = UART_IO, .base = com_base[i],
						      .reg_width = 1, .baud = UART_DEFAULT_BAUD,
						      .source = com_names[i] };
	return n;
}
