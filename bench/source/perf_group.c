/*
 * bench/source/perf_group.c - the Top-down event group through perf_event_open(2)
 * (bench/source/perf_group.h: the kernel ops), the choice of implementation
 * ($BARETMA_PERF) and the pure parts: the group's read layout, the
 * fraction of two reads, the seqlocked RDPMC of the user pages.
 *
 * The group (linux arch/x86/events/intel/core.c
 * intel_pmu_hw_config; tools/perf/Documentation/topdown.txt): `slots`
 * leads, pinned (the metrics need FC3, so the group must not be
 * multiplexed) and disabled; the `topdown-*` members follow in
 * IA32_PERF_METRICS byte order, enabled so the group starts with its
 * leader; every event has the same exclusions and is read through the
 * leader with PERF_FORMAT_GROUP.  The PMU, its type and the configs come
 * from sysfs (bench/source/perf_pmu.c).  The system calls go through a seam
 * (perf_group_sys_set) so tests can stand in for the kernel.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "bench/source/perf_group.h"
#include "bench/source/perf_pmu.h"
#include "cpu/text.h"
#include "msr/access/msr.h"
#include "msr/open/msr_open.h"
#include "msr/regs/intel_regs.h"
#include "msr/regs/rdpmc.h"

/* The read layout every event of the group is opened with. */
#define PERF_GROUP_READ_FORMAT \
	(PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

/* The members as perf names them, in IA32_PERF_METRICS byte order
 * (linux perf_event.h INTEL_PMC_IDX_TD_*; arch/x86/events/intel/core.c td_attrs). */
static const char *const td_names[PERF_TD_NODES] = {
	"topdown-retiring", "topdown-bad-spec", "topdown-fe-bound", "topdown-be-bound",
	"topdown-heavy-ops", "topdown-br-mispredict", "topdown-fetch-lat", "topdown-mem-bound",
};

const char *perf_td_event_name(unsigned i)
{
	return i < PERF_TD_NODES ? td_names[i] : NULL;
}

double perf_group_fraction(const struct perf_group_values *a, const struct perf_group_values *b,
			   unsigned i)
{
	uint64_t slots;

	if (!a || !b || i >= PERF_TD_NODES)
		return 0.0;
	slots = b->slots - a->slots;
	return slots ? (double)(b->td[i] - a->td[i]) / (double)slots : 0.0;
}

uint64_t perf_raw_config(bool amd, uint16_t event, uint8_t umask, uint8_t cmask, bool inv,
			 bool edge, bool any)
{
	uint64_t c = (uint64_t)(event & 0xff) | (uint64_t)umask << 8 | (uint64_t)edge << 18 |
		     (uint64_t)inv << 23 | (uint64_t)cmask << 24;

	if (amd)
		return c | (uint64_t)(event >> 8 & 0xf) << 32;
	return c | (uint64_t)any << 21;
}

const struct perf_group_ops *perf_group_env(const char **arg)
{
	const char *v = getenv("BARETMA_PERF");
	const char *m = msr_env_spec();

	if (arg)
		*arg = NULL;
	/* unset beside a simulated MSR device: the same simulated machine, so
	 * that a dry run's perf side is not this machine's kernel */
	if (!v && m && !strncmp(m, "sim:", strlen("sim:")) && m[strlen("sim:")]) {
		if (arg)
			*arg = m + strlen("sim:");
		return &perf_group_sim;
	}
	if (!v || !*v || !strcmp(v, "kernel"))
		return &perf_group_kernel;
	if (!strncmp(v, "sim:", strlen("sim:")) && v[strlen("sim:")]) {
		if (arg)
			*arg = v + strlen("sim:");
		return &perf_group_sim;
	}
	errno = EINVAL;
	return NULL;
}

/* perf_group_parse_read for a group of at most @max members. */
static int parse_read(const void *buf, size_t len, unsigned nr_members, unsigned max,
		      struct perf_group_values *v)
{
	/* { nr, time_enabled, time_running, value[nr] } */
	uint64_t w[3 + PERF_RAW_MAX];
	size_t want = (3 + 1 + (size_t)nr_members) * sizeof(uint64_t);

	if (!buf || !v || nr_members > max)
		return -EINVAL;
	if (len != want)
		return -EIO;
	memcpy(w, buf, want);
	if (w[0] != 1 + nr_members)
		return -EIO;
	memset(v, 0, sizeof(*v));
	v->time_enabled = w[1];
	v->time_running = w[2];
	v->slots = w[3];
	for (unsigned i = 0; i < nr_members; i++)
		v->td[i] = w[4 + i];
	return 0;
}

int perf_group_parse_read(const void *buf, size_t len, unsigned nr_members,
			  struct perf_group_values *v)
{
	return parse_read(buf, len, nr_members, PERF_TD_NODES, v);
}

/* ------------------------------------------------------ RDPMC, seqlocked */

/* The compiler may not move the page's loads across this (the kernel's
 * barrier() in the perf_event_mmap_page.lock comment): the page is
 * written by this CPU only, so no fence instruction is needed. */
static inline void page_barrier(void)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/* One page's counter: its index must name @ecx (index = RDPMC ECX + 1,
 * arch/x86/events/core.c x86_pmu_event_idx), RDPMC must be allowed. */
static int rdpmc_page(const volatile struct perf_event_mmap_page *pc, uint32_t ecx,
		      perf_rdpmc_fn rdpmc, uint64_t *raw)
{
	uint32_t idx = pc->index;

	if (!pc->cap_user_rdpmc || idx == 0 || idx - 1 != ecx)
		return -EOPNOTSUPP;
	*raw = rdpmc(ecx);
	return 0;
}

int perf_group_rdpmc_pages(const struct perf_event_mmap_page *const *pages,
			   const uint32_t *ecx, unsigned n, perf_rdpmc_fn rdpmc, uint64_t *raw)
{
	uint32_t seq[2];

	if (!pages || !ecx || !rdpmc || !raw || n < 1 || n > 2)
		return -EINVAL;
	for (int tries = 0; tries < PERF_RDPMC_TRIES; tries++) {
		bool settled = true;

		for (unsigned i = 0; i < n; i++)
			seq[i] = ((const volatile struct perf_event_mmap_page *)pages[i])->lock;
		page_barrier();
		for (unsigned i = 0; i < n; i++) {
			int rc = rdpmc_page(pages[i], ecx[i], rdpmc, &raw[i]);

			if (rc)
				return rc;
		}
		page_barrier();
		for (unsigned i = 0; i < n; i++)
			settled &= ((const volatile struct perf_event_mmap_page *)pages[i])->lock ==
				   seq[i];
		if (settled)
			return 0;
	}
	return -EAGAIN;
}

/* ------------------------------------------------------------- the seam */

/* The real calls; perf_event_open always asks for a close-on-exec fd. */
static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			       unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd,
			    flags | PERF_FLAG_FD_CLOEXEC);
}

