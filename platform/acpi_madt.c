/*
 * acpi_madt.c: Multiple APIC Description Table, ACPI 6.5 §5.2.12. Local APIC address,
 * flags, and the processor list from Processor Local APIC (type 0, §5.2.12.2) and
 * Processor Local x2APIC (type 9, §5.2.12.12) entries; the Local APIC Address Override
 * (type 5, §5.2.12.8) replaces the 32-bit address. An entry with length 0 or running past
 * the table ends the walk with a message (no infinite loop, no read past the end).
 * Flags (§5.2.12.2 Table 5.47): Enabled, and Online Capable, which is reserved before MADT
 * revision 5 (ACPI 6.3) and ignored there (as Linux arch/x86/kernel/acpi/boot.c
 * acpi_is_processor_usable() does). An ID of all ones (0xFF, 0xFFFFFFFF) addresses every
 * processor, never one: such an entry is counted as invalid and not recorded.
 * There is no compile-time processor limit: entries go into the caller's cpu[] (cap entries;
 * what does not fit is counted, so a first parse with cap 0 sizes the second). An APIC ID is
 * recorded once (firmware may list a processor as type 0 and type 9; a repeat is counted),
 * checked in a bit set of IDs below ACPI_APIC_ID_LIMIT (Linux's MAX_LOCAL_APIC; higher IDs
 * are counted and left out, as Linux's topo_register_apic() does), so a table of any length
 * is read in linear time and names at most ACPI_APIC_ID_LIMIT processors.
 */
#include "platform/acpi.h"
#include "kernel/console.h"

#include <string.h>

#define MADT_LAPIC          0	/* len 8: uid u8, apic id u8, flags u32 */
#define MADT_IOAPIC         1	/* len 12 */
#define MADT_LAPIC_OVERRIDE 5	/* len 12: reserved u16, address u64 */
#define MADT_X2APIC         9	/* len 16: reserved u16, x2apic id u32, flags u32, uid u32 */

#define MADT_ENABLED        (1u << 0)
#define MADT_ONLINE_CAPABLE (1u << 1)

/* Minimum entry length per type we read (the spec's fixed length). */
static uint8_t min_len(uint8_t type)
{
	switch (type) {
	case MADT_LAPIC: return 8;
	case MADT_IOAPIC: return 12;
	case MADT_LAPIC_OVERRIDE: return 12;
	case MADT_X2APIC: return 16;
	default: return 2;
	}
}

static void add_cpu(struct acpi_madt *m, uint32_t apic_id, uint32_t uid, uint32_t flags,
		    bool x2)
{
	bool en = flags & MADT_ENABLED, oc = m->revision >= 5 && (flags & MADT_ONLINE_CAPABLE);

	if (apic_id == (x2 ? 0xffffffffu : 0xffu)) {
		m->ncpus_invalid++;
		return;
	}
	if (!en && !oc) {
		m->ncpus_disabled++;
		return;
	}
	if (apic_id >= ACPI_APIC_ID_LIMIT) {
		m->ncpus_high++;
		return;
	}
	if (acpi_id_seen(m->seen, apic_id)) {
		m->ncpus_dup++;
		return;
	}
	if (m->ncpus >= m->cap || !m->cpu) {
		m->ncpus_dropped++;
		return;
	}
	m->cpu[m->ncpus++] = (struct acpi_cpu){
		.apic_id = apic_id, .uid = uid, .x2apic = x2, .enabled = en,
		.online_capable = oc,
	};
}

int acpi_parse_madt(const uint8_t *t, uint32_t len, struct acpi_madt *m)
{
	uint32_t off = 44;
	const uint8_t *e;
	struct acpi_cpu *keep = m->cpu;
	unsigned cap = m->cap;

	memset(m, 0, sizeof(*m));
	m->cpu = keep;
	m->cap = cap;
	if (len < 44) {
		acpi_log("# acpi: MADT length %u < 44, ignored\n", len);
		return -1;
	}
	m->revision = t[8];
	m->lapic_addr = acpi_rd32(t + 36);
	m->pcat_compat = acpi_rd32(t + 40) & 1;
	while (acpi_subtable_next(t, len, &off, "MADT", &e) > 0) {
		uint8_t type = e[0], elen = e[1];

		if (elen < min_len(type)) {
			acpi_log("# acpi: MADT entry type %u too short (%u), skipped\n", type, elen);
			continue;
		}
		switch (type) {
		case MADT_LAPIC:
			add_cpu(m, e[3], e[2], acpi_rd32(e + 4), false);
			break;
		case MADT_X2APIC:
			add_cpu(m, acpi_rd32(e + 4), acpi_rd32(e + 12), acpi_rd32(e + 8), true);
			break;
		case MADT_IOAPIC:
			m->nioapic++;
			break;
		case MADT_LAPIC_OVERRIDE:
			m->lapic_addr = acpi_rd64(e + 4);
			m->lapic_override = true;
			break;
		default:
			break;
		}
	}
	if (m->ncpus_invalid)
		acpi_log("# acpi: MADT: %u processor entries with the broadcast APIC ID ignored\n",
			 m->ncpus_invalid);
	if (m->ncpus_dropped)
		acpi_log("# acpi: MADT lists %u usable processors, room for %u: %u not recorded\n",
			 m->ncpus + m->ncpus_dropped, m->cap, m->ncpus_dropped);
	if (m->ncpus_high)
		acpi_log("# acpi: MADT: %u processors with APIC IDs >= %u left out (the IDs this "
			 "kernel records, as Linux MAX_LOCAL_APIC)\n", m->ncpus_high, ACPI_APIC_ID_LIMIT);
	if (m->ncpus_dup)
		acpi_log("# acpi: MADT: %u processor entries repeat an APIC ID, the first kept\n",
			 m->ncpus_dup);
	return 0;
}

bool acpi_id_seen(uint64_t *set, uint32_t id)
{
	uint64_t bit = 1ull << (id % 64);
	bool was;

	if (id >= ACPI_APIC_ID_LIMIT)
		return false;
	was = set[id / 64] & bit;
	set[id / 64] |= bit;
	return was;
}
