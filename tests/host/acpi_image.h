/*
 * acpi_image.h: the in-memory ACPI image shared by the ACPI host tests (acpi_image.c): the
 * layout offsets, the "physical memory" it lives in, and the table builders.
 */
#ifndef TESTS_HOST_ACPI_IMAGE_H
#define TESTS_HOST_ACPI_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "platform/acpi.h"

/* "Physical memory": exactly `size` bytes, so ASan sees any read past it. */
struct phys {
	uint8_t *mem;
	size_t size;
};

/* Layout of the standard image. */
enum { RSDT = 0x40, XSDT = 0x100, MADT = 0x200, SPCR = 0x300, HPET = 0x380,
       FADT = 0x400, DSDT = 0x600, IMG = 0x700 };

extern struct phys img;
extern struct acpi_info ai;
extern uint8_t rsdp[36];
extern const uint8_t s5_aml[14];

const void *map(void *ctx, uint64_t phys, uint64_t len);
void put16(uint8_t *p, uint16_t v);
void put32(uint8_t *p, uint32_t v);
void put64(uint8_t *p, uint64_t v);
void gas(uint8_t *p, uint8_t space, uint8_t width, uint8_t access, uint64_t addr);
void fix(uint8_t *t);
uint8_t *hdr(uint8_t *t, const char *sig, uint32_t len, uint8_t rev);
void make_rsdp(uint8_t rev, uint32_t rsdt, uint64_t xsdt);
void build_madt(uint8_t *t);
void build_spcr(uint8_t *t, uint8_t type, uint8_t space, uint8_t access, uint64_t base,
		uint8_t baud);
void build_image(void);
int acpi_img_setup(void **state);
int acpi_img_teardown(void **state);
bool acpi_said(const char *s);

#endif
