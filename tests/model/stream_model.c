/*
 * stream_model.c: the bandwidth kernels of kernel/hw_stream.h on the host, in C, on the
 * virtual clock (see stream_model.h). The ranges follow kernel/hw_stream.c exactly: read and
 * write cut `bytes` in HW_STREAM_WAYS streams of bytes / 4 and walk bytes / 256 lines of each;
 * mixR reads R streams of wbytes from src and writes wbytes to dst.
 */
#include "model/stream_model.h"
#include "model/vclock.h"
#include "kernel/hw_stream.h"

struct stream_model smod;

void stream_model_reset(void)
{
	smod = (struct stream_model){
		.l1 = 48u << 10, .l2 = 2u << 20, .l3 = 32u << 20,
		.rate = { 64000, 32000, 16000, 8000 },
	};
}

static void spend(uint64_t footprint, uint64_t moved)
{
	unsigned lv = footprint <= smod.l1 ? 0 : footprint <= smod.l2 ? 1 :
		      footprint <= smod.l3 ? 2 : 3;

	smod.calls++;
	if (smod.rate[lv])
		vclock_advance(moved * 1000 / smod.rate[lv]);
}

static uint64_t sum_streams(const uint8_t *buf, uint64_t bytes)
{
	uint64_t q = bytes / HW_STREAM_WAYS, n = bytes / HW_STREAM_UNIT * HW_STREAM_LINE, s = 0;

	for (unsigned k = 0; k < HW_STREAM_WAYS; k++)
		for (uint64_t i = 0; i < n; i += 8)
			s += *(const uint64_t *)(buf + k * q + i);
	smod.bytes_read += HW_STREAM_WAYS * n;
	return s;
}

uint64_t hw_stream_read(const void *buf, uint64_t bytes)
{
	uint64_t s = bytes / HW_STREAM_UNIT ? sum_streams(buf, bytes) : 0;

	spend(bytes, bytes / HW_STREAM_UNIT * HW_STREAM_UNIT);
	return s + (smod.calls == smod.bad_sum_call);
}

static void store_streams(uint8_t *buf, uint64_t bytes, uint64_t val)
{
	uint64_t q = bytes / HW_STREAM_WAYS, n = bytes / HW_STREAM_UNIT * HW_STREAM_LINE;

	if (!n)
		return;
	for (unsigned k = 0; k < HW_STREAM_WAYS; k++)
		for (uint64_t i = 0; i < n; i += 8)
			*(uint64_t *)(buf + k * q + i) = val;
	smod.bytes_written += HW_STREAM_WAYS * n;
}

void hw_stream_write(void *buf, uint64_t bytes, uint64_t val)
{
	store_streams(buf, bytes, val);
	spend(bytes, bytes / HW_STREAM_UNIT * HW_STREAM_UNIT);
}

void hw_stream_write_nt(void *buf, uint64_t bytes, uint64_t val)
{
	smod.nt_calls++;
	hw_stream_write(buf, bytes, val);
}

static uint64_t mix(unsigned r, const uint8_t *src, uint8_t *dst, uint64_t wbytes, uint64_t val)
{
	uint64_t n = wbytes / HW_STREAM_LINE * HW_STREAM_LINE, s = 0;

	for (unsigned k = 0; k < r; k++)
		for (uint64_t i = 0; i < n; i += 8)
			s += *(const uint64_t *)(src + k * wbytes + i);
	for (uint64_t i = 0; i < n; i += 8)
		*(uint64_t *)(dst + i) = val;
	smod.bytes_read += r * n;
	smod.bytes_written += n;
	spend((r + 1) * wbytes, (r + 1) * n);
	return s + (smod.calls == smod.bad_sum_call);
}

uint64_t hw_stream_mix1(const void *src, void *dst, uint64_t wbytes, uint64_t val)
{
	return mix(1, src, dst, wbytes, val);
}

uint64_t hw_stream_mix2(const void *src, void *dst, uint64_t wbytes, uint64_t val)
{
	return mix(2, src, dst, wbytes, val);
}

uint64_t hw_stream_mix3(const void *src, void *dst, uint64_t wbytes, uint64_t val)
{
	return mix(3, src, dst, wbytes, val);
}
