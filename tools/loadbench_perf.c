/*
 * loadbench_perf.c: PMU discovery, permission and the sampling event of tools/loadbench
 * --pebs (see loadbench_perf.h). Facts: perf_event_open(2) (attr fields, errors, "MMAP
 * layout", perf_event_paranoid levels), Documentation/ABI/testing/sysfs-bus-event_source-
 * devices-{events,format} (event terms, "config:0-7" format ranges), Linux
 * arch/x86/events/intel/core.c (mem-loads needs the mem-loads-aux group leader where sysfs
 * lists it: -ENODATA otherwise), tools/perf/util/mem-events.c (`<pmu>/mem-loads,ldlat=N/P`,
 * AMD's `ibs_op//`). Hosted code.
 */
#define _GNU_SOURCE
#include "tools/loadbench_perf.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

const char *lbp_sysfs_root(void)
{
	const char *e = getenv("LOADBENCH_SYSFS");

	return e && *e ? e : "/sys/bus/event_source/devices";
}

const char *lbp_paranoid_path(void)
{
	const char *e = getenv("LOADBENCH_PARANOID");

	return e && *e ? e : "/proc/sys/kernel/perf_event_paranoid";
}

/* The file's first line without its newline; false if it cannot be read. */
static bool read_line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)n, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\r\n")] = 0;
	return ok;
}

static bool read_at(const char *dir, const char *rel, char *buf, size_t n)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	return read_line(path, buf, n);
}

bool lbp_cpulist_has(const char *s, int cpu)
{
	while (*s) {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;

		if (end == s)
			return false;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (cpu >= lo && cpu <= hi)
			return true;
		if (*end != ',')
			return false;
		s = end + 1;
	}
	return false;
}

/* "config1:0-15" / "config:0-7,32-35" / "config:21": deposit v's bits into cfg. */
static int apply_format(const char *fmt, uint64_t v, uint64_t cfg[3])
{
	const char *p = fmt;
	unsigned word = 0, used = 0;

	if (strncmp(p, "config", 6))
		return -1;
	p += 6;
	if (*p >= '1' && *p <= '2')
		word = (unsigned)(*p++ - '0');
	if (*p++ != ':')
		return -1;
	while (*p) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p)
			return -1;
		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		if (hi < lo || hi > 63)
			return -1;
		for (unsigned long b = lo; b <= hi; b++, used++)
			if (used < 64 && (v >> used) & 1)
				cfg[word] |= 1ull << b;
		if (*end != ',')
			break;
		p = end + 1;
	}
	return used && used < 64 && (v >> used) ? -1 : 0;	/* the value must fit */
}

int lbp_event_config(const char *dir, const char *terms, unsigned ldlat, uint64_t cfg[3],
		     char *why, size_t n)
{
	char copy[256], fmt[96], rel[128];
	bool have_ldlat = false;

	cfg[0] = cfg[1] = cfg[2] = 0;
	snprintf(copy, sizeof(copy), "%s", terms);
	for (char *save, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');
		uint64_t v = 1;

		if (eq) {
			*eq = 0;
			v = strtoull(eq + 1, NULL, 0);
		}
		if (!strcmp(t, "ldlat"))
			v = ldlat, have_ldlat = true;
		snprintf(rel, sizeof(rel), "format/%s", t);
		if (!read_at(dir, rel, fmt, sizeof(fmt)) || apply_format(fmt, v, cfg)) {
			snprintf(why, n, "%s/%s missing or not a config range (term '%s')", dir, rel, t);
			return -1;
		}
	}
	if (!have_ldlat) {
		if (!read_at(dir, "format/ldlat", fmt, sizeof(fmt)) ||
		    apply_format(fmt, ldlat, cfg)) {
			snprintf(why, n, "%s has no format/ldlat: the load-latency threshold cannot "
				 "be set", dir);
			return -1;
		}
	}
	return 0;
}

static bool has_pmu(const char *root, const char *name, uint32_t *type)
{
	char dir[512], buf[32];

	snprintf(dir, sizeof(dir), "%s/%s", root, name);
	if (!read_at(dir, "type", buf, sizeof(buf)))
		return false;
	*type = (uint32_t)strtoul(buf, NULL, 0);
	return true;
}

static enum lbp_status intel(const char *root, unsigned ldlat, struct lb_pmu *p)
{
	char dir[512], terms[128];
	size_t o;

