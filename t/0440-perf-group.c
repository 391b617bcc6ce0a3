/*
 * t/0440-perf-group.c - the perf_event Top-down group, kernel side
 * (bench/source/perf_group.h, bench/source/perf_group.c, bench/source/perf_pmu.c), with a fake
 * sysroot ($BARETMA_SYSROOT) and the system-call seam standing in for the
 * kernel:
 *   - the names, perf_group_env, perf_group_fraction from hand-worked
 *     vectors;
 *   - the group read layout on hand-made buffers;
 *   - the attributes open passes, event by event: the PMU's type and the
 *     configs read from sysfs (a non-default type, event string and
 *     format prove they are read, not built in), leader pinned and
 *     disabled, PERF_FORMAT_GROUP, exclusions, group_fd chaining, pid,
 *     cpu, close-on-exec; the ioctls; the read; the close;
 *   - each refusal and its reason: no PMU directory (with the cycles
 *     probe's ENOENT), no slots event, no level-2 events, a hybrid E-core,
 *     an unknown term, EACCES at perf_event_paranoid 2 and 3;
 *   - the mmapped RDPMC read through the seqlock, on fake user pages.
 * Expected values come from include/uapi/linux/perf_event.h (read_format
 * bits, ioctl numbers, the read layout, the mmap page's index = ECX + 1)
 * and from the event strings of arch/x86/events/intel/core.c
 * and perf_event.h INTEL_TD_*: config = event | umask << 8.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "bench/source/perf_group.h"
#include "bench/source/perf_pmu.h"
#include "t/fixture.h"

/* The real simulator is another file's; this test never calls it. */

/* ------------------------------------------------------ the fake kernel */

#define MAX_CALLS 16
#define FIRST_FD  100

static struct fake {
	struct perf_event_attr attr[MAX_CALLS];
	pid_t pid[MAX_CALLS];
	int cpu[MAX_CALLS], group_fd[MAX_CALLS];
	unsigned long flags[MAX_CALLS];
	int nopen;
	int fail_at, fail_errno;          /* open call that fails (-1: none) */
	int closed[MAX_CALLS], nclosed;
	int ioctl_fd;
	unsigned long ioctl_req, ioctl_arg;
	const void *read_buf;
	size_t read_len;
	int mmap_fd[2], nmmap, nmunmap;
	size_t mmap_len;
	int mmap_prot, mmap_flags;
} fk;

/* Two fake user pages, each a page long. */
static union {
	struct perf_event_mmap_page pc;
	char pad[4096];
} pages[2];

static void fake_reset(void)
{
	memset(&fk, 0, sizeof(fk));
	fk.fail_at = -1;
}

static int fake_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		     unsigned long flags)
{
	int i = fk.nopen++;

	if (i >= MAX_CALLS) {
		errno = EMFILE;
		return -1;
	}
	fk.attr[i] = *attr;
	fk.pid[i] = pid;
	fk.cpu[i] = cpu;
	fk.group_fd[i] = group_fd;
	fk.flags[i] = flags;
	if (i == fk.fail_at) {
		errno = fk.fail_errno;
		return -1;
	}
	return FIRST_FD + i;
}

static int fake_ioctl(int fd, unsigned long req, unsigned long arg)
{
	fk.ioctl_fd = fd;
	fk.ioctl_req = req;
	fk.ioctl_arg = arg;
	return 0;
}

static ssize_t fake_read(int fd, void *buf, size_t n)
{
	if (fd != FIRST_FD || n < fk.read_len) {
		errno = EBADF;
		return -1;
	}
	memcpy(buf, fk.read_buf, fk.read_len);
	return (ssize_t)fk.read_len;
}

static void *fake_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (fk.nmmap >= 2 || addr || off) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	fk.mmap_fd[fk.nmmap] = fd;
	fk.mmap_len = len;
	fk.mmap_prot = prot;
	fk.mmap_flags = flags;
	return &pages[fk.nmmap++];
}

static int fake_munmap(void *addr, size_t len)
{
	fk.nmunmap++;
	return 0;
}

static int fake_close(int fd)
{
	if (fk.nclosed < MAX_CALLS)
		fk.closed[fk.nclosed] = fd;
	fk.nclosed++;
	return 0;
}

