/*
 * numa.h: NUMA topology from the ACPI System Resource Affinity Table (SRAT, ACPI 6.5
 * §5.2.16: Processor Local APIC/SAPIC Affinity, Memory Affinity and Processor Local x2APIC
 * Affinity structures), the System Locality Distance Information Table (SLIT, §5.2.17) and
 * the Heterogeneous Memory Attribute Table (HMAT, §5.2.28: initiator x target latency and
 * bandwidth). Pure C: the parsers read only the validated table bytes they are given; the
 * lookups answer "which node is this APIC id / this physical address on" for the per-CPU
 * data and the load kernels, which nodes are memory-only and what the HMAT declares. Proximity domains are numbered by firmware (any 32-bit value); nodes
 * are 0..nnodes-1 in ascending proximity-domain order. Without an SRAT there is one node.
 */
#ifndef PLATFORM_NUMA_H
#define PLATFORM_NUMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "platform/acpi.h"

/* No compile-time size for nodes, memory ranges, SLIT localities or the HMAT matrix: a
 * parse without storage counts what the tables hold (need_*), numa_from_acpi allocates that
 * much through the caller's allocator (the kernel: from the memory map, as smp/ sizes the
 * per-CPU state) and parses again. The caps bound what a hostile table can make it take; what
 * they leave out is counted and said in one line (numa_from_acpi). */
#define NUMA_NODE_LIMIT  1024	/* Linux's largest MAX_NUMNODES (arch/x86/Kconfig NODES_SHIFT 10) */
#define NUMA_MEM_LIMIT   8192	/* memory affinity ranges (32 bytes each) */
#define NUMA_LOCAL_LIMIT 1024	/* SLIT localities: the 1024 x 1024 top-left (1 MiB) */
#define NUMA_HMAT_LIMIT  256	/* HMAT initiator x target nodes kept (256 x 256 x 16 bytes) */

/* SLIT entry values, ACPI 6.5 §5.2.17: 10 = local, 0..9 reserved, 255 = unreachable.
 * Without a SLIT, local 10 and remote 20 (Linux include/linux/numa.h LOCAL_DISTANCE,
 * REMOTE_DISTANCE). */
#define NUMA_LOCAL_DISTANCE  10
#define NUMA_REMOTE_DISTANCE 20
#define NUMA_UNREACHABLE     255

struct numa_mem {
	uint64_t base, end;	/* [base, end) */
	uint32_t pxm;		/* proximity domain */
	uint16_t node;
	bool hotplug, nonvolatile;
	uint8_t fw;		/* what the boot memory map says of it: NUMA_FW_* bits */
};

/* The boot loader's memory map over a memory range (numa_note_mmap): E820 / multiboot2 types
 * (ACPI 6.5 §15.1 Table 15.1: 7 AddressRangePersistentMemory; Linux
 * arch/x86/include/asm/e820/types.h E820_TYPE_PRAM 12, E820_TYPE_SOFT_RESERVED 0xefffffff,
 * the EFI_MEMORY_SP "specific purpose" memory Linux's efi_memmap reports that way). */
#define NUMA_FW_USABLE     (1u << 0)	/* type 1 */
#define NUMA_FW_PERSISTENT (1u << 1)	/* type 7 or 12 */
#define NUMA_FW_SPECIFIC   (1u << 2)	/* soft reserved: EFI specific purpose */
#define NUMA_FW_RESERVED   (1u << 3)	/* any other type */
#define NUMA_FW_SEEN       (1u << 4)	/* some map entry covers part of it */

/* One initiator x target cell of the HMAT (ACPI 6.5 §5.2.28.4): latencies in picoseconds,
 * bandwidths in MB/s, 0 where the table gives none (entry 0, or 0xFFFF: unreachable). */
struct numa_hmat_cell {
	uint32_t read_ps, write_ps, read_mbs, write_mbs;
};

struct numa_cpu {
	uint32_t apic_id;	/* xAPIC id (type 0) or x2APIC id (type 2) */
	uint32_t pxm;
	uint16_t node;
	bool x2apic;
	bool not_in_madt;	/* no usable MADT processor has this ID: not a node's CPU */
};