	snprintf(dir, sizeof(dir), "%s/%s", root, p->name);
	if (!read_at(dir, "events/mem-loads", terms, sizeof(terms))) {
		snprintf(p->why, sizeof(p->why), "PMU %s has no load-latency event (%s/events/"
			 "mem-loads absent: no PEBS load latency on this CPU, or a virtual PMU "
			 "without it)", p->name, dir);
		return LBP_NO_EVENT;
	}
	if (lbp_event_config(dir, terms, ldlat, p->config, p->why, sizeof(p->why)))
		return LBP_NO_EVENT;
	o = (size_t)snprintf(p->event, sizeof(p->event), "%s/mem-loads,ldlat=%u/ (%s)", p->name,
			     ldlat, terms);
	if (read_at(dir, "events/mem-loads-aux", terms, sizeof(terms))) {
		if (lbp_event_config(dir, terms, 0, p->aux_config, p->why, sizeof(p->why)) &&
		    strstr(p->why, "format/ldlat") == NULL)
			return LBP_NO_EVENT;
		p->aux = true;
		snprintf(p->event + o, sizeof(p->event) - o, ", led by mem-loads-aux");
	}
	return LBP_OK;
}

enum lbp_status lbp_find(const char *root, int cpu, unsigned ldlat, struct lb_pmu *p)
{
	static const char *const hybrid[] = { "cpu_core", "cpu_atom" };
	bool any_hybrid = false;

	memset(p, 0, sizeof(*p));
	for (int i = 0; i < 2; i++) {
		char dir[512], cpus[256];

		if (!has_pmu(root, hybrid[i], &p->type))
			continue;
		any_hybrid = true;
		snprintf(dir, sizeof(dir), "%s/%s", root, hybrid[i]);
		if (read_at(dir, "cpus", cpus, sizeof(cpus)) && lbp_cpulist_has(cpus, cpu)) {
			snprintf(p->name, sizeof(p->name), "%s", hybrid[i]);
			return intel(root, ldlat, p);
		}
	}
	if (any_hybrid) {
		snprintf(p->why, sizeof(p->why), "hybrid CPU: neither %s/cpu_core/cpus nor "
			 "cpu_atom/cpus lists CPU %d", root, cpu);
		return LBP_NO_PMU;
	}
	if (has_pmu(root, "cpu", &p->type)) {
		char dir[512], buf[8];

		snprintf(p->name, sizeof(p->name), "cpu");
		snprintf(dir, sizeof(dir), "%s/cpu", root);
		if (read_at(dir, "events/mem-loads", buf, sizeof(buf)) || !has_pmu(root, "ibs_op",
										  &p->type)) {
			has_pmu(root, "cpu", &p->type);
			return intel(root, ldlat, p);
		}
	}
	if (has_pmu(root, "ibs_op", &p->type)) {
		snprintf(p->name, sizeof(p->name), "ibs_op");
		p->ibs = true;
		snprintf(p->event, sizeof(p->event), "ibs_op// (AMD IBS op sampling, data source "
			 "from Zen 4 and Linux 6.1)");
		return LBP_OK;
	}
	snprintf(p->why, sizeof(p->why), "no PMU: %s has no cpu, cpu_core/cpu_atom or ibs_op "
		 "(a virtual machine without a virtual PMU, or a kernel without perf events for "
		 "this CPU)", root);
	return LBP_NO_PMU;
}

enum lbp_status lbp_perm_decide(int paranoid, bool privileged, const char *path, char *why,
				size_t n)
{
	if (paranoid < -1000) {
		snprintf(why, n, "no perf events: %s cannot be read (kernel without "
			 "CONFIG_PERF_EVENTS?)", path);
		return LBP_NO_PMU;
	}
	if (privileged || paranoid <= 2)
		return LBP_OK;
	snprintf(why, n, "no permission: %s is %d, which forbids perf_event_open to unprivileged "
		 "processes (levels <= 2 let a process sample its own user space); run as root, "
		 "with CAP_PERFMON, or after `sysctl kernel.perf_event_paranoid=2`", path, paranoid);
	return LBP_NO_PERM;
}

static bool privileged(void)
{
	FILE *f;
	char line[256];
	bool cap = false;

	if (geteuid() == 0)
		return true;
	f = fopen("/proc/self/status", "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long eff;

		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			cap = (eff >> 38 & 1) || (eff >> 21 & 1);	/* CAP_PERFMON, SYS_ADMIN */
	}
	fclose(f);
	return cap;
}

enum lbp_status lbp_perm_check(const char *path, char *why, size_t n)
{
	char buf[32];
	int v = -2000;

	if (read_line(path, buf, sizeof(buf)))
		v = atoi(buf);
	return lbp_perm_decide(v, privileged(), path, why, n);
}

static int sys_open(struct perf_event_attr *a, int group)
{
	return (int)syscall(__NR_perf_event_open, a, 0, -1, group, 0);
}

static int map_ring(struct lb_perf *e, unsigned order)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *mp;

	e->map_bytes = pg * (1 + ((size_t)1 << order));
	e->map = mmap(NULL, e->map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, e->fd, 0);
	if (e->map == MAP_FAILED) {
		e->map = NULL;
		return errno;
	}
	mp = e->map;
	e->data = (uint8_t *)e->map + (mp->data_offset ? mp->data_offset : pg);
	e->data_size = mp->data_size ? mp->data_size : pg << order;
	return 0;
}