static int sys_ioctl(int fd, unsigned long request, unsigned long arg)
{
	return ioctl(fd, request, arg);
}

static uint64_t sys_rdpmc(uint32_t ecx)
{
	return rdpmc_fenced(ecx);
}

#define PERF_GROUP_SYS_REAL { sys_perf_event_open, sys_ioctl, read, mmap, munmap, close, sys_rdpmc }

static struct perf_group_sys sys = PERF_GROUP_SYS_REAL;

void perf_group_sys_set(const struct perf_group_sys *s)
{
	static const struct perf_group_sys real = PERF_GROUP_SYS_REAL;

	sys = real;
	if (!s)
		return;
	if (s->perf_event_open)
		sys.perf_event_open = s->perf_event_open;
	if (s->ioctl)
		sys.ioctl = s->ioctl;
	if (s->read)
		sys.read = s->read;
	if (s->mmap)
		sys.mmap = s->mmap;
	if (s->munmap)
		sys.munmap = s->munmap;
	if (s->close)
		sys.close = s->close;
	if (s->rdpmc)
		sys.rdpmc = s->rdpmc;
}

/* ------------------------------------------------------------ the group */

struct perf_group {
	int fd[PERF_RAW_MAX];       /* the leader, then the members */
	bool raw;                   /* a raw group (spec.nraw) */
	unsigned nfd;               /* open so far */
	unsigned members;           /* 4 or 8; a raw group's nraw - 1 */
	void *page[2];              /* the leader's and the first member's user page */
	size_t page_len;
};

