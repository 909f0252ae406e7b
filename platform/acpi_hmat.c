/*
 * acpi_hmat.c: Heterogeneous Memory Attribute Table, ACPI 6.5 §5.2.28. After the 36-byte
 * header and 4 reserved bytes, structures of {Type u16, Reserved u16, Length u32}:
 * - type 0, Memory Proximity Domain Attributes (§5.2.28.3, 40 bytes): counted;
 * - type 1, System Locality Latency and Bandwidth Information (§5.2.28.4): Flags (bits 3:0
 *   memory hierarchy, 0 = the memory itself; cache levels are left out), Data Type (0 access,
 *   1 read, 2 write latency; 3 access, 4 read, 5 write bandwidth), the numbers of initiator
 *   and target proximity domains, Entry Base Unit (u64), the two domain lists (u32 each) and
 *   the u16 entries [initiator][target]. An entry of 0 gives nothing, 0xFFFF says
 *   "unreachable"; value = entry x base unit, latency in picoseconds and bandwidth in MB/s
 *   from revision 2 (ACPI 6.3). Revision 1 (ACPI 6.2) is read as Linux reads it
 *   (drivers/acpi/numa/hmat.c hmat_normalize: tenths of a nanosecond);
 * - type 2, Memory Side Cache Information: stepped over.
 * Domains become nodes through the SRAT (acpi_srat.c); a domain it does not list, a length
 * that runs past its structure, a product that overflows 32 bits and a latency outside
 * [1 ns, 4 ms] are counted and left out, never trusted.
 */
#include "platform/numa.h"

#include <string.h>

#define HMAT_BODY        40	/* header 36 + Reserved u32 */
#define HMAT_PROXIMITY   0
#define HMAT_LOCALITY    1
#define HMAT_LOC_FIXED   32	/* the locality structure before its lists */
#define HMAT_HIER_MASK   0x0f
#define HMAT_NO_PATH     0xffffu
#define HMAT_LAT_MIN_PS  1000ull	/* 1 ns: no memory answers faster */
#define HMAT_LAT_MAX_PS  4000000000ull	/* 4 ms: no memory answers slower (and it fits 32 bits) */

enum { ACCESS_LAT, READ_LAT, WRITE_LAT, ACCESS_BW, READ_BW, WRITE_BW };

static int node_of(const struct numa_info *n, uint32_t pxm)
{
	for (unsigned i = 0; i < n->nnodes; i++)
		if (n->node_pxm[i] == pxm)
			return i < n->hmat_n ? (int)i : -1;
	return -1;
}

static void store(struct numa_info *n, unsigned type, int a, int b, uint32_t v)
{
	struct numa_hmat_cell *c = &n->hmat[(unsigned)a * n->hmat_n + (unsigned)b];
	bool lat = type <= WRITE_LAT, had = lat ? c->read_ps || c->write_ps :
		   c->read_mbs || c->write_mbs;

	if (type == ACCESS_LAT || type == READ_LAT)
		c->read_ps = v;
	if (type == ACCESS_LAT || type == WRITE_LAT)
		c->write_ps = v;
	if (type == ACCESS_BW || type == READ_BW)
		c->read_mbs = v;
	if (type == ACCESS_BW || type == WRITE_BW)
		c->write_mbs = v;
	if (!had)
		*(lat ? &n->hmat_lat : &n->hmat_bw) += 1;
}

/* One entry: the value in ps or MB/s, 0 when it gives nothing or is absurd (counted). */
static uint32_t entry_value(struct numa_info *n, uint16_t e, uint64_t unit, unsigned type,
			    uint8_t rev)
{
	uint64_t v;

	if (!e || e == HMAT_NO_PATH)
		return 0;
	if (unit > UINT32_MAX / e) {
		n->hmat_absurd++;
		return 0;
	}
	v = (uint64_t)e * unit;
	if (type <= WRITE_LAT) {
		if (rev == 1)
			v *= 100;	/* tenths of a ns -> ps */
		if (v < HMAT_LAT_MIN_PS || v > HMAT_LAT_MAX_PS || v > UINT32_MAX) {
			n->hmat_absurd++;
			return 0;
		}
	}
	return (uint32_t)v;
}

