/*
 * serial.c: 16550 UART driver for the console (PC16550D register map: THR/RBR 0, IER 1,
 * FCR 2, LCR 3, MCR 4, LSR 5, SCR 7; divisor latch at 0/1 when LCR.DLAB). Output is polled;
 * "\n" goes out as CRLF. A port that does not hold a scratch-register value is absent.
 */
#include "platform/serial.h"
#include "kernel/hw.h"
#include "kernel/cmdline.h"

#include <string.h>

enum {
	UART_THR = 0, UART_IER = 1, UART_FCR = 2, UART_LCR = 3, UART_MCR = 4,
	UART_LSR = 5, UART_SCR = 7,
	UART_DLL = 0, UART_DLM = 1,
	LCR_8N1 = 0x03, LCR_DLAB = 0x80,
	LSR_THRE = 0x20,
	UART_CLOCK = 1843200 / 16,	/* 115200: divisor = 115200 / baud */
	TX_SPIN_LIMIT = 200000,		/* ~ tens of ms at ISA port speed: >> one character */
	TX_DROP_AFTER = 8,		/* consecutive timeouts before the port is dropped */
};

const uint16_t serial_com_base[4] = { 0x3f8, 0x2f8, 0x3e8, 0x2e8 };
struct serial_port *serial_console;

static void serial_backend_write(struct console_backend *be, const char *s, size_t n)
{
	struct serial_port *p = be->priv;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			serial_putc(p, '\r');
		serial_putc(p, s[i]);
	}
}

bool serial_init(struct serial_port *p, uint16_t io, uint32_t baud)
{
	uint32_t div;

	memset(p, 0, sizeof(*p));
	p->io = io;
	p->baud = baud ? baud : SERIAL_DEFAULT_BAUD;
	/* Scratch register test: no UART (floating bus) reads back 0xff. */
	outb(io + UART_SCR, 0x5a);
	if (inb(io + UART_SCR) != 0x5a)
		return false;
	outb(io + UART_SCR, 0xa5);
	if (inb(io + UART_SCR) != 0xa5)
		return false;

	div = UART_CLOCK / p->baud;
	if (div == 0 || div > 0xffff)
		div = 1;
	outb(io + UART_IER, 0x00);		/* polled: no UART interrupts */
	outb(io + UART_LCR, LCR_DLAB);
	outb(io + UART_DLL, div & 0xff);
	outb(io + UART_DLM, (div >> 8) & 0xff);
	outb(io + UART_LCR, LCR_8N1);
	outb(io + UART_FCR, 0x07);		/* FIFO on, both cleared */
	outb(io + UART_MCR, 0x03);		/* DTR, RTS */
	p->present = true;
	p->be.name = "serial";
	p->be.write = serial_backend_write;
	p->be.priv = p;
	return true;
}

void serial_putc(struct serial_port *p, char c)
{
	unsigned spin = 0;

	if (!p->present)
		return;
	while (!(inb(p->io + UART_LSR) & LSR_THRE)) {
		if (++spin == TX_SPIN_LIMIT) {
			if (++p->timeouts >= TX_DROP_AFTER)
				p->present = false;	/* stuck UART: stop waiting on it */
			return;
		}
	}
	p->timeouts = 0;
	outb(p->io + UART_THR, (uint8_t)c);
}

bool serial_parse_console(const char *val, uint16_t *io, uint32_t *baud)
{
	uint64_t b = SERIAL_DEFAULT_BAUD;
	unsigned idx;

	if (strncmp(val, "ttyS", 4) || val[4] < '0' || val[4] > '3')
		return false;
	idx = (unsigned)(val[4] - '0');
	if (val[5] == ',') {
		if (!cmdline_parse_u64(val + 6, &b) || b < 50 || b > 115200 || 115200 % b)
			return false;
	} else if (val[5] != '\0') {
		return false;
	}
	*io = serial_com_base[idx];
	*baud = (uint32_t)b;
	return true;
}