/* @why after perf_event_open of @name failed with @err. */
static int open_why(int err, const struct perf_pmu *p, const struct perf_group_spec *spec,
		    const char *name, uint64_t config, char *why, size_t n)
{
	char what[128]; /* fixed: "cpu_core" at most, a recipe's event name, numbers */

	snprintf(what, sizeof(what), "'%s/%s' (type %u, config %#llx) on cpu %u", p->name, name,
		 p->type, (unsigned long long)config, spec->cpu);
	if (err == -EACCES || err == -EPERM) {
		perf_pmu_paranoid_why(err, what, spec->user_only, why, n);
		return err;
	}
	return perf_pmu_why(why, n, err, "perf_event_open of %s: %s (%s)", what, strerror(-err),
			    perf_pmu_errno_name(-err));
}

/* Open one event of @g: the leader first (group_fd -1), then each member
 * with the leader's fd as group_fd. */
static int open_event(struct perf_group *g, const struct perf_pmu *p,
		      const struct perf_group_spec *spec, const char *name, uint64_t config,
		      char *why, size_t n)
{
	struct perf_event_attr a;
	bool leader = g->nfd == 0;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = p->type;
	a.config = config;
	a.read_format = PERF_GROUP_READ_FORMAT;
	a.disabled = leader;
	/* only a leader may be pinned (kernel/events/core.c perf_event_open) */
	a.pinned = leader;
	a.exclude_kernel = spec->user_only;
	a.exclude_hv = spec->user_only;
	fd = sys.perf_event_open(&a, 0, (int)spec->cpu, leader ? -1 : g->fd[0],
				 PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return open_why(-errno, p, spec, name, config, why, n);
	g->fd[g->nfd++] = fd;
	return 0;
}

/* Map the leader's and the first member's user page (RDPMC of FC3 and of
 * PERF_METRICS; mapping also makes RDPMC legal under sysfs rdpmc=1,
 * linux arch/x86/events/core.c x86_pmu_event_mapped). */
static int map_pages(struct perf_group *g, char *why, size_t n)
{
	long pg = sysconf(_SC_PAGESIZE);

	g->page_len = pg > 0 ? (size_t)pg : 4096;
	for (unsigned i = 0; i < 2; i++) {
		void *m = sys.mmap(NULL, g->page_len, PROT_READ, MAP_SHARED, g->fd[i], 0);

		if (m == MAP_FAILED)
			return perf_pmu_why(why, n, -errno, "mmap of the perf user page of '%s': %s",
					    i ? td_names[0] : "slots", strerror(errno));
		g->page[i] = m;
	}
	return 0;
}

/* With no core PMU in sysfs: what a hardware event gives, after @why
 * (ENOENT on a VM without a virtual PMU: kernel/events/core.c
 * perf_init_event finds no PMU for PERF_TYPE_HARDWARE). */
static void add_cycles_probe(char *why, size_t n)
{
	struct perf_event_attr a;
	size_t len = why && n ? strlen(why) : 0;
	int fd, e;

	if (!why || len + 1 >= n)
		return;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = sys.perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	e = errno;
	if (fd >= 0) {
		sys.close(fd);
		snprintf(why + len, n - len, "; perf_event_open of 'cycles' works, so this PMU "
			 "is not an Intel core PMU");
		return;
	}
	snprintf(why + len, n - len, "; perf_event_open of 'cycles' for this thread: %s (%s)",
		 perf_pmu_errno_name(e), strerror(e));
}

static void kernel_close(struct perf_group *g)
{
	if (!g)
		return;
	for (unsigned i = 0; i < 2; i++)
		if (g->page[i])
			sys.munmap(g->page[i], g->page_len);
	while (g->nfd > 0)
		sys.close(g->fd[--g->nfd]);
	free(g);
}

/* The leader and its members, as @p lists them; or a recipe pass's raw
 * events, the first leading, pinned like slots (a pass has no more events
 * than the core has counters, so it is never multiplexed; a group the
 * kernel cannot schedule whole counts nothing, and time_running says so). */
static int open_all(struct perf_group *g, const struct perf_pmu *p,
		    const struct perf_group_spec *spec, char *why, size_t n)
{
	int rc;

	if (spec->nraw) {
		rc = 0;
		for (unsigned i = 0; !rc && i < spec->nraw; i++)
			rc = open_event(g, p, spec, spec->raw[i].name, spec->raw[i].config, why, n);
		g->members = spec->nraw - 1;
		g->raw = true;
		return rc;
	}
	rc = open_event(g, p, spec, "slots", p->slots, why, n);

	for (unsigned i = 0; !rc && i < p->ntd; i++)
		rc = open_event(g, p, spec, td_names[i], p->td[i], why, n);
	g->members = p->ntd;
	return rc;
}

static int kernel_open_in(const char *arg, const struct perf_group_spec *spec,
			  struct perf_group **out, char *why, size_t n)
{
	struct perf_group *g;
	struct perf_pmu p;
	int rc;

	if (why && n)
		why[0] = '\0';
	if (!out || !spec || spec->cpu > INT_MAX || (arg && *arg) ||
	    (spec->nraw && (!spec->raw || spec->nraw > PERF_RAW_MAX ||
			    spec->how != PERF_READ_SYSCALL)))
		return perf_pmu_why(why, n, -EINVAL, "the kernel group takes no argument, "
				    "and a spec and a CPU number");
	*out = NULL;
	rc = perf_pmu_find(spec, &p, why, n);
	if (rc == -ENOENT)
		add_cycles_probe(why, n);
	if (rc)
		return rc;
	g = calloc(1, sizeof(*g));
	if (!g)
		return perf_pmu_why(why, n, -ENOMEM, "out of memory");
	rc = open_all(g, &p, spec, why, n);
	if (!rc && spec->how == PERF_READ_MMAP_RDPMC)
		rc = map_pages(g, why, n);
	if (rc) {
		kernel_close(g);
		return rc;
	}
	*out = g;
	return 0;
}

/* The kernel's reasons name a PMU, an event and sysfs paths (PATH_MAX):
 * PERF_WHY_MAX holds them (perf_pmu_why); the simulator's quote a profile
 * path escaped, whole (perf_sim.c). */
static int kernel_open(const char *arg, const struct perf_group_spec *spec,
		       struct perf_group **out, char **why)
{
	char buf[PERF_WHY_MAX] = "";
	int rc = kernel_open_in(arg, spec, out, buf, sizeof(buf));

	if (rc && why && text_setf(why, "%s", buf))
		rc = -ENOMEM;
	return rc;
}

/* One ioctl on the leader for the whole group. */
static int group_ioctl(struct perf_group *g, unsigned long request)
{
	if (!g || g->nfd == 0)
		return -EINVAL;
	return sys.ioctl(g->fd[0], request, PERF_IOC_FLAG_GROUP) < 0 ? -errno : 0;
}

static int kernel_enable(struct perf_group *g)
{
	return group_ioctl(g, PERF_EVENT_IOC_ENABLE);
}

static int kernel_disable(struct perf_group *g)
{
	return group_ioctl(g, PERF_EVENT_IOC_DISABLE);
}

static int kernel_reset(struct perf_group *g)
{
	return group_ioctl(g, PERF_EVENT_IOC_RESET);
}

static int kernel_read(struct perf_group *g, struct perf_group_values *v)
{
	uint64_t buf[3 + PERF_RAW_MAX];
	ssize_t got;

	if (!g || !v || g->nfd == 0)
		return -EINVAL;
	got = sys.read(g->fd[0], buf, sizeof(buf));
	if (got < 0)
		return -errno;
	return parse_read(buf, (size_t)got, g->members, g->raw ? PERF_RAW_MAX - 1 : PERF_TD_NODES,
			  v);
}

/* FC3 through the leader's page (ECX (1<<30)|3), IA32_PERF_METRICS through
 * the first member's (ECX 1<<29): linux tools/perf/Documentation/topdown.txt,
 * "Using TopDown through RDPMC". */
static int kernel_read_raw(struct perf_group *g, uint64_t *slots, uint64_t *metrics)
{
	static const uint32_t ecx[2] = { RDPMC_ECX_SLOTS, RDPMC_PERF_METRICS };
	const struct perf_event_mmap_page *pages[2];
	uint64_t raw[2];
	int rc;

	if (!g || !slots || !metrics)
		return -EINVAL;
	if (!g->page[0] || !g->page[1])
		return -EOPNOTSUPP;
	pages[0] = g->page[0];
	pages[1] = g->page[1];
	rc = perf_group_rdpmc_pages(pages, ecx, 2, sys.rdpmc, raw);
	if (rc)
		return rc;
	*slots = raw[0];
	*metrics = raw[1];
	return 0;
}

const struct perf_group_ops perf_group_kernel = {
	.name = "kernel",
	.open = kernel_open,
	.enable = kernel_enable,
	.disable = kernel_disable,
	.reset = kernel_reset,
	.read = kernel_read,
	.read_raw = kernel_read_raw,
	.close = kernel_close,
};