static void locality(struct numa_info *n, const uint8_t *s, uint32_t slen, uint8_t rev)
{
	uint8_t type = s[9];
	uint32_t ni, nt;
	uint64_t unit, need;
	const uint8_t *ini, *tgt, *ent;

	if (slen < HMAT_LOC_FIXED) {
		n->hmat_bad++;
		return;
	}
	ni = acpi_rd32(s + 12);
	nt = acpi_rd32(s + 16);
	unit = acpi_rd64(s + 24);
	need = HMAT_LOC_FIXED + 4ull * ni + 4ull * nt + 2ull * ni * nt;	/* < 2^66: no wrap */
	if (ni > slen || nt > slen || need > slen) {
		n->hmat_bad++;
		return;
	}
	if ((s[8] & HMAT_HIER_MASK) || type > WRITE_BW)
		return;	/* a memory-side cache level, or a reserved data type */
	ini = s + HMAT_LOC_FIXED;
	tgt = ini + 4ull * ni;
	ent = tgt + 4ull * nt;
	for (uint32_t i = 0; i < ni; i++) {
		int a = node_of(n, acpi_rd32(ini + 4ull * i));

		if (a < 0) {
			n->hmat_unknown++;
			continue;
		}
		for (uint32_t j = 0; j < nt; j++) {
			int b = node_of(n, acpi_rd32(tgt + 4ull * j));
			uint32_t v;

			if (b < 0) {
				n->hmat_unknown += i == 0;	/* once per target */
				continue;
			}
			v = entry_value(n, acpi_rd16(ent + 2ull * ((uint64_t)i * nt + j)), unit,
					type, rev);
			if (v)
				store(n, type, a, b, v);
		}
	}
}

int acpi_parse_hmat(const uint8_t *t, uint32_t len, struct numa_info *n)
{
	uint32_t off = HMAT_BODY;
	uint8_t rev;

	n->have_hmat = false;
	n->hmat_n = n->hmat_lat = n->hmat_bw = 0;
	n->hmat_bad = n->hmat_unknown = n->hmat_absurd = n->hmat_attached = 0;
	if (len < HMAT_BODY) {
		acpi_log("# acpi: HMAT length %u < %u, ignored\n", len, HMAT_BODY);
		return -1;
	}
	rev = t[8];
	if (rev != 1 && rev != 2) {
		acpi_log("# acpi: HMAT revision %u unknown (ACPI 6.5: 2), ignored\n", rev);
		n->hmat_bad++;
		return -1;
	}
	n->hmat_n = n->nnodes < n->hmat_cap ? n->nnodes : n->hmat_cap;
	if (!n->hmat)
		n->hmat_n = 0;
	if (n->hmat_n)
		memset(n->hmat, 0, (size_t)n->hmat_n * n->hmat_n * sizeof(*n->hmat));
	while (len - off >= 8) {
		uint16_t type = acpi_rd16(t + off);
		uint32_t slen = acpi_rd32(t + off + 4);

		if (slen < 8 || slen > len - off) {
			acpi_log("# acpi: HMAT structure type %u at offset %u has length %u "
				 "(table %u): rest ignored\n", type, off, slen, len);
			n->hmat_bad++;
			break;
		}
		if (type == HMAT_PROXIMITY)
			n->hmat_attached++;
		else if (type == HMAT_LOCALITY)
			locality(n, t + off, slen, rev);
		off += slen;
	}
	n->have_hmat = n->hmat_lat || n->hmat_bw;
	if (n->hmat_bad || n->hmat_unknown || n->hmat_absurd)
		acpi_log("# acpi: HMAT: %u bad structures, %u domains not in the SRAT, %u absurd "
			 "entries (latency outside 1 ns..4 ms or overflowing) left out\n",
			 n->hmat_bad, n->hmat_unknown, n->hmat_absurd);
	return 0;
}