/* RDPMC: FC3 and PERF_METRICS give known values; the first call may move
 * a page's lock (an update between the reads: the seqlock must retry). */
static int rdpmc_calls;
static volatile struct perf_event_mmap_page *bump_page;
static int bump_times;

static uint64_t fake_rdpmc(uint32_t ecx)
{
	rdpmc_calls++;
	if (bump_page && bump_times) {
		bump_times--;
		bump_page->lock += 2;
		return 0xdead;
	}
	if (ecx == ((1u << 30) | 3))
		return 0x123456789aull;
	if (ecx == 1u << 29)
		return 0x0a1b2c3d40302010ull;
	return 0;
}

static const struct perf_group_sys fake_sys = {
	.perf_event_open = fake_open, .ioctl = fake_ioctl, .read = fake_read,
	.mmap = fake_mmap, .munmap = fake_munmap, .close = fake_close, .rdpmc = fake_rdpmc,
};

/* ------------------------------------------------------- the fake sysroot */

static char root[PATH_MAX];
static struct t_env env_root;

#define CPU_PMU "/sys/bus/event_source/devices/cpu"
#define CORE_PMU "/sys/bus/event_source/devices/cpu_core"

static void put(const char *rel, const char *text)
{
	t_put_tree(t_in(root, rel), text);
}

/* A new root, $BARETMA_SYSROOT, with paranoid @paranoid and no PMU. */
static void root_new(const char *paranoid)
{
	if (root[0])
		t_rm_rf(root);
	t_scratch(root, "0440");
	if (setenv("BARETMA_SYSROOT", root, 1)) {
		printf("Bail out! cannot set BARETMA_SYSROOT\n");
		exit(1);
	}
	put("/proc/sys/kernel/perf_event_paranoid", paranoid);
}

/* The events of a PMU at @dir: slots and the L1 members always, the L2
 * ones with @l2.  topdown-be-bound is deliberately not the kernel's
 * (event=0x12,umask=0x93: config 0x9312) so the test sees it is read. */
static void put_pmu(const char *dir, const char *type, bool l2)
{
	static const char *const l1[4][2] = {
		{ "topdown-retiring", "event=0x00,umask=0x80\n" },
		{ "topdown-bad-spec", "event=0x00,umask=0x81\n" },
		{ "topdown-fe-bound", "event=0x00,umask=0x82\n" },
		{ "topdown-be-bound", "event=0x12,umask=0x93\n" },
	};
	static const char *const l2e[4][2] = {
		{ "topdown-heavy-ops", "event=0x00,umask=0x84\n" },
		{ "topdown-br-mispredict", "event=0x00,umask=0x85\n" },
		{ "topdown-fetch-lat", "event=0x00,umask=0x86\n" },
		{ "topdown-mem-bound", "event=0x00,umask=0x87\n" },
	};
	char rel[PATH_MAX];

	put(t_path(rel, "%s/type", dir), type);
	put(t_path(rel, "%s/format/event", dir), "config:0-7\n");
	put(t_path(rel, "%s/format/umask", dir), "config:8-15\n");
	put(t_path(rel, "%s/events/slots", dir), "event=0x00,umask=0x4\n");
	for (int i = 0; i < 4; i++)
		put(t_path(rel, "%s/events/%s", dir, l1[i][0]), l1[i][1]);
	for (int i = 0; l2 && i < 4; i++)
		put(t_path(rel, "%s/events/%s", dir, l2e[i][0]), l2e[i][1]);
}

/* The kernel group's open, its reason (on the heap) copied into @why. */
static int kopen(const char *arg, const struct perf_group_spec *spec, struct perf_group **g,
		 char *why, size_t n)
{
	char *w = NULL;
	int rc = perf_group_kernel.open(arg, spec, g, &w);

	snprintf(why, n, "%s", w ? w : "");
	free(w);
	return rc;
}

static int open_group(unsigned cpu, int level, bool user_only, enum perf_read_how how,
		      struct perf_group **g, char *why, size_t n)
{
	struct perf_group_spec spec = { .cpu = cpu, .level = level, .user_only = user_only,
					.how = how };

	fake_reset();
	return kopen(NULL, &spec, g, why, n);
}

/* ------------------------------------------------------------ pure parts */

