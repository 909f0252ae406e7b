/*
 * boot.c: what the boot path leaves for every layer (kernel/boot.h, kernel/cmdline.h): the
 * parsed multiboot2 information, its physical address and the parsed command line. The run
 * (init/main.c) fills them in once, before anything else reads them; they live here, in the
 * core, so the layers below the run (kernel/exit.c among them) never reach up to it.
 */
#include "kernel/boot.h"
#include "kernel/cmdline.h"

struct cmdline kcmdline;
struct mb2_info boot_info;
uint64_t boot_info_addr;
char boot_run_identity[112];
