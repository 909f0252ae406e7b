/*
 * smbios.c: SMBIOS entry points and the structure-table walk (smbios.h; DMTF DSP0134 3.7.0:
 * 5.2.1 the 32-bit "_SM_"/"_DMI_" entry point, 5.2.2 the 64-bit "_SM3_" one, 6.1.2 the
 * structure header and its string set, 6.1.3 strings; offsets of types 0, 1, 2, 4 and 17 from
 * 7.1, 7.2, 7.3, 7.5 and 7.18). Pure: bytes in, fields out, every offset checked against the
 * structure's formatted length and every string index against its string set.
 */
#include "platform/smbios.h"
#include "kernel/fmt.h"

#include <string.h>

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static uint8_t sum(const uint8_t *p, size_t n)
{
	uint8_t s = 0;

	while (n--)
		s = (uint8_t)(s + *p++);
	return s;
}

bool smbios_entry_parse(const uint8_t *p, size_t avail, struct smbios_entry *e,
			const char **why)
{
	if (avail >= 24 && !memcmp(p, "_SM3_", 5)) {		/* 5.2.2 */
		if (p[6] < 24 || p[6] > avail || sum(p, p[6]))
			return *why = "SMBIOS 3 entry point: bad length or checksum", false;
		*e = (struct smbios_entry){ .major = p[7], .minor = p[8], .len = rd32(p + 0x0c),
					    .table = rd64(p + 0x10) };
		return true;
	}
	if (avail >= 0x1f && !memcmp(p, "_SM_", 4)) {		/* 5.2.1 */
		/* length 0x1f; 0x1e in some 2.1 firmware (the spec's own erratum) */
		if ((p[5] != 0x1f && p[5] != 0x1e) || sum(p, p[5]))
			return *why = "SMBIOS entry point: bad length or checksum", false;
		if (memcmp(p + 0x10, "_DMI_", 5) || sum(p + 0x10, 15))
			return *why = "SMBIOS entry point: bad _DMI_ part or its checksum", false;
		*e = (struct smbios_entry){ .major = p[6], .minor = p[7], .len = rd16(p + 0x16),
					    .table = rd32(p + 0x18), .count = rd16(p + 0x1c) };
		return true;
	}
	*why = "no SMBIOS anchor";
	return false;
}

/* String `idx` (1-based, 6.1.3) of the structure at s: the set starts at s + s[1] and ends
 * at `end`; 0 or past the set: "". Copied printable (other bytes as '?'), cut to n - 1. */
static void str(const uint8_t *s, const uint8_t *end, unsigned off, char *out, size_t n)
{
	const uint8_t *p = s + s[1];
	unsigned idx = off < s[1] ? s[off] : 0;
	size_t k = 0;

	out[0] = '\0';
	if (!idx)
		return;
	for (unsigned i = 1; i < idx && p < end; i++)	/* *end is a NUL: always found */
		p = (const uint8_t *)memchr(p, 0, (size_t)(end - p) + 1) + 1;
	while (p < end && *p && k + 1 < n) {
		out[k++] = *p >= 0x20 && *p < 0x7f && *p != '"' ? (char)*p : '?';
		p++;
	}
	out[k] = '\0';
	while (k && out[k - 1] == ' ')	/* firmware pads with spaces */
		out[--k] = '\0';
}

static unsigned u8_at(const uint8_t *s, unsigned off) { return off < s[1] ? s[off] : 0; }
static unsigned u16_at(const uint8_t *s, unsigned off)
{
	return off + 1 < s[1] ? rd16(s + off) : 0;
}

/* strstr, which the kernel's freestanding string.h does not have */
static const char *find(const char *h, const char *n)
{
	size_t k = strlen(n);

	for (; *h; h++)
		if (!strncmp(h, n, k))
			return h;
	return NULL;
}

/* The channel letter a locator names ("ChannelA-DIMM0", "P0 CHANNEL A", "DIMM_B2",
 * "CPU0_DIMM_C1"), or 0. Vendors' own spellings, not a standard: best effort. */
static char channel_of(const char *loc)
{
	char u[SMBIOS_STR];
	const char *p;
	size_t i;

	for (i = 0; loc[i] && i + 1 < sizeof(u); i++)
		u[i] = loc[i] >= 'a' && loc[i] <= 'z' ? (char)(loc[i] - 32) : loc[i];
	u[i] = '\0';
	if ((p = find(u, "CHANNEL"))) {
		p += 7;
		while (*p == ' ' || *p == '_' || *p == '-')
			p++;
		return *p >= 'A' && *p <= 'Z' ? *p : 0;
	}
	if ((p = find(u, "DIMM"))) {
		p += 4;
		while (*p == ' ' || *p == '_' || *p == '-')
			p++;
		return *p >= 'A' && *p <= 'Z' && p[1] >= '0' && p[1] <= '9' ? *p : 0;
	}
	return 0;
}

