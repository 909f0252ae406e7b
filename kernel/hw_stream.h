/*
 * hw_stream.h: the bandwidth instruction kernels, a part of the hardware seam (kernel/hw.h):
 * sequential loads and stores whose instructions the compiler may not choose. The kernel is
 * built -mgeneral-regs-only -fno-builtin and the host tools -O2, which vectorises C loops and
 * turns them into memset/memcpy calls; these are assembly (kernel/hw_stream.c), so the
 * kernel and tools/loadbench run the same instructions. Host unit tests link a model in
 * their place (tests/model/stream_model.c) that moves the virtual clock (tests/model/
 * vclock.c) by the bytes each call moves, at a modelled rate per level.
 * The instruction mix (docs/bandwidth.md §1): general-purpose 64-bit MOV loads and stores
 * only (SDM Vol. 2B MOV), MOVNTI for the non-temporal stores (SDM Vol. 2B MOVNTI, "Store
 * Doubleword Using Non-Temporal Hint"; CPUID.01H:EDX.SSE2[bit 26]) followed by one SFENCE
 * (SDM Vol. 3A 9.2.5 "weakly ordered" non-temporal stores). Every 8-byte word of every 64-byte
 * line of the range is accessed exactly once; the loads are summed so a host test can check
 * that (tests/host/hw_stream_test.c).
 */
#ifndef KERNEL_HW_STREAM_H
#define KERNEL_HW_STREAM_H

#include <stdint.h>

#define HW_STREAM_LINE 64u
#define HW_STREAM_WAYS 4u	/* independent streams of hw_stream_read/write: the range is
				 * cut in 4 equal parts, each walked from its start */
#define HW_STREAM_UNIT (HW_STREAM_LINE * HW_STREAM_WAYS)	/* 256: the ranges of read
				 * and write are multiples of it; mixes: a multiple of a line */

/* Read `bytes` (a multiple of HW_STREAM_UNIT; 0: nothing) from buf: 4 streams, 32 loads per
 * iteration (`add m64, r64` into one accumulator per stream). Returns the sum of the words. */
uint64_t hw_stream_read(const void *buf, uint64_t bytes);
/* Store `val` into every word of [buf, buf + bytes): 4 streams of MOV r64 -> m64. */
void hw_stream_write(void *buf, uint64_t bytes, uint64_t val);
/* The same with MOVNTI, then SFENCE. Only where CPUID says SSE2 (bw_nt_ok, loads/bw.h). */
void hw_stream_write_nt(void *buf, uint64_t bytes, uint64_t val);
/*
 * Read:write mixes R:1 (R = 1, 2, 3): per iteration one line of each of R read streams (src
 * cut in R parts of `wbytes`, so R * wbytes read) and one line of `val` stored to dst
 * (regular stores: the RFO of each written line is a read the program does not count,
 * docs/bandwidth.md §2). wbytes: a multiple of HW_STREAM_LINE. Returns the sum of the words
 * read.
 */
uint64_t hw_stream_mix1(const void *src, void *dst, uint64_t wbytes, uint64_t val);
uint64_t hw_stream_mix2(const void *src, void *dst, uint64_t wbytes, uint64_t val);
uint64_t hw_stream_mix3(const void *src, void *dst, uint64_t wbytes, uint64_t val);

#endif
