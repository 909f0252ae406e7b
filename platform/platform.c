/*
 * platform.c: boot-time glue for real machines (see platform.h). Order of serial discovery
 * per issue 8 and docs/usb.md "What you will see": console= if given; else the BIOS Data
 * Area COM words (legacy BIOS boots only: on UEFI the BDA is not maintained), the ACPI SPCR
 * port, then COM1. Every candidate that passes the probe is used, so a server with a
 * physical COM1 and serial-over-LAN on COM2 shows the log on both.
 */
#include "platform/platform.h"
#include "platform/smbios.h"
#include "kernel/console.h"
#include "kernel/exit.h"
#include "kernel/fmt.h"
#include "kernel/ktap.h"
#include "kernel/mm.h"
#include "platform/power.h"
#include "platform/screen.h"
#include "platform/uart.h"

#include <string.h>

#define LOW_4G     0x100000000ull
#define BDA_COM    0x400	/* BIOS Data Area: COM1..COM4 I/O base words */

struct acpi_info acpi;
struct numa_info numa;
static struct console_choice choice;
static struct uart uarts[UART_MAX_PORTS];
static unsigned nuarts;
static bool fb_on;
static const char *fb_note = "none";
static struct smbios_info smbios;
static enum end_action end_action;

/* Output from console setup until the framebuffer starts (the KTAP header), replayed onto
 * the screen so that it shows the run from its first line. */
static char early[4096];
static size_t early_len;
static bool early_on;
static struct console_backend early_be;

static void early_write(struct console_backend *be, const char *s, size_t n)
{
	(void)be;
	for (size_t i = 0; early_on && i < n && early_len < sizeof(early); i++)
		early[early_len++] = s[i];
}

/* Early page tables identity-map [0, 4 GiB) (page 0 only until mm_init): tables above
 * 4 GiB are out of reach here. */
static const void *map_low(void *ctx, uint64_t phys, uint64_t len)
{
	(void)ctx;
	if (phys < 0x1000 || phys >= LOW_4G || len > LOW_4G - phys)
		return NULL;
	return (const void *)(uintptr_t)phys;
}

static void *numa_alloc(void *ctx, size_t bytes)
{
	(void)ctx;
	return kalloc(bytes, 4096);
}

/* ACPI and the NUMA tables; with `alloc` (after mm_init) the NUMA storage is sized from the
 * tables (platform/numa.h) and the boot memory map marks the SRAT's memory ranges. */
static void read_acpi(const struct mb2_info *bi, bool alloc)
{
	const void *r = bi->rsdp_new ? bi->rsdp_new : bi->rsdp_old;
	size_t len = bi->rsdp_new ? bi->rsdp_new_len : bi->rsdp_old_len;

	if (r)
		acpi_init(&acpi, r, len, map_low, NULL);
	else
		memset(&acpi, 0, sizeof(acpi));
	numa_from_acpi(&numa, &acpi, map_low, NULL, alloc ? numa_alloc : NULL, NULL);
	for (unsigned i = 0; i < bi->nmmap; i++)
		numa_note_mmap(&numa, bi->mmap[i].base, bi->mmap[i].len, bi->mmap[i].type);
	for (unsigned i = 0; i < bi->nefi_special; i++)	/* as E820 types 7 and 0xefffffff */
		numa_note_mmap(&numa, bi->efi_special[i].base, bi->efi_special[i].len,
			       bi->efi_special[i].persistent ? 7 : 0xefffffffu);
	numa_set_instance(&numa);
}

bool platform_console_setup(const struct mb2_info *bi, const struct cmdline *cl,
			    char *warn, size_t warn_len)
{
	const char *val = cmdline_get(cl, "console"), *err = NULL;
	struct uart_cfg cand[UART_MAX_PORTS];
	unsigned n;

	warn[0] = '\0';
	early_be = (struct console_backend){ .name = "early", .write = early_write };
	early_on = true;
	console_register(&early_be);
	/* ACPI is parsed quietly now and again, with its messages, by platform_print_header
	 * (the KTAP header is not out yet). */
	acpi_set_log(false);
	read_acpi(bi, false);
	acpi_set_log(true);
	if (!console_opt_parse(val, &choice, &err))
		fmt_snprintf(warn, warn_len, "console=%s: %s", val, err);
	if (!end_action_parse(cmdline_get(cl, "end"), &end_action) && !warn[0])
		fmt_snprintf(warn, warn_len, "end=%s not understood: halting at the end",
			     cmdline_get(cl, "end"));
	if (!choice.serial)
		return true;
	if (choice.named) {
		cand[0] = choice.port;
		n = 1;
	} else {
		uint16_t bda[4];
		bool legacy = !bi->efi64 && !bi->efi_mmap;

		if (legacy)
			memcpy(bda, (const void *)(uintptr_t)BDA_COM, sizeof(bda));
		n = uart_candidates(legacy ? bda : NULL, acpi.have_spcr ? &acpi.spcr : NULL,
				    cand, UART_MAX_PORTS);
	}
	for (unsigned i = 0; i < n; i++) {
		if (cand[i].space == UART_MMIO && cand[i].base >= LOW_4G)
			continue;	/* not mapped this early */
		if (uart_init(&uarts[nuarts], &cand[i]))
			console_register(&uarts[nuarts++].be);
	}
	if (choice.named && !nuarts && !warn[0])
		fmt_snprintf(warn, warn_len, "console=%s: no UART answers there", val);
	return nuarts > 0;
}

