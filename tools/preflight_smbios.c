/*
 * preflight_smbios.c: `pebs-preflight --smbios PATH`: the kernel's `# smbios:` header lines
 * for a machine's SMBIOS tables read under Linux, before a boot. PATH is a file written by
 * `dmidecode --dump-bin` (the entry point at offset 0, the structure table where the entry
 * point's address says, which dmidecode sets to 0x20) or a directory laid out like Linux's
 * /sys/firmware/dmi/tables (smbios_entry_point and DMI, readable by root only; Linux
 * drivers/firmware/dmi_scan.c, dmi_init()). The same parser as the kernel's
 * (platform/smbios.c, DMTF DSP0134 5.2 entry points, 6.1 structures).
 */
#include "tools/preflight_smbios.h"
#include "platform/smbios.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The whole of a file (at most SMBIOS_MAX_TABLE + 64 KiB), or NULL with errno set. */
static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = SMBIOS_MAX_TABLE + 65536;
	uint8_t *b;

	if (!f)
		return NULL;
	b = malloc(cap);
	if (!b) {
		fclose(f);
		errno = ENOMEM;
		return NULL;
	}
	*len = fread(b, 1, cap, f);
	fclose(f);
	return b;
}

static int fail(const char *path, const char *what)
{
	fprintf(stderr, "pebs-preflight: --smbios %s: %s\n", path, what);
	return 2;
}

int pf_smbios_print(const char *path)
{
	struct smbios_info s = { 0 };
	struct stat st;
	char ep_path[4096], dmi_path[4096], line[256];
	uint8_t *ep, *tab;
	size_t elen, tlen;
	const uint8_t *t;
	const char *why;
	bool dir = !stat(path, &st) && S_ISDIR(st.st_mode);

	snprintf(ep_path, sizeof(ep_path), dir ? "%s/smbios_entry_point" : "%s", path);
	if (!(ep = slurp(ep_path, &elen)))
		return fail(ep_path, strerror(errno));
	if (!smbios_entry_parse(ep, elen, &s.ep, &why)) {
		free(ep);
		return fail(ep_path, why);
	}
	if (dir) {
		snprintf(dmi_path, sizeof(dmi_path), "%s/DMI", path);
		if (!(tab = slurp(dmi_path, &tlen))) {
			free(ep);
			return fail(dmi_path, strerror(errno));
		}
		t = tab;
	} else {
		tab = NULL;
		if (s.ep.table >= elen) {
			free(ep);
			return fail(path, "the entry point's table address is past the end of the "
				    "file (not a dmidecode --dump-bin image?)");
		}
		t = ep + s.ep.table;
		tlen = elen - (size_t)s.ep.table;
	}
	if (!s.ep.len || s.ep.len > SMBIOS_MAX_TABLE) {
		free(ep);
		free(tab);
		return fail(path, "the entry point names an empty or oversized structure table");
	}
	if (s.ep.len < tlen)
		tlen = s.ep.len;
	smbios_walk(t, tlen, &s.ep, &s);
	s.present = true;
	for (unsigned i = 0; smbios_header_line(&s, i, line, sizeof(line)); i++)
		printf("# %s\n", line);
	free(ep);
	free(tab);
	return 0;
}