static void test_names(void)
{
	static const char *const want[8] = {
		"topdown-retiring", "topdown-bad-spec", "topdown-fe-bound", "topdown-be-bound",
		"topdown-heavy-ops", "topdown-br-mispredict", "topdown-fetch-lat",
		"topdown-mem-bound",
	};

	for (unsigned i = 0; i < 8; i++)
		check_str(perf_td_event_name(i), want[i], "byte i of PERF_METRICS names its event");
	ok(perf_td_event_name(8) == NULL, "no ninth member");
	check_str(perf_group_kernel.name, "kernel", "the kernel ops are named 'kernel'");
}

static void test_env(void)
{
	struct t_env e;
	const char *arg = "x";

	t_env_set(&e, "BARETMA_PERF", NULL);
	ok(perf_group_env(&arg) == &perf_group_kernel && arg == NULL, "unset: kernel, no arg");
	t_env_put_back(&e);
	t_env_set(&e, "BARETMA_PERF", "");
	arg = "x";
	ok(perf_group_env(&arg) == &perf_group_kernel && arg == NULL, "empty: kernel, no arg");
	t_env_put_back(&e);
	t_env_set(&e, "BARETMA_PERF", "sim:icl");
	ok(perf_group_env(&arg) == &perf_group_sim && arg && !strcmp(arg, "icl"),
	   "sim:icl: the simulator with profile 'icl'");
	t_env_put_back(&e);
	t_env_set(&e, "BARETMA_PERF", "sim:");
	errno = 0;
	ok(perf_group_env(&arg) == NULL && errno == EINVAL, "sim: with no profile: EINVAL");
	t_env_put_back(&e);
	t_env_set(&e, "BARETMA_PERF", "bogus");
	errno = 0;
	ok(perf_group_env(&arg) == NULL && errno == EINVAL, "bogus: EINVAL");
	t_env_put_back(&e);
	t_env_set(&e, "BARETMA_PERF", "sim");
	errno = 0;
	ok(perf_group_env(&arg) == NULL && errno == EINVAL, "sim without ':': EINVAL");
	t_env_put_back(&e);
}

static void test_fraction(void)
{
	/* b - a: slots 2000; retiring 500 -> 0.25; bad-spec 100 -> 0.05;
	 * fe-bound 600 -> 0.3; be-bound 800 -> 0.4; mem-bound 0 */
	struct perf_group_values a = { .slots = 1000, .td = { 250, 50, 300, 400, 0, 0, 0, 7 } };
	struct perf_group_values b = { .slots = 3000, .td = { 750, 150, 900, 1200, 0, 0, 0, 7 } };
	struct perf_group_values c = a;

	check_dbl(perf_group_fraction(&a, &b, 0), 0.25, 1e-12, "retiring 500 of 2000 slots");
	check_dbl(perf_group_fraction(&a, &b, 1), 0.05, 1e-12, "bad-spec 100 of 2000 slots");
	check_dbl(perf_group_fraction(&a, &b, 2), 0.30, 1e-12, "fe-bound 600 of 2000 slots");
	check_dbl(perf_group_fraction(&a, &b, 3), 0.40, 1e-12, "be-bound 800 of 2000 slots");
	check_dbl(perf_group_fraction(&a, &b, 7), 0.0, 0, "mem-bound unchanged: 0");
	check_dbl(perf_group_fraction(&a, &c, 0), 0.0, 0, "no slot counted: 0");
	check_dbl(perf_group_fraction(&a, &b, 8), 0.0, 0, "member 8: 0");
	/* 64-bit counts past 2^32: slots 0x200000000 - 0x100000000 = 2^32,
	 * retiring 2^30 -> 0.25 */
	a.slots = 0x100000000ull;
	b.slots = 0x200000000ull;
	a.td[0] = 0;
	b.td[0] = 0x40000000ull;
	check_dbl(perf_group_fraction(&a, &b, 0), 0.25, 1e-12, "counts past 2^32");
}

