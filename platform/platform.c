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
#include "platform/fbcon.h"
#include "kernel/fmt.h"
#include "kernel/ktap.h"
#include "kernel/mm.h"
#include "platform/power.h"
#include "platform/uart.h"

#include <string.h>

#define LOW_4G     0x100000000ull
#define BDA_COM    0x400	/* BIOS Data Area: COM1..COM4 I/O base words */

struct acpi_info acpi;
struct numa_info numa;
static struct console_choice choice;
static struct uart uarts[UART_MAX_PORTS];
static unsigned nuarts;
static struct fbcon fbc;
static bool fb_on;
static struct console_backend fb_be;
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

static void fb_write(struct console_backend *be, const char *s, size_t n)
{
	(void)be;
	fbcon_write(&fbc, s, n);
}

static void end_hook(bool failed)
{
	const struct ktap_totals *t = ktap_get_cases();	/* the numbers of `# Totals:` */
	char line[80];
	const char *why = NULL;

	if (fb_on) {
		fmt_snprintf(line, sizeof(line), "%s  pass:%u fail:%u skip:%u",
			     failed ? "FAIL" : "PASS", t->pass, t->fail, t->skip);
		fbcon_banner(&fbc, line, failed ? 0xff : 0x20, failed ? 0x30 : 0xe0, 0x30);
	}
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

static void start_fb(const struct mb2_info *bi)
{
	const struct mb2_framebuffer *f = &bi->fb;
	struct fb_surface s;
	uint64_t bytes = (uint64_t)f->pitch * f->height;
	void *base;

	if (!f->present)
		return;
	if (f->type != 1) {
		fb_note = f->type == 2 ? "EGA text mode (not drawn)" : "indexed colour (not drawn)";
		return;
	}
	/* write-combining wherever it is: uncached (an MTRR UC range, or any mapping above
	 * 4 GiB) costs a bus transaction per byte written */
	base = mm_map_wc(f->addr, bytes);
	if (!base) {
		fb_note = "could not be mapped";
		return;
	}
	s = (struct fb_surface){
		.base = base, .width = f->width, .height = f->height, .pitch = f->pitch,
		.bpp = f->bpp, .red_pos = f->red_pos, .red_size = f->red_size,
		.green_pos = f->green_pos, .green_size = f->green_size,
		.blue_pos = f->blue_pos, .blue_size = f->blue_size,
	};
	if (fbcon_init(&fbc, &s, 0, &fb_note) != 0)
		return;
	early_on = false;
	fbcon_write(&fbc, early, early_len);
	fb_be = (struct console_backend){ .name = "fb", .write = fb_write };
	console_register(&fb_be);
	fb_on = true;
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
	if (choice.fb)
		start_fb(bi);
	else
		fb_note = "off (console=)";
	early_on = false;
	run_set_end_hook(end_hook);
}

/* The detail behind the verbose option: `verbose`, or `log=full` (docs/output.md). */
static bool detail_wanted(void)
{
	const char *v = cmdline_get(&kcmdline, "log");

	return cmdline_has(&kcmdline, "verbose") || (v && !strcmp(v, "full"));
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
	if (fb_on)
		ktap_diag("framebuffer: %ux%u %u bpp pitch %u, text %ux%u scale %u",
			  fbc.fb.width, fbc.fb.height, fbc.fb.bpp, fbc.fb.pitch, fbc.cols,
			  fbc.rows, fbc.scale);
	if (!bi->rsdp_new && !bi->rsdp_old)
		ktap_diag("acpi: no RSDP tag from the boot loader");
	read_acpi(bi, true);	/* again, now printing what was wrong with any table */
	acpi_print_summary(&acpi);
	numa_header_line(&numa, nbuf, sizeof(nbuf));
	ktap_diag("%s", nbuf);
	for (unsigned i = 0; detail_wanted() && numa_detail_line(&numa, i, nbuf, sizeof(nbuf)); i++)
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
