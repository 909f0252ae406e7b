/*
 * unaligned.h: little-endian loads from byte buffers that carry no alignment promise
 * (multiboot2 tags, perf ring-buffer records). memcpy keeps them defined behaviour in C11;
 * x86 is little-endian, so the bytes are the value (SDM Vol. 1 1.3.1, "Bit and Byte Order").
 * Pure: shared by the kernel and the host tools.
 */
#ifndef KERNEL_UNALIGNED_H
#define KERNEL_UNALIGNED_H

#include <stdint.h>
#include <string.h>

static inline uint32_t load_le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t load_le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

#endif
