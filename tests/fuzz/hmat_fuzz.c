/*
 * hmat_fuzz.c: libFuzzer target for the HMAT (platform/acpi_hmat.c; ACPI 6.5 §5.2.28) behind
 * a fixed SRAT of four domains (0-1 with CPUs, 2-3 memory-only) and a SLIT, read the kernel's
 * way (numa_from_acpi). The input's first byte picks the revision, the rest is the structure
 * list. Every kept latency lies in [1 ns, 4 ms], no cell outside the nodes is written, the
 * counts agree with the cells, the header line and the lookups stay in bounds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "platform/numa.h"
#include "host/numa_image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t d[16] = { 10, 21, 31, 41, 21, 10, 41, 31, 31, 41, 10, 51,
				       41, 31, 51, 10 };
	static struct tbl srat, slit, hmat;
	static struct acpi_info ai;
	static struct numa_info n;
	struct tbl *t[] = { &srat, &slit, &hmat };
	unsigned lat = 0, bw = 0;
	char line[256];
	uint32_t r, w;

	if (!size || size > 1 << 17)
		return 0;
	acpi_set_log(false);
	numa_image_arena_reset();
	memset(&n, 0, sizeof(n));
	memset(&ai, 0, sizeof(ai));
	tbl_srat(&srat, 2);
	for (uint32_t p = 0; p < 4; p++) {
		if (p < 2)
			srat_x2apic(&srat, p, p, 1);
		srat_mem(&srat, (uint64_t)p << 30, 1u << 30, p, 1 | (p == 3 ? 2 : 0));
	}
	tbl_slit(&slit, 4, d, sizeof(d));
	tbl_hmat(&hmat, data[0] % 4);
	tbl_raw(&hmat, data + 1, (uint32_t)size - 1);
	numa_image_walk(t, 3, &ai, &n, numa_image_alloc);
	if (n.hmat_n > 4 || n.hmat_n > n.hmat_cap)
		abort();
	for (unsigned a = 0; a < n.hmat_n; a++)
		for (unsigned b = 0; b < n.hmat_n; b++) {
			const struct numa_hmat_cell *c = &n.hmat[a * n.hmat_n + b];

			if ((c->read_ps && c->read_ps < 1000) || (c->write_ps && c->write_ps < 1000) ||
			    c->read_ps > 4000000000u || c->write_ps > 4000000000u)
				abort();
			lat += c->read_ps || c->write_ps;
			bw += c->read_mbs || c->write_mbs;
		}
	if (lat != n.hmat_lat || bw != n.hmat_bw || n.have_hmat != (lat || bw))
		abort();
	numa_set_instance(&n);
	for (unsigned a = 0; a <= 4; a++)
		for (unsigned b = 0; b <= 4; b++)
			if (numa_hmat_latency(a, b, &r, &w) && (a >= n.hmat_n || b >= n.hmat_n))
				abort();
	numa_set_instance(NULL);
	numa_header_line(&n, line, sizeof(line));
	for (unsigned i = 0; numa_detail_line(&n, i, line, sizeof(line)); i++)
		;
	return 0;
}