struct numa_info {
	bool have_srat, have_slit, have_hmat;
	unsigned nnodes;
	unsigned nmem, ncpu;
	/* the caller's storage, kept by every parse (numa_from_acpi allocates it) */
	uint32_t *node_pxm;	/* node_cap entries, ascending */
	struct numa_mem *mem;	/* mem_cap entries */
	uint8_t *slit;		/* slit_cap x slit_cap */
	struct numa_hmat_cell *hmat;	/* hmat_cap x hmat_cap, [initiator node][target node] */
	unsigned node_cap, mem_cap, slit_cap, hmat_cap;
	/* what the last SRAT parse met: the storage numa_from_acpi sizes (an upper bound for
	 * nodes: a domain found in no stored entry counts once per entry) */
	unsigned need_nodes, need_mem;
	/* the CPU affinities have no compile-time size, as the MADT's processors
	 * (platform/acpi.h): the caller's cpu[] of cpu_cap entries, kept by the parsers and
	 * numa_from_acpi; what does not fit is counted in cpu_dropped */
	struct numa_cpu *cpu;
	unsigned cpu_cap, cpu_dropped;
	uint64_t cpu_seen[ACPI_APIC_ID_LIMIT / 64];	/* APIC IDs met */
	/* what the SRAT walk left out, for the log */
	unsigned not_in_madt;	/* CPU affinities for APIC IDs the MADT lacks */
	unsigned disabled;	/* entries with Enabled = 0 */
	unsigned bad;		/* zero length, address overflow, short entries */
	unsigned conflicts;	/* overlapping ranges / APIC ids claimed by two domains */
	unsigned dropped;	/* did not fit (ranges, CPUs or domains; APIC IDs from
				 * ACPI_APIC_ID_LIMIT up) */
	/* SLIT, indexed by proximity domain (locality i = domain i) */
	uint32_t slit_n;	/* localities kept (<= slit_cap) */
	uint64_t slit_total;	/* localities in the table */
	/* HMAT (platform/acpi_hmat.c): cells of hmat_n x hmat_n nodes (hmat_n = nnodes, or
	 * hmat_cap when smaller); what was wrong is counted, never trusted */
	unsigned hmat_n;
	unsigned hmat_lat, hmat_bw;	/* cells with a latency / a bandwidth */
	unsigned hmat_bad;	/* short or overrunning structures, unknown revision */
	unsigned hmat_unknown;	/* domains the SRAT does not list (or past hmat_cap) */
	unsigned hmat_absurd;	/* latency 0 < x < 1 ns or > 4 ms; entry x base overflows */
	unsigned hmat_order;	/* node pairs whose HMAT latency order contradicts the SLIT */
	unsigned hmat_attached;	/* memory proximity domain attributes structures */
	/* SNC (numa_note_packages): packages, and nodes with CPUs per package */
	unsigned packages, pkg_nodes_min, pkg_nodes_max;
};

/* Parsers over a validated table (t, len including the 36-byte header). 0, or -1 (reported
 * through acpi_log) when the table as a whole is unusable. The SRAT parser resets `n`'s
 * SRAT part; the SLIT parser its SLIT part. */
int acpi_parse_srat(const uint8_t *t, uint32_t len, struct numa_info *n);
int acpi_parse_slit(const uint8_t *t, uint32_t len, struct numa_info *n);

int acpi_parse_hmat(const uint8_t *t, uint32_t len, struct numa_info *n);

/* Zeroed memory of `bytes`, or NULL (the kernel: kalloc from the memory map). */
typedef void *(*numa_alloc_fn)(void *ctx, size_t bytes);

/* Reset (keeping the storage and the packages), then the SRAT ("SRAT"), SLIT ("SLIT") and
 * HMAT ("HMAT") of an ACPI walk when present. With `alloc`, storage too small for what a
 * table holds is allocated (up to the NUMA_*_LIMIT caps) and the table parsed again; without,
 * what does not fit is counted. What the caps left out is said in one acpi_log line. */
