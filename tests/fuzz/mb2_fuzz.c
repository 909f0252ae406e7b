/*
 * mb2_fuzz.c: libFuzzer target for the multiboot2 boot-information parser. The input is the
 * boot information; it is parsed from a buffer of exactly its size so any out-of-bounds read
 * is caught by ASan. The parsed strings must lie inside the input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/mb2.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mb2_info info;
	uint8_t *copy = malloc(size ? size : 1);

	memcpy(copy, data, size);
	if (mb2_parse(copy, size, &info, NULL)) {
		if (info.cmdline && (info.cmdline < (char *)copy ||
				     info.cmdline + strlen(info.cmdline) >= (char *)copy + size))
			abort();
		if (info.nmmap > MB2_MAX_MMAP || info.nefi_special > MB2_MAX_EFI_SPECIAL)
			abort();
		for (unsigned i = 0; i < info.nefi_special; i++)
			if (!info.efi_special[i].len ||
			    info.efi_special[i].base + info.efi_special[i].len < info.efi_special[i].base)
				abort();
	}
	free(copy);
	return 0;
}