int lbp_open_raw(struct lb_perf *e, uint32_t type, uint64_t config, uint64_t period,
		 uint64_t sample_type, unsigned order, perf_sample_fn fn, void *ctx)
{
	struct perf_event_attr a;

	memset(e, 0, sizeof(*e));
	e->fd = e->aux_fd = -1;
	if (perf_ring_init(&e->ring, sample_type, fn, ctx))
		return EINVAL;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.sample_period = period;
	a.sample_type = sample_type;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	e->fd = sys_open(&a, -1);
	if (e->fd < 0)
		return errno;
	e->sample_type = sample_type;
	return map_ring(e, order);
}

static enum lbp_status status_of(int err, const struct lb_pmu *p, char *why, size_t n)
{
	if (err == EACCES || err == EPERM) {
		snprintf(why, n, "no permission: perf_event_open(%s) failed: %s (see %s)", p->name,
			 strerror(err), lbp_paranoid_path());
		return LBP_NO_PERM;
	}
	snprintf(why, n, "the kernel refused the load-latency event %s: %s%s", p->event,
		 strerror(err), err == ENODATA ? " (mem-loads-aux leader required)" : "");
	return err == ENODEV ? LBP_NO_PMU : LBP_NO_EVENT;
}

enum lbp_status lbp_open(struct lb_perf *e, const struct lb_pmu *p, uint64_t period,
			 unsigned order, perf_sample_fn fn, void *ctx, char *why, size_t n)
{
	static const uint64_t weight[2] = { PR_SAMPLE_WEIGHT_STRUCT, PR_SAMPLE_WEIGHT };
	int err = 0;

	memset(e, 0, sizeof(*e));
	e->fd = e->aux_fd = -1;
	for (int w = 0; w < 2 && e->fd < 0; w++) {
		uint64_t st = PR_SAMPLE_IP | PR_SAMPLE_TID | PR_SAMPLE_ADDR | weight[w] |
			      PR_SAMPLE_DATA_SRC;

		for (int prec = p->ibs ? 0 : 3; prec >= (p->ibs ? 0 : 1) && e->fd < 0; prec--) {
			struct perf_event_attr a, l;

			memset(&a, 0, sizeof(a));
			a.size = sizeof(a);
			a.type = p->type;
			a.config = p->config[0];
			a.config1 = p->config[1];
			a.config2 = p->config[2];
			a.sample_period = p->ibs ? (period + 15) & ~15ull : period;
			a.sample_type = st;
			a.precise_ip = (unsigned)prec;
			a.exclude_kernel = 1;
			a.exclude_hv = 1;
			a.disabled = !p->aux;
			if (p->aux) {
				l = a;
				l.config = p->aux_config[0];
				l.config1 = p->aux_config[1];
				l.sample_period = 0;
				l.sample_type = 0;
				l.disabled = 1;
				e->aux_fd = sys_open(&l, -1);
				if (e->aux_fd < 0) {
					err = errno;
					continue;
				}
			}
			e->fd = sys_open(&a, p->aux ? e->aux_fd : -1);
			err = e->fd < 0 ? errno : 0;
			if (e->fd < 0 && e->aux_fd >= 0) {
				close(e->aux_fd);
				e->aux_fd = -1;
			}
			if (e->fd >= 0) {
				e->precise = prec;
				e->sample_type = st;
			}
			if (err == EACCES || err == EPERM)
				return status_of(err, p, why, n);
		}
	}
	if (e->fd < 0)
		return status_of(err, p, why, n);
	perf_ring_init(&e->ring, e->sample_type, fn, ctx);
	err = map_ring(e, order);
	if (err) {
		snprintf(why, n, "mmap of the perf ring failed: %s", strerror(err));
		lbp_close(e);
		return LBP_NO_EVENT;
	}
	return LBP_OK;
}

void lbp_enable(struct lb_perf *e, bool on)
{
	int fd = e->aux_fd >= 0 ? e->aux_fd : e->fd;

	ioctl(fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE,
	      e->aux_fd >= 0 ? PERF_IOC_FLAG_GROUP : 0);
}

void lbp_drain(struct lb_perf *e)
{
	struct perf_event_mmap_page *mp = e->map;
	uint64_t head, tail;

	if (!mp)
		return;
	head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	tail = mp->data_tail;
	tail = perf_ring_walk(&e->ring, e->data, e->data_size, tail, head);
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
}

void lbp_close(struct lb_perf *e)
{
	if (e->map)
		munmap(e->map, e->map_bytes);
	if (e->fd >= 0)
		close(e->fd);
	if (e->aux_fd >= 0)
		close(e->aux_fd);
	e->map = NULL;
	e->fd = e->aux_fd = -1;
}
