/*
 * boot.c: test `boot`: the multiboot2 information was parsed, the memory map is sane (usable
 * RAM exists, entries are well-formed, the kernel image lies in usable RAM), and the
 * allocator never hands out the kernel, the boot information or the first MiB. With
 * `verbose` every memory map entry is printed.
 */
#include "ktests/tests.h"
#include "kernel/boot.h"
#include "kernel/cmdline.h"
#include "kernel/mm.h"

extern char _kernel_start[], _kernel_end[];

static bool inside_usable(uint64_t a, uint64_t b)
{
	for (unsigned i = 0; i < boot_info.nmmap; i++) {
		const struct mb2_mmap_entry *e = &boot_info.mmap[i];

		if (e->type == MB2_MEM_AVAILABLE && a >= e->base && b <= e->base + e->len)
			return true;
	}
	return false;
}

static bool overlaps(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1)
{
	return a0 < b1 && b0 < a1;
}

enum kt_result test_boot(struct ktest *t)
{
	uint64_t k0 = (uint64_t)(uintptr_t)_kernel_start, k1 = (uint64_t)(uintptr_t)_kernel_end;
	uint64_t usable = 0, info0 = boot_info_addr, info1 = boot_info_addr + boot_info.total_size;
	bool clean = true, verbose = log_full();

	kt_detail(t, "boot info: %u bytes, %u tags, %u errors; loader \"%s\"",
		  boot_info.total_size, boot_info.ntags, boot_info.errors,
		  boot_info.loader ? boot_info.loader : "?");
	kt_check(t, boot_info.errors == 0, "boot_info_well_formed");
	kt_check(t, boot_info.cmdline != NULL, "cmdline_tag_present");
	for (unsigned i = 0; i < boot_info.nmmap; i++) {
		const struct mb2_mmap_entry *e = &boot_info.mmap[i];

		if (e->type == MB2_MEM_AVAILABLE)
			usable += e->len;
		if (e->len == 0 || e->base + e->len < e->base)
			clean = false;
		if (verbose)
			kt_info(t, "map 0x%llx-0x%llx %s", (unsigned long long)e->base,
				(unsigned long long)(e->base + e->len), mb2_mem_type_name(e->type));
	}
	kt_detail(t, "memory map: %u entries%s, %llu MiB usable (want at least 8)",
		  boot_info.nmmap, boot_info.mmap_truncated ? " (truncated)" : "",
		  (unsigned long long)(usable >> 20));
	kt_check(t, boot_info.nmmap > 0 && usable >= (8ull << 20), "memory_map_has_usable_ram");
	kt_check(t, clean, "memory_map_entries_valid");
	kt_check(t, inside_usable(k0, k1), "kernel_image_in_usable_ram");

	/* the allocator must never return the kernel, the boot info or low memory */
	{
		bool ok = true;

		for (int i = 0; i < 64; i++) {
			uint64_t pa = pmm_alloc(PAGE_4K, PAGE_4K);

			if (!pa)
				break;
			if (pa < (1ull << 20) || overlaps(pa, pa + PAGE_4K, k0, k1) ||
			    overlaps(pa, pa + PAGE_4K, info0, info1) ||
			    !inside_usable(pa, pa + PAGE_4K))
				ok = false;
		}
		kt_check(t, ok, "allocator_avoids_kernel_bootinfo_reserved");
	}
	return kt_verdict(t);
}