static void test_parse_read(void)
{
	/* { nr, time_enabled, time_running, slots, retiring, bad, fe, be } */
	const uint64_t l1[8] = { 5, 1000, 900, 4000, 1000, 200, 800, 2000 };
	const uint64_t l2[12] = { 9, 7, 7, 255, 1, 2, 3, 4, 5, 6, 7, 8 };
	uint64_t bad[8];
	struct perf_group_values v;

	ok(perf_group_parse_read(l1, sizeof(l1), 4, &v) == 0, "level 1 read parses");
	ok(v.time_enabled == 1000 && v.time_running == 900, "times: enabled 1000, running 900");
	ok(v.slots == 4000 && v.td[0] == 1000 && v.td[1] == 200 && v.td[2] == 800 &&
	   v.td[3] == 2000, "leader then members in byte order");
	ok(!v.td[4] && !v.td[5] && !v.td[6] && !v.td[7], "members not opened read 0");
	ok(perf_group_parse_read(l2, sizeof(l2), 8, &v) == 0 && v.slots == 255 &&
	   v.td[0] == 1 && v.td[4] == 5 && v.td[7] == 8, "level 2 read: 9 values");
	memcpy(bad, l1, sizeof(bad));
	bad[0] = 4;
	check_int(perf_group_parse_read(bad, sizeof(bad), 4, &v), ==, -EIO, "nr 4, not 5: EIO");
	check_int(perf_group_parse_read(l1, sizeof(l1) - 8, 4, &v), ==, -EIO, "short read: EIO");
	check_int(perf_group_parse_read(l1, sizeof(l1), 8, &v), ==, -EIO,
		  "a level-1 read for a level-2 group: EIO");
	check_int(perf_group_parse_read(l1, sizeof(l1), 9, &v), ==, -EINVAL, "9 members: EINVAL");
}

static void test_cpu_list(void)
{
	check_int(perf_pmu_cpu_listed("0-15", 15), ==, 1, "15 in 0-15");
	check_int(perf_pmu_cpu_listed("0-15", 16), ==, 0, "16 not in 0-15");
	check_int(perf_pmu_cpu_listed("0,2,4-7", 5), ==, 1, "5 in 0,2,4-7");
	check_int(perf_pmu_cpu_listed("0,2,4-7", 3), ==, 0, "3 not in 0,2,4-7");
	check_int(perf_pmu_cpu_listed("", 0), ==, 0, "nothing in an empty list");
	check_int(perf_pmu_cpu_listed("0-", 0), ==, -EINVAL, "'0-' does not parse");
	check_int(perf_pmu_cpu_listed("3-1", 2), ==, -EINVAL, "'3-1' does not parse");
	check_int(perf_pmu_cpu_listed("0,,1", 1), ==, -EINVAL, "'0,,1' does not parse");
	check_int(perf_pmu_cpu_listed("0,", 0), ==, -EINVAL, "'0,' does not parse");
	check_int(perf_pmu_cpu_listed("x", 0), ==, -EINVAL, "'x' does not parse");
}

/* ------------------------------------------------------------- the open */

/* PERF_FORMAT_TOTAL_TIME_ENABLED 1<<0 | TOTAL_TIME_RUNNING 1<<1 | GROUP 1<<3 */
#define WANT_READ_FORMAT 0xbull
/* PERF_FLAG_FD_CLOEXEC (1UL << 3) */
#define WANT_CLOEXEC 0x8ul

static void check_leader(int cpu, bool user_only, uint32_t type)
{
	struct perf_event_attr *a = &fk.attr[0];

	check_u64(a->type, ==, type, "leader: the PMU's type from sysfs");
	check_u64(a->config, ==, 0x0400, "leader: slots, event 0x00 | umask 0x4 << 8");
	check_u64(a->size, ==, sizeof(*a), "leader: attr size");
	check_u64(a->read_format, ==, WANT_READ_FORMAT, "leader: GROUP | TIME_ENABLED | TIME_RUNNING");
	ok(a->disabled && a->pinned, "leader: disabled and pinned");
	ok(a->exclude_kernel == user_only && a->exclude_hv == user_only,
	   "leader: exclude_kernel/hv %d as user_only", user_only);
	ok(!a->sample_period && !a->inherit, "leader: counts, no sampling, no inherit");
	ok(fk.pid[0] == 0 && fk.cpu[0] == cpu && fk.group_fd[0] == -1,
	   "leader: pid 0 (this thread), cpu %d, no group", cpu);
	ok(fk.flags[0] & WANT_CLOEXEC, "leader: PERF_FLAG_FD_CLOEXEC");
}

