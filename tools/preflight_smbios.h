/* preflight_smbios.h: `pebs-preflight --smbios PATH` (tools/preflight_smbios.c). */
#ifndef TOOLS_PREFLIGHT_SMBIOS_H
#define TOOLS_PREFLIGHT_SMBIOS_H

/* Print the kernel's `# smbios:` lines for a dmidecode --dump-bin file or a directory like
 * /sys/firmware/dmi/tables; 0, or 2 with the reason on stderr. */
int pf_smbios_print(const char *path);

#endif
