/*
 * serial.h: 16550-compatible UART console (PC16550D data sheet register map). Every wait is
 * bounded: an absent or stuck UART is detected and dropped, never waited on forever.
 */
#ifndef PLATFORM_SERIAL_H
#define PLATFORM_SERIAL_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/console.h"

#define SERIAL_DEFAULT_BAUD 115200

struct serial_port {
	struct console_backend be;
	uint16_t io;		/* I/O port base */
	uint32_t baud;
	bool present;
	unsigned timeouts;	/* transmit waits that ran out; many => port dropped */
};

/* The legacy COM1..COM4 I/O bases. */
extern const uint16_t serial_com_base[4];

/* Probe (scratch register) and program 8N1 at `baud`. false: no UART answers at `io`. */
bool serial_init(struct serial_port *p, uint16_t io, uint32_t baud);
void serial_putc(struct serial_port *p, char c);

/*
 * Parse "ttyS0..3[,baud]" (the console= value). Returns false on a value this driver does
 * not understand; *io and *baud are then untouched.
 */
bool serial_parse_console(const char *val, uint16_t *io, uint32_t *baud);

/* The port the console uses (NULL if none answered). */
extern struct serial_port *serial_console;

#endif