static void check_members(const uint64_t *want, int n, int cpu, bool user_only, uint32_t type)
{
	bool chained = true, types = true, off = true, excl = true, cloexec = true;

	check_int(fk.nopen, ==, 1 + n, "one open for the leader and each member");
	for (int i = 1; i <= n && i < MAX_CALLS; i++) {
		check_u64(fk.attr[i].config, ==, want[i - 1], perf_td_event_name(i - 1));
		chained &= fk.group_fd[i] == FIRST_FD && fk.pid[i] == 0 && fk.cpu[i] == cpu;
		types &= fk.attr[i].type == type;
		off &= !fk.attr[i].disabled && !fk.attr[i].pinned;
		excl &= fk.attr[i].exclude_kernel == user_only &&
			fk.attr[i].exclude_hv == user_only;
		cloexec &= (fk.flags[i] & WANT_CLOEXEC) != 0;
	}
	ok(chained, "members: group_fd the leader's fd, pid 0, cpu %d", cpu);
	ok(types, "members: the PMU's type");
	ok(off, "members: neither disabled nor pinned (they follow the leader)");
	ok(excl, "members: the leader's exclusions");
	ok(cloexec, "members: PERF_FLAG_FD_CLOEXEC");
}

static void test_open_level1(void)
{
	/* umask 0x80..0x82 << 8; be-bound event 0x12 | umask 0x93 << 8 */
	const uint64_t want[4] = { 0x8000, 0x8100, 0x8200, 0x9312 };
	const uint64_t rd[8] = { 5, 2000, 2000, 4000, 1000, 200, 800, 2000 };
	struct perf_group_values v;
	struct perf_group *g = NULL;
	char why[512];
	int rc;

	root_new("2\n");
	put_pmu(CPU_PMU, "11\n", false);
	rc = open_group(3, 1, true, PERF_READ_SYSCALL, &g, why, sizeof(why));
	if (!ok(rc == 0 && g, "level 1 opens on a 'cpu' PMU (rc %d: %s)", rc, why)) {
		skip(26, "not open");
		return;
	}
	check_leader(3, true, 11);
	check_members(want, 4, 3, true, 11);
	ok(perf_group_kernel.enable(g) == 0 && fk.ioctl_fd == FIRST_FD &&
	   fk.ioctl_req == 0x2400 && fk.ioctl_arg == 1,
	   "enable: ioctl(leader, _IO('$', 0), PERF_IOC_FLAG_GROUP 1)");
	ok(perf_group_kernel.disable(g) == 0 && fk.ioctl_req == 0x2401 && fk.ioctl_arg == 1,
	   "disable: _IO('$', 1) on the group");
	ok(perf_group_kernel.reset(g) == 0 && fk.ioctl_req == 0x2403 && fk.ioctl_arg == 1,
	   "reset: _IO('$', 3) on the group");
	fk.read_buf = rd;
	fk.read_len = sizeof(rd);
	ok(perf_group_kernel.read(g, &v) == 0 && v.slots == 4000 && v.td[3] == 2000 &&
	   v.time_running == 2000, "read: the leader's group read parsed");
	check_int(perf_group_kernel.read_raw(g, &v.slots, &v.slots), ==, -EOPNOTSUPP,
		  "read_raw without PERF_READ_MMAP_RDPMC: EOPNOTSUPP");
	perf_group_kernel.close(g);
	ok(fk.nclosed == 5 && fk.closed[0] == FIRST_FD + 4 && fk.closed[4] == FIRST_FD &&
	   fk.nmunmap == 0, "close: the five fds, members first, nothing unmapped");
}

static void test_open_level2(void)
{
	const uint64_t want[8] = { 0x8000, 0x8100, 0x8200, 0x9312, 0x8400, 0x8500, 0x8600, 0x8700 };
	struct perf_group *g = NULL;
	char why[512];
	int rc;

	root_new("2\n");
	put_pmu(CPU_PMU, "4\n", true);
	rc = open_group(0, 2, false, PERF_READ_SYSCALL, &g, why, sizeof(why));
	ok(rc == 0 && g, "level 2 opens (rc %d: %s)", rc, why);
	check_leader(0, false, 4);
	check_members(want, 8, 0, false, 4);
	perf_group_kernel.close(g);
	check_int(fk.nclosed, ==, 9, "close: nine fds");

	/* a PMU whose umask sits in config:16-23: slots is then 0x4 << 16 */
	put(CPU_PMU "/format/umask", "config:16-23\n");
	rc = open_group(0, 1, false, PERF_READ_SYSCALL, &g, why, sizeof(why));
	ok(rc == 0 && fk.attr[0].config == 0x40000 && fk.attr[1].config == 0x800000,
	   "format/umask config:16-23 is used: slots 0x40000, retiring 0x800000");
	perf_group_kernel.close(g);
}

