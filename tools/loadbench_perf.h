/*
 * loadbench_perf.h: Linux perf events for tools/loadbench --pebs: which PMU and load-latency
 * event this CPU has (sysfs: /sys/bus/event_source/devices/<pmu>/{type,cpus,events/mem-loads,
 * format/<term>}), whether this process may sample itself (/proc/sys/kernel/perf_event_paranoid,
 * capabilities), and the event opened and read through its mmap ring (perf_event_open(2)).
 * Each refusal has its exact reason and an exit status of its own (docs/output.md §6):
 *   LBP_NO_PMU 3    no core PMU / IBS in sysfs (a VM without a virtual PMU), or no perf events
 *   LBP_NO_PERM 4   perf_event_paranoid (or the kernel) forbids this process to sample
 *   LBP_NO_EVENT 5  a PMU, but no load-latency event (no events/mem-loads, ldlat format, or
 *                   the kernel refused the event)
 * The sysfs root and the paranoid file can be moved (tests use fake trees): environment
 * LOADBENCH_SYSFS (default /sys/bus/event_source/devices), LOADBENCH_PARANOID (default
 * /proc/sys/kernel/perf_event_paranoid).
 */
#ifndef TOOLS_LOADBENCH_PERF_H
#define TOOLS_LOADBENCH_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tools/perf_ring.h"

enum lbp_status { LBP_OK = 0, LBP_NO_PMU = 3, LBP_NO_PERM = 4, LBP_NO_EVENT = 5 };

struct lb_pmu {
	char name[32];		/* cpu | cpu_core | cpu_atom | ibs_op */
	uint32_t type;		/* perf_event_attr.type */
	uint64_t config[3];	/* config, config1, config2 of the load-latency event */
	bool ibs;		/* AMD IBS op sampling */
	bool aux;		/* events/mem-loads-aux present: it must lead the group */
	uint64_t aux_config[3];
	char event[160];	/* the event as read, with ldlat set */
	char why[1024];		/* the reason when not LBP_OK */
};

/* Sysfs root and paranoid file (environment overrides). */
const char *lbp_sysfs_root(void);
const char *lbp_paranoid_path(void);

/* "0-3,8,10-11" contains cpu? (sysfs cpulist format) */
bool lbp_cpulist_has(const char *list, int cpu);

/* Event terms ("event=0xcd,umask=0x1,ldlat=3") -> config words through the PMU's format files
 * ("config:0-7", "config1:0-15"); ldlat, when the event has it, is set to `ldlat`. */
int lbp_event_config(const char *pmu_dir, const char *terms, unsigned ldlat, uint64_t cfg[3],
		     char *why, size_t n);

/* The PMU and event for CPU `cpu`. */
enum lbp_status lbp_find(const char *root, int cpu, unsigned ldlat, struct lb_pmu *p);

/* The paranoid decision: privileged (root, CAP_PERFMON, CAP_SYS_ADMIN) always may; otherwise
 * levels <= 2 allow a process to sample its own user space (perf_event_open(2)), higher ones
 * (Debian/Ubuntu's 3) do not. paranoid < -1000: the file could not be read. */
enum lbp_status lbp_perm_decide(int paranoid, bool privileged, const char *path, char *why,
				size_t n);
/* Read the file and this process's privilege, then decide. */
enum lbp_status lbp_perm_check(const char *path, char *why, size_t n);

/* An open sampling event with its ring. */
struct lb_perf {
	int fd, aux_fd;
	void *map;
	size_t map_bytes;
	uint8_t *data;
	uint64_t data_size;
	uint64_t sample_type;
	int precise;
	struct perf_ring ring;
};

/* Open the load-latency event of p on this thread (user space only), sampling every `period`
 * loads, ring of 2^order pages, disabled until lbp_enable. LBP_OK, or a status with why. */
enum lbp_status lbp_open(struct lb_perf *e, const struct lb_pmu *p, uint64_t period,
			 unsigned order, perf_sample_fn fn, void *ctx, char *why, size_t n);
void lbp_enable(struct lb_perf *e, bool on);
/* Walk what the kernel wrote since the last drain; advances data_tail. */
void lbp_drain(struct lb_perf *e);
void lbp_close(struct lb_perf *e);

/* The generic part of lbp_open for any attr (the software-event test uses it): type,
 * config, period, sample_type; a ring of 2^order pages. Returns 0 or the errno. */
int lbp_open_raw(struct lb_perf *e, uint32_t type, uint64_t config, uint64_t period,
		 uint64_t sample_type, unsigned order, perf_sample_fn fn, void *ctx);

#endif