void numa_from_acpi(struct numa_info *n, const struct acpi_info *ai, acpi_map_fn map,
		    void *ctx, numa_alloc_fn alloc, void *actx);

/* One entry of the boot loader's memory map (type: E820 / multiboot2): marks the memory
 * ranges it overlaps (struct numa_mem.fw). */
void numa_note_mmap(struct numa_info *n, uint64_t base, uint64_t len, uint32_t type);

/* SNC (Sub-NUMA Clustering: several nodes per package): `get` gives CPU i's node and
 * package (SDM Vol. 3A 9.9 topology) for i < ncpu, a node >= NUMA_NODE_LIMIT for a CPU not
 * to count (offline); sets packages and pkg_nodes_min/max
 * (kept by numa_from_acpi until the next call). */
void numa_note_packages(struct numa_info *n, unsigned ncpu,
			void (*get)(void *ctx, unsigned i, unsigned *node, unsigned *package),
			void *ctx);

/* Node of an APIC id / a physical address: -1 when the SRAT does not list it; 0 for any
 * value when there is no SRAT (one node). */
int numa_node_of_apic(const struct numa_info *n, uint32_t apic_id);
int numa_node_of_phys(const struct numa_info *n, uint64_t pa);
/* Node of every byte of [pa, pa + len): -1 when some byte is on no node or on another node
 * than the first (or len == 0, or the range wraps); 0 without an SRAT. */
int numa_node_of_range(const struct numa_info *n, uint64_t pa, uint64_t len);
/* Nodes the machine has: nnodes, or 1 without an SRAT. */
unsigned numa_nodes(const struct numa_info *n);
/* SLIT distance between two nodes (10 for a == b, 20 between nodes without a usable SLIT
 * entry); 0 for a node out of range. */
unsigned numa_distance(const struct numa_info *n, unsigned a, unsigned b);
/* The i-th memory range of `node` (table order). false past the last. */
bool numa_node_range(const struct numa_info *n, unsigned node, unsigned i, uint64_t *base,
		     uint64_t *end);
/* CPUs the SRAT lists on `node` (and the MADT too, when there is one), and bytes of
 * (non-hotplug) memory. */
unsigned numa_node_cpus(const struct numa_info *n, unsigned node);
uint64_t numa_node_bytes(const struct numa_info *n, unsigned node);

/* A node with memory and no CPU in the SRAT (CXL Type-3 expanders, HBM, PMEM). */
bool numa_node_memory_only(unsigned node);
bool numa_node_memory_only_in(const struct numa_info *n, unsigned node);
/* What the firmware says of a memory-only node ("hot-pluggable, CXL?", "non-volatile",
 * "EFI specific purpose", "not in the memory map"), into buf; "" for other nodes. */
void numa_node_why(const struct numa_info *n, unsigned node, char *buf, size_t len);

/* The HMAT's latencies from initiator node to target node (picoseconds; 0 where the table
 * gives only the other one): false without an HMAT cell for the pair. The kernel's
 * instance (platform_numa) for the load kernels. */
bool numa_hmat_latency(unsigned initiator_node, unsigned target_node, uint32_t *read_ps,
		       uint32_t *write_ps);
const struct numa_hmat_cell *numa_hmat_cell(const struct numa_info *n, unsigned initiator,
					    unsigned target);

/* The kernel's NUMA state the two lookups above read (platform.c sets it). */
void numa_set_instance(const struct numa_info *n);

/* The header line's text after "# " (docs/output.md "numa"), e.g. "numa: 4 nodes (2 per
 * package: SNC2), distances 10..21 (SLIT); 1 memory-only (node 3: hot-pluggable, CXL?);
 * HMAT 4x4 latency". */
void numa_header_line(const struct numa_info *n, char *buf, size_t len);
/* Detail behind the verbose option: line i (0, 1, ...) per node and per memory range;
 * false past the last. */
bool numa_detail_line(const struct numa_info *n, unsigned i, char *buf, size_t len);

#endif