static void test_hybrid(void)
{
	struct perf_group *g = NULL;
	char why[512];
	int rc;

	root_new("2\n");
	put_pmu(CORE_PMU, "8\n", true);
	put(CORE_PMU "/cpus", "0-15\n");
	rc = open_group(16, 1, true, PERF_READ_SYSCALL, &g, why, sizeof(why));
	check_int(rc, ==, -EOPNOTSUPP, "cpu 16 on a cpu_core PMU of cpus 0-15: EOPNOTSUPP");
	ok(strstr(why, "cpu 16 is not a cpu_core CPU") && strstr(why, "E-core") && fk.nopen == 0,
	   "the reason names the CPU and the E-core; nothing opened (%s)", why);
	rc = open_group(15, 1, true, PERF_READ_SYSCALL, &g, why, sizeof(why));
	ok(rc == 0 && fk.attr[0].type == 8, "cpu 15 opens with cpu_core's type 8 (%s)", why);
	perf_group_kernel.close(g);
}

static void test_refusals(void)
{
	struct perf_group *g = (struct perf_group *)&g;
	char why[512];
	int rc;

	root_new("2\n");
	put(CPU_PMU "/type", "4\n");
	rc = open_group(0, 1, true, PERF_READ_SYSCALL, &g, why, sizeof(why));
	check_int(rc, ==, -EOPNOTSUPP, "no events/slots: EOPNOTSUPP");
	ok(g == NULL && strstr(why, "'cpu' PMU lists no 'slots' event") && strstr(why, "Ice Lake"),
	   "the reason: no slots, Ice Lake or later (%s)", why);

	put_pmu(CPU_PMU, "4\n", false);
	rc = open_group(0, 2, true, PERF_READ_SYSCALL, &g, why, sizeof(why));
	check_int(rc, ==, -EOPNOTSUPP, "level 2 without its events: EOPNOTSUPP");
	ok(strstr(why, "level 2") && strstr(why, "topdown-heavy-ops") && fk.nopen == 0,
	   "the reason names level 2 and topdown-heavy-ops (%s)", why);

	put(CPU_PMU "/events/slots", "event=0x00,umask=0x4,frob=1\n");
	rc = open_group(0, 1, true, PERF_READ_SYSCALL, &g, why, sizeof(why));
	ok(rc == -EOPNOTSUPP && strstr(why, "'frob'"), "a term without a format: EOPNOTSUPP (%s)",
	   why);
	put(CPU_PMU "/format/frob", "config1:0\n");
	rc = open_group(0, 1, true, PERF_READ_SYSCALL, &g, why, sizeof(why));
	ok(rc == -EOPNOTSUPP && strstr(why, "config1"), "a term in config1: EOPNOTSUPP (%s)", why);
	put(CPU_PMU "/events/slots", "event=0x00,umask=0x104\n");
	rc = open_group(0, 1, true, PERF_READ_SYSCALL, &g, why, sizeof(why));
	check_int(rc, ==, -ERANGE, "umask 0x104 does not fit config:8-15: ERANGE");
}

