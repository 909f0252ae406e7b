/*
 * uart.c: polled 16550 driver over I/O ports or MMIO (PC16550D register map: RBR/THR 0,
 * IER 1, FCR 2, LCR 3, MCR 4, LSR 5, MSR 6, SCR 7; DLL/DLM at 0/1 while LCR.DLAB). MMIO
 * registers sit reg_width bytes apart and are accessed with that width (SPCR GAS Access
 * Size; 16-bit registers use byte accesses, hw.h has no 16-bit MMIO). All waits are bounded.
 */
#include "platform/uart.h"
#include "kernel/hw.h"

#include <string.h>

enum {
	RBR = 0, THR = 0, DLL = 0, IER = 1, DLM = 1, FCR = 2, LCR = 3, MCR = 4, LSR = 5,
	SCR = 7,
	LCR_8N1 = 0x03, LCR_DLAB = 0x80,
	MCR_DTR_RTS = 0x03, MCR_LOOP = 0x10,
	LSR_DR = 0x01, LSR_THRE = 0x20,
	SPIN_LIMIT = 200000,	/* >> one character time at 9600 baud on any bus */
	DROP_AFTER = 8,		/* consecutive timeouts before the port is dropped */
	DEFAULT_CLOCK = 1843200,
};

static uint8_t rd(const struct uart_cfg *c, unsigned r)
{
	if (c->space == UART_IO)
		return inb((uint16_t)(c->base + r));
	if (c->reg_width == 4)
		return (uint8_t)mmio_read32((uintptr_t)(c->base + 4 * r));
	return mmio_read8((uintptr_t)(c->base + (uint64_t)c->reg_width * r));
}

static void wr(const struct uart_cfg *c, unsigned r, uint8_t v)
{
	if (c->space == UART_IO)
		outb((uint16_t)(c->base + r), v);
	else if (c->reg_width == 4)
		mmio_write32((uintptr_t)(c->base + 4 * r), v);
	else
		mmio_write8((uintptr_t)(c->base + (uint64_t)c->reg_width * r), v);
}

static bool wait_lsr(const struct uart_cfg *c, uint8_t bit)
{
	for (unsigned spin = 0; spin < SPIN_LIMIT; spin++)
		if (rd(c, LSR) & bit)
			return true;
	return false;
}

static bool scratch_ok(const struct uart_cfg *c)
{
	wr(c, SCR, 0x5a);
	if (rd(c, SCR) != 0x5a)
		return false;
	wr(c, SCR, 0xa5);
	return rd(c, SCR) == 0xa5;
}

/* Loopback (MCR bit 4): a byte written to THR comes back in RBR. */
static bool loopback_ok(const struct uart_cfg *c)
{
	bool ok;

	wr(c, MCR, MCR_LOOP | MCR_DTR_RTS);
	for (int i = 0; i < 32 && (rd(c, LSR) & LSR_DR); i++)
		(void)rd(c, RBR);	/* drain stale input */
	ok = wait_lsr(c, LSR_THRE);
	if (ok) {
		wr(c, THR, 0x96);
		ok = wait_lsr(c, LSR_DR) && rd(c, RBR) == 0x96;
	}
	wr(c, MCR, MCR_DTR_RTS);
	return ok;
}

static void program(const struct uart_cfg *c)
{
	uint32_t clock = c->clock ? c->clock : DEFAULT_CLOCK;

	wr(c, IER, 0x00);		/* polled: no UART interrupts */
	if (c->baud) {
		uint32_t div = clock / 16 / c->baud;

		if (div == 0 || div > 0xffff)
			div = 1;
		wr(c, LCR, LCR_DLAB);
		wr(c, DLL, (uint8_t)div);
		wr(c, DLM, (uint8_t)(div >> 8));
	}
	wr(c, LCR, LCR_8N1);
	wr(c, FCR, 0x07);		/* FIFO on (ignored by a 16450), both cleared */
	wr(c, MCR, MCR_DTR_RTS);
}

bool uart_probe(const struct uart_cfg *cfg)
{
	if (!scratch_ok(cfg))
		return false;
	program(cfg);
	return loopback_ok(cfg);
}

static void uart_write(struct console_backend *be, const char *s, size_t n)
{
	struct uart *u = be->priv;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			uart_putc(u, '\r');
		uart_putc(u, s[i]);
	}
}

bool uart_init(struct uart *u, const struct uart_cfg *cfg)
{
	memset(u, 0, sizeof(*u));
	u->cfg = *cfg;
	/* The scratch register decides presence (absent ports read 0xff or 0x00); the
	 * loopback test catches a UART that answers but does not transmit. */
	if (!uart_probe(&u->cfg))
		return false;
	u->present = true;
	u->be.name = "uart";
	u->be.write = uart_write;
	u->be.priv = u;
	return true;
}

void uart_putc(struct uart *u, char c)
{
	if (!u->present)
		return;
	if (!wait_lsr(&u->cfg, LSR_THRE)) {
		if (++u->timeouts >= DROP_AFTER)
			u->present = false;	/* stuck: stop waiting on it */
		return;
	}
	u->timeouts = 0;
	wr(&u->cfg, THR, (uint8_t)c);
}
