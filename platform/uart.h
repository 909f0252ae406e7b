/*
 * uart.h: a 16550-family UART on I/O ports or memory-mapped registers (PC16550D data sheet
 * register map; MMIO register width/stride as the ACPI SPCR table describes it), plus the
 * console= option and the discovery order of docs/usb.md and README.md: ports listed in the BIOS
 * Data Area (0x400, legacy BIOS only), then the ACPI SPCR port, then COM1 (and, last, the
 * other legacy ports COM2-COM4, for UEFI machines with SOL on COM2 and no SPCR). Every candidate
 * is probed (scratch register, then loopback) before use; an absent one is skipped, and a
 * stuck one is dropped after bounded waits.
 */
#ifndef PLATFORM_UART_H
#define PLATFORM_UART_H

#include <stdbool.h>
#include <stdint.h>

#include "platform/acpi.h"
#include "kernel/console.h"

#define UART_DEFAULT_BAUD 115200
#define UART_MAX_PORTS    8	/* candidates tried; every one that answers is used */

enum uart_space { UART_IO, UART_MMIO };

struct uart_cfg {
	enum uart_space space;
	uint64_t base;		/* I/O port, or MMIO address (mapped by the caller) */
	uint8_t reg_width;	/* MMIO: register width and stride in bytes, 1, 2 or 4 */
	uint32_t baud;		/* 0: keep the divisor the firmware programmed */
	uint32_t clock;		/* input clock in Hz, 0 = 1.8432 MHz */
	const char *source;	/* "cmdline", "BDA", "SPCR", "COM1" */
};

struct uart {
	struct console_backend be;
	struct uart_cfg cfg;
	bool present;
	unsigned timeouts;	/* consecutive transmit waits that ran out */
};

/* What console= asked for. */
struct console_choice {
	bool serial;		/* serial output wanted */
	bool fb;		/* framebuffer output wanted */
	bool named;		/* a specific port was named: use only that one */
	struct uart_cfg port;	/* the named port */
};

/*
 * Parse a console= value (NULL = not given): ttyS0..3[,baud] | uart,io,0xPORT[,baud] |
 * uart,mmio[16|32],0xADDR[,baud] | fb | nofb | noserial. Returns false with *err set on a
 * value it does not understand; *c then holds the defaults (discovery, serial and fb on).
 */
bool console_opt_parse(const char *val, struct console_choice *c, const char **err);

/*
 * Default candidates in order: BDA COM1..4 words (bda may be NULL: no BIOS Data Area, e.g.
 * UEFI), the SPCR port when usable, then COM1..COM4; duplicates removed. Returns the count.
 */
unsigned uart_candidates(const uint16_t *bda, const struct acpi_spcr *spcr,
			 struct uart_cfg *out, unsigned max);

/* Probe and program 8N1. false (and nothing written but probe values) when absent. */
bool uart_init(struct uart *u, const struct uart_cfg *cfg);
/* Probe only: scratch register holds two patterns and loopback echoes a byte. */
bool uart_probe(const struct uart_cfg *cfg);
void uart_putc(struct uart *u, char c);

#endif