static void test_no_pmu(void)
{
	struct perf_group *g = NULL;
	char why[1024];
	int rc;

	root_new("2\n");
	fake_reset();
	struct perf_group_spec spec = { .cpu = 0, .level = 1, .user_only = true };
	fk.fail_at = 0;
	fk.fail_errno = ENOENT;
	rc = kopen(NULL, &spec, &g, why, sizeof(why));
	check_int(rc, ==, -ENOENT, "no cpu/cpu_core directory: ENOENT");
	ok(strstr(why, "no 'cpu' or 'cpu_core' PMU under") && strstr(why, root) &&
	   strstr(why, "/sys/bus/event_source/devices"), "the reason names the directory (%s)", why);
	ok(strstr(why, "'cycles'") && strstr(why, "ENOENT") && strstr(why, "virtual PMU"),
	   "and what the cycles probe got: ENOENT");
	ok(fk.nopen == 1 && fk.attr[0].type == PERF_TYPE_HARDWARE && fk.attr[0].type == 0 &&
	   fk.attr[0].config == 0 && fk.pid[0] == 0 && fk.cpu[0] == -1 &&
	   (fk.flags[0] & WANT_CLOEXEC), "the probe: type 0 (hardware), config 0 (cycles), "
	   "this thread, any CPU, close-on-exec");
}

static void test_paranoid(void)
{
	struct perf_group *g = NULL;
	char why[1024];
	int rc;

	root_new("2\n");
	put_pmu(CPU_PMU, "4\n", false);
	fake_reset();
	struct perf_group_spec spec = { .cpu = 1, .level = 1, .user_only = false };
	fk.fail_at = 0;
	fk.fail_errno = EACCES;
	rc = kopen(NULL, &spec, &g, why, sizeof(why));
	check_int(rc, ==, -EACCES, "EACCES at paranoid 2, kernel counted: EACCES");
	ok(strstr(why, "perf_event_paranoid is 2") && strstr(why, "user space only") &&
	   strstr(why, "--user-only") && strstr(why, "'cpu/slots'"),
	   "the reason: level 2 allows user space only, try --user-only (%s)", why);

	put("/proc/sys/kernel/perf_event_paranoid", "3\n");
	fake_reset();
	spec.user_only = true;
	fk.fail_at = 0;
	fk.fail_errno = EACCES;
	rc = kopen(NULL, &spec, &g, why, sizeof(why));
	check_int(rc, ==, -EACCES, "EACCES at paranoid 3");
	ok(strstr(why, "perf_event_paranoid is 3") && strstr(why, "CAP_PERFMON") &&
	   strstr(why, "sysctl kernel.perf_event_paranoid=2"),
	   "the reason: level 3 allows nothing without CAP_PERFMON; the sysctl (%s)", why);

	/* level 1 allows this thread's counts: the refusal is not paranoid's */
	put("/proc/sys/kernel/perf_event_paranoid", "1\n");
	fake_reset();
	fk.fail_at = 0;
	fk.fail_errno = EACCES;
	rc = kopen(NULL, &spec, &g, why, sizeof(why));
	ok(rc == -EACCES && strstr(why, "perf_event_paranoid is 1") && strstr(why, "elsewhere") &&
	   strstr(why, "seccomp"), "EACCES at paranoid 1: from elsewhere (%s)", why);

	/* a member refused: the fds opened so far are closed */
	put("/proc/sys/kernel/perf_event_paranoid", "3\n");
	fake_reset();
	fk.fail_at = 2;
	fk.fail_errno = EPERM;
	rc = kopen(NULL, &spec, &g, why, sizeof(why));
	ok(rc == -EPERM && g == NULL && strstr(why, "topdown-bad-spec"),
	   "EPERM on topdown-bad-spec: EPERM, named (%s)", why);
	ok(fk.nclosed == 2 && fk.closed[0] == FIRST_FD + 1 && fk.closed[1] == FIRST_FD,
	   "the leader and retiring closed again");
}

/* --------------------------------------------------------------- RDPMC */

/* A page as the kernel leaves it for a counter read with RDPMC @ecx. */
static void page_set(struct perf_event_mmap_page *pc, uint32_t ecx)
{
	memset(pc, 0, sizeof(*pc));
	pc->lock = 4;
	pc->index = ecx + 1;  /* x86_pmu_event_idx: ECX + 1 */
	pc->cap_user_rdpmc = 1;
}