static void memory_device(const uint8_t *s, const uint8_t *end, struct smbios_info *m)
{
	unsigned size = u16_at(s, 0x0c), speed = u16_at(s, 0x15), conf = u16_at(s, 0x20);
	uint64_t mib;
	char loc[SMBIOS_STR], bank[SMBIOS_STR];
	char c;

	m->slots++;
	if (!size || size == 0xffff)		/* 7.18: no module / size unknown */
		return;
	if (size == 0x7fff)			/* the extended size, in MiB (bits 30:0) */
		mib = s[1] >= 0x20 ? (rd32(s + 0x1c) & 0x7fffffff) : 0;
	else
		mib = size & 0x8000 ? (size & 0x7fff) / 1024 : size;
	if (m->populated++ == 0) {
		m->mem_type = (uint8_t)u8_at(s, 0x12);
		m->speed = speed;
		m->conf_speed = conf;
		str(s, end, 0x17, m->dimm_vendor, sizeof(m->dimm_vendor));
		str(s, end, 0x1a, m->dimm_part, sizeof(m->dimm_part));
	} else {
		m->mixed_type |= m->mem_type != u8_at(s, 0x12);
		m->mixed_speed |= m->speed != speed || m->conf_speed != conf;
		m->mixed_size |= m->mem_mib / (m->populated - 1) != mib;
	}
	m->mem_mib += mib;
	str(s, end, 0x10, loc, sizeof(loc));
	str(s, end, 0x11, bank, sizeof(bank));
	c = channel_of(loc);
	if (!c)
		c = channel_of(bank);
	if (c && !strchr(m->channels, c) && strlen(m->channels) + 1 < sizeof(m->channels))
		m->channels[strlen(m->channels)] = c;
}

static void processor(const uint8_t *s, const uint8_t *end, struct smbios_info *m)
{
	unsigned cores = u8_at(s, 0x23), threads = u8_at(s, 0x25);

	m->sockets++;
	if (!(u8_at(s, 0x18) & 0x40))		/* status bit 6: socket populated */
		return;
	if (cores == 0xff)			/* 3.0: the 16-bit counts */
		cores = u16_at(s, 0x2a);
	if (threads == 0xff)
		threads = u16_at(s, 0x2e);
	if (!m->sockets_populated++)
		str(s, end, 0x10, m->cpu_version, sizeof(m->cpu_version));
	m->cores += cores;
	m->threads += threads;
}

void smbios_walk(const uint8_t *t, size_t len, const struct smbios_entry *e,
		 struct smbios_info *m)
{
	const uint8_t *p = t, *lim = t + len;

	while (p + 4 <= lim && (!e->count || m->structures < e->count)) {
		const uint8_t *s = p, *end;

		if (s[1] < 4 || s + s[1] + 2 > lim) {
			m->bad++;
			fmt_snprintf(m->why, sizeof(m->why), "structure %u: length %u runs past "
				     "the table", m->structures, s[1]);
			return;
		}
		/* the string set ends with two NULs (an empty set is the two NULs alone) */
		for (end = s + s[1]; end + 1 < lim && (end[0] || end[1]); end++)
			;
		if (end + 1 >= lim) {
			m->bad++;
			fmt_snprintf(m->why, sizeof(m->why), "structure %u (type %u): strings not "
				     "terminated", m->structures, s[0]);
			return;
		}
		m->structures++;
		switch (s[0]) {
		case 0:
			str(s, end, 4, m->bios_vendor, sizeof(m->bios_vendor));
			str(s, end, 5, m->bios_version, sizeof(m->bios_version));
			str(s, end, 8, m->bios_date, sizeof(m->bios_date));
			break;
		case 1:
			str(s, end, 4, m->sys_vendor, sizeof(m->sys_vendor));
			str(s, end, 5, m->sys_product, sizeof(m->sys_product));
			str(s, end, 6, m->sys_version, sizeof(m->sys_version));
			break;
		case 2:
			if (!m->board_vendor[0] && !m->board_product[0]) {	/* the first board */
				str(s, end, 4, m->board_vendor, sizeof(m->board_vendor));
				str(s, end, 5, m->board_product, sizeof(m->board_product));
				str(s, end, 6, m->board_version, sizeof(m->board_version));
			}
			break;
		case 4:
			processor(s, end, m);
			break;
		case 17:
			memory_device(s, end, m);
			break;
		case 127:				/* end-of-table (7.46) */
			return;
		}
		p = end + 2;
	}
}