static void end_hook(bool failed)
{
	const char *why = NULL;

	screen_verdict(failed);	/* once: the result page may have drawn it (platform/screen.h) */
	switch (end_action) {
	case END_REBOOT:
		kprintf("# end=reboot: resetting\n");
		power_reboot(&acpi);
		kprintf("# end=reboot: no reset method worked\n");
		break;
	case END_POWEROFF:
		kprintf("# end=poweroff: entering S5\n");
		power_off(&acpi, &why);
		kprintf("# end=poweroff: %s\n", why);
		break;
	case END_HALT:
		break;
	}
}

/* The processor lists of the MADT and the SRAT, the SRAT's nodes and ranges, the SLIT and
 * the HMAT, sized by the first (counting) parse and allocated from the memory map: no
 * compile-time CPU or node limit (platform/acpi.h, platform/numa.h). */
static void cpu_tables(const struct mb2_info *bi)
{
	unsigned nm = acpi.madt.ncpus + acpi.madt.ncpus_dropped;

	if (nm && !acpi.madt.cpu) {
		acpi.madt.cpu = kalloc((uint64_t)nm * sizeof(struct acpi_cpu), 4096);
		acpi.madt.cap = acpi.madt.cpu ? nm : 0;
	}
	acpi_set_log(false);	/* platform_print_header says what was wrong */
	read_acpi(bi, true);	/* the NUMA storage: numa_from_acpi */
	acpi_set_log(true);
}

void platform_late_setup(const struct mb2_info *bi)
{
	cpu_tables(bi);
	/* mm_init rebuilt the page tables: re-map MMIO UARTs uncached */
	for (unsigned i = 0; i < nuarts; i++)
		if (uarts[i].cfg.space == UART_MMIO && !mm_map_mmio(uarts[i].cfg.base, 4096))
			uarts[i].present = false;
	if (choice.fb) {
		early_on = false;	/* the screen replays what it holds */
		fb_on = screen_start(bi, early, early_len, &fb_note);
	} else
		fb_note = "off (console=)";
	early_on = false;
	run_set_end_hook(end_hook);
}

void platform_print_header(const struct mb2_info *bi)
{
	char buf[160], nbuf[480];	/* nbuf: the numa and smbios lines */
	size_t o = 0;

	for (unsigned i = 0; i < nuarts; i++)
		o += (size_t)fmt_snprintf(buf + o, sizeof(buf) - o, "%s%s 0x%llx%s (%s)",
					  i ? ", " : "", uarts[i].cfg.space == UART_MMIO ? "mmio" : "io",
					  (unsigned long long)uarts[i].cfg.base,
					  uarts[i].cfg.reg_width == 4 ? "/32" : "",
					  uarts[i].cfg.source);
	if (o >= sizeof(buf))
		o = sizeof(buf) - 1;
	buf[o] = '\0';
	ktap_diag("console: serial %s; framebuffer %s", nuarts ? buf : "none",
		  fb_on ? "on" : fb_note);
	if (screen_describe(buf, sizeof(buf)))
		ktap_diag("%s", buf);
	if (!bi->rsdp_new && !bi->rsdp_old)
		ktap_diag("acpi: no RSDP tag from the boot loader");
	read_acpi(bi, true);	/* again, now printing what was wrong with any table */
	acpi_print_summary(&acpi, log_full());
	numa_header_line(&numa, nbuf, sizeof(nbuf));
	ktap_diag("%s", nbuf);
	for (unsigned i = 0; log_full() && numa_detail_line(&numa, i, nbuf, sizeof(nbuf)); i++)
		ktap_diag("%s", nbuf);
	/* who the machine is (platform/smbios.h); tables above 4 GiB are not reached here */
	smbios_read(&smbios, bi->efi64 ? bi->efi64_systab : 0, map_low, NULL);
	for (unsigned i = 0; smbios_header_line(&smbios, i, nbuf, sizeof(nbuf)); i++)
		ktap_diag("%s", nbuf);
}

const struct smbios_info *platform_smbios(void)
{
	return &smbios;
}