static void test_seqlock(void)
{
	const struct perf_event_mmap_page *p[1] = { &pages[0].pc };
	const uint32_t ecx = (1u << 30) | 3;
	uint64_t raw = 0;

	page_set(&pages[0].pc, ecx);
	rdpmc_calls = 0;
	bump_page = &pages[0].pc;
	bump_times = 1;
	check_int(perf_group_rdpmc_pages(p, &ecx, 1, fake_rdpmc, &raw), ==, 0,
		  "the lock moved once: the read is retried");
	ok(raw == 0x123456789aull && rdpmc_calls == 2, "the value of the second try (2 RDPMCs)");

	bump_times = 1000;
	rdpmc_calls = 0;
	check_int(perf_group_rdpmc_pages(p, &ecx, 1, fake_rdpmc, &raw), ==, -EAGAIN,
		  "a lock that never settles: EAGAIN");
	check_int(rdpmc_calls, ==, PERF_RDPMC_TRIES, "after PERF_RDPMC_TRIES tries");
	bump_page = NULL;

	pages[0].pc.index = 0;
	rdpmc_calls = 0;
	check_int(perf_group_rdpmc_pages(p, &ecx, 1, fake_rdpmc, &raw), ==, -EOPNOTSUPP,
		  "index 0 (not on a counter): EOPNOTSUPP");
	page_set(&pages[0].pc, ecx);
	pages[0].pc.cap_user_rdpmc = 0;
	check_int(perf_group_rdpmc_pages(p, &ecx, 1, fake_rdpmc, &raw), ==, -EOPNOTSUPP,
		  "cap_user_rdpmc 0: EOPNOTSUPP");
	page_set(&pages[0].pc, 0);  /* general-purpose counter 0 */
	check_int(perf_group_rdpmc_pages(p, &ecx, 1, fake_rdpmc, &raw), ==, -EOPNOTSUPP,
		  "index naming another counter: EOPNOTSUPP");
	check_int(rdpmc_calls, ==, 0, "no RDPMC when the page refuses");
}

static void test_open_rdpmc(void)
{
	struct perf_group *g = NULL;
	uint64_t slots = 0, metrics = 0;
	char why[512];
	int rc;

	root_new("2\n");
	put_pmu(CPU_PMU, "4\n", false);
	rc = open_group(2, 1, true, PERF_READ_MMAP_RDPMC, &g, why, sizeof(why));
	ok(rc == 0 && g, "opens for RDPMC (rc %d: %s)", rc, why);
	if (rc)
		return;
	ok(fk.nmmap == 2 && fk.mmap_fd[0] == FIRST_FD && fk.mmap_fd[1] == FIRST_FD + 1 &&
	   fk.mmap_len == (size_t)sysconf(_SC_PAGESIZE) && fk.mmap_prot == PROT_READ &&
	   fk.mmap_flags == MAP_SHARED, "one shared read-only page of the leader and of retiring");
	page_set(&pages[0].pc, (1u << 30) | 3);   /* index 0x40000004 */
	page_set(&pages[1].pc, 1u << 29);         /* index 0x20000001 */
	rdpmc_calls = 0;
	rc = perf_group_kernel.read_raw(g, &slots, &metrics);
	ok(rc == 0 && slots == 0x123456789aull && metrics == 0x0a1b2c3d40302010ull &&
	   rdpmc_calls == 2, "read_raw: RDPMC (1<<30)|3 and 1<<29, raw");
	bump_page = &pages[1].pc;
	bump_times = 1;
	rdpmc_calls = 0;
	rc = perf_group_kernel.read_raw(g, &slots, &metrics);
	ok(rc == 0 && rdpmc_calls == 4 && slots == 0x123456789aull,
	   "the member's lock moved: both read again");
	bump_page = NULL;
	pages[1].pc.index = 0;
	check_int(perf_group_kernel.read_raw(g, &slots, &metrics), ==, -EOPNOTSUPP,
		  "the member's index 0: EOPNOTSUPP");
	perf_group_kernel.close(g);
	ok(fk.nmunmap == 2 && fk.nclosed == 5, "close: two pages unmapped, five fds closed");
}

int main(void)
{
	perf_group_sys_set(&fake_sys);
	test_names();
	test_env();
	test_fraction();
	test_parse_read();
	test_cpu_list();
	t_env_set(&env_root, "BARETMA_SYSROOT", NULL);
	test_open_level1();
	test_open_level2();
	test_hybrid();
	test_refusals();
	test_no_pmu();
	test_paranoid();
	test_seqlock();
	test_open_rdpmc();
	t_env_put_back(&env_root);
	perf_group_sys_set(NULL);
	t_rm_rf(root);
	return done_testing();
}
