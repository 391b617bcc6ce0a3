/*
 * t/0420-rdpmc-probe.c - the RDPMC probe on this machine, and the rdpmc
 * sysfs value read through a fake /sys tree.
 *
 * Each outcome on this machine is decided before the probe runs, from
 * facts outside the code under test, and then asserted; where those facts
 * cannot decide it the test skips and says why (it never accepts both):
 *   - CPUID of the CPU this test is pinned to (vendor; leaf 0xA: fixed
 *     counter 3 enumerated, Intel PCM isFixedCounterSupported; leaf 0x1A core type on a
 *     hybrid part);
 *   - the kernel's core PMU in sysfs: "cpu" or "cpu_core" under
 *     /sys/bus/event_source/devices (none: no driver ever sets CR4.PCE),
 *     its "rdpmc" value (linux arch/x86/events/core.c: 0 never, 1 only while this
 *     mm has a perf event mmapped, 2 always), and its "events/slots",
 *     which the kernel lists only with PERF_METRICS (perf's own test,
 *     tools/perf/arch/x86/util/topdown.c topdown_sys_has_perf_metrics);
 *   - /proc/sys/kernel/perf_event_paranoid, the effective capabilities and
 *     the seccomp mode of this process (may it open a perf event?).
 * RDPMC faults (#GP, SIGSEGV at CPL 3) when CR4.PCE is clear or the index
 * is invalid (SDM RDPMC; an AMD CPU has no fixed-counter or metrics
 * encodings: bit 30 or 29 set is an invalid index).
 * The same answer is asserted inside hosts that ignore SIGCHLD or reap
 * their children from a SIGCHLD handler (issue 10: the probe's child must
 * not depend on SIGCHLD, and the host's handler must never see it).
 */
#include <cpuid.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpu/environ.h"
#include "msr/regs/rdpmc.h"
#include "t/tap.h"

/* RDPMC ECX encodings (linux perf_event.h INTEL_PMC_FIXED_RDPMC_*). */
#define ECX_FIXED_CTR3    ((1u << 30) | 3)
#define ECX_PERF_METRICS  (1u << 29)
#define ECX_GP_CTR0       0u

#define EVSRC "/sys/bus/event_source/devices/"

static bool vendor_is_intel(void)
{
	unsigned a, b, c, d;
	char v[13];

	if (!__get_cpuid(0, &a, &b, &c, &d))
		return false;
	memcpy(v, &b, 4);
	memcpy(v + 4, &d, 4);
	memcpy(v + 8, &c, 4);
	v[12] = '\0';
	return strcmp(v, "GenuineIntel") == 0;
}

/* Fixed counter 3 enumerated: CPUID.0AH ECX[3] or EDX[4:0] > 3
 * (Intel PCM isFixedCounterSupported). */
static bool has_fixed_ctr3(void)
{
	unsigned a, b, c, d;

	if (__get_cpuid_max(0, NULL) < 0xa)
		return false;
	__cpuid_count(0xa, 0, a, b, c, d);
	return (a & 0xff) && ((c & (1u << 3)) || (d & 0x1f) > 3);
}

/* CPUID.1AH:EAX[31:24] of this CPU: 0x40 Core, 0x20 Atom; 0 when the leaf
 * is absent (not hybrid). */
static unsigned core_type(void)
{
	unsigned a, b, c, d;

	if (__get_cpuid_max(0, NULL) < 0x1a)
		return 0;
	__cpuid_count(0x1a, 0, a, b, c, d);
	return a >> 24;
}

static bool exists(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0;
}

/* Pin to the CPU we are on: CPUID here and RDPMC in the probe's child
 * (which inherits the mask) then see one CPU. */
static int pin_here(void)
{
	int cpu = sched_getcpu();
	cpu_set_t set;

	if (cpu < 0)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -1 : cpu;
}

/* The fault expected of RDPMC(@ecx) on this CPU, or 0 when it must work;
 * -1 when it cannot be known (@why says why).  @metrics: ECX is 1<<29. */
static int expect_probe(bool metrics, int sysfs, char *why, size_t n)
{
	bool intel = vendor_is_intel();
	bool hybrid = exists(EVSRC "cpu_core");
	bool pmu = exists(EVSRC "cpu") || hybrid;

	if (!intel)
		return snprintf(why, n, "not Intel: bit %d of ECX is an invalid index", metrics ? 29 : 30), -EFAULT;
	if (!pmu)
		return snprintf(why, n, "no core PMU driver in sysfs: nothing sets CR4.PCE"), -EFAULT;
	if (sysfs < 0)
		return snprintf(why, n, "core PMU without a readable rdpmc file: CR4.PCE unknown"), -1;
	if (sysfs != 2)
		return snprintf(why, n, "rdpmc=%d and no perf event mapped here: CR4.PCE clear", sysfs), -EFAULT;
	if (!has_fixed_ctr3())
		return snprintf(why, n, "rdpmc=2, but CPUID.0AH enumerates no fixed counter 3"), -EFAULT;
	if (!metrics)
		return snprintf(why, n, "Intel, rdpmc=2, fixed counter 3 enumerated"), 0;
	if (hybrid && core_type() != 0x40)
		return snprintf(why, n, "rdpmc=2, but this CPU is not a Core (core type 0x%x): no PERF_METRICS",
				core_type()), -EFAULT;
	if (!exists(hybrid ? EVSRC "cpu_core/events/slots" : EVSRC "cpu/events/slots"))
		return snprintf(why, n, "rdpmc=2, but the kernel lists no 'slots' event: no PERF_METRICS"), -EFAULT;
	return snprintf(why, n, "rdpmc=2 and the kernel lists the 'slots' event (PERF_METRICS)"), 0;
}

static void check_expected(uint32_t ecx, const char *what, int sysfs)
{
	char why[160];
	int want = expect_probe(ecx == ECX_PERF_METRICS, sysfs, why, sizeof(why));

	if (want == -1) {
		skip(1, why);
		return;
	}
	printf("# %s: expecting %s: %s\n", what, want ? "a fault" : "success", why);
	check_int(rdpmc_probe(ecx), ==, want, what);
}

static void check_probe(void)
{
	struct sigaction before, after;
	int rc, sysfs, cpu = pin_here();

	unsetenv("BARETMA_SYSROOT");
	sysfs = cpu_env_rdpmc();
	printf("# machine: cpu %d, vendor %s, core PMU in sysfs %s, rdpmc sysfs %d\n", cpu,
	       vendor_is_intel() ? "Intel" : "not Intel",
	       exists(EVSRC "cpu") || exists(EVSRC "cpu_core") ? "yes" : "no", sysfs);
	if (cpu < 0)
		printf("# not pinned (%s): CPUID and the probe may see two CPUs\n", strerror(errno));
	sigaction(SIGSEGV, NULL, &before);
	rc = rdpmc_probe(ECX_FIXED_CTR3);
	/* -EIO would mean the child died some other way than the probe's
	 * own exits: the test process survived, and the child must too */
	ok(rc == 0 || rc == -EFAULT, "rdpmc_probe(FC3) returned %d (0 or -EFAULT), the test survived", rc);
	sigaction(SIGSEGV, NULL, &after);
	ok(before.sa_handler == after.sa_handler, "the probe left this process's SIGSEGV handler alone");
	ok(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD, "the probe left no child behind");
	check_expected(ECX_FIXED_CTR3, "rdpmc_probe(FC3)", sysfs);
	check_expected(ECX_PERF_METRICS, "rdpmc_probe(PERF_METRICS)", sysfs);
}

/* ------------------------------------------ hosts that reap children */

static volatile sig_atomic_t host_signals, host_reaped;

/* A host's SIGCHLD handler that reaps every child it can, as shells,
 * servers and language runtimes do. */
static void host_reaper(int sig)
{
	int saved = errno;

	(void)sig;
	host_signals++;
	while (waitpid(-1, NULL, WNOHANG) > 0)
		host_reaped++;
	errno = saved;
}

/* @rounds probes of fixed counter 3 under the SIGCHLD disposition @sa;
 * each must give @want (or, when unknowable, @plain: what this process
 * got with the default disposition). */
static void probe_as_host(const struct sigaction *sa, const char *host, int want, int plain)
{
	struct sigaction old, now;
	int rc = 0, bad = 0;

	host_signals = host_reaped = 0;
	sigaction(SIGCHLD, sa, &old);
	for (int i = 0; i < 8; i++) {
		rc = rdpmc_probe(ECX_FIXED_CTR3);
		if (rc != (want == -1 ? plain : want))
			bad++;
	}
	sigaction(SIGCHLD, &old, &now);
	ok(bad == 0, "%s: 8 probes give the answer of a plain process (%d differ)", host, bad);
	if (bad)
		printf("#   last probe gave %d (%s), want %d\n", rc, strerror(-rc),
		       want == -1 ? plain : want);
	ok(now.sa_handler == sa->sa_handler, "%s: its SIGCHLD disposition is left in place", host);
	ok(host_signals == 0, "%s: its handler was never called (%d calls)", host, (int)host_signals);
	ok(host_reaped == 0, "%s: it reaped no probe child (%d reaped)", host, (int)host_reaped);
	ok(waitpid(-1, NULL, WNOHANG | __WALL) < 0 && errno == ECHILD,
	   "%s: no child left behind, clone children included (__WALL)", host);
}

/* The probe in a process that ignores SIGCHLD (the kernel then reaps
 * SIGCHLD children itself) and in one whose handler reaps every child:
 * the same answer as with the default disposition, decided from outside
 * as check_expected does. */
static void check_hosts(void)
{
	struct sigaction sa;
	char why[160];
	int plain = rdpmc_probe(ECX_FIXED_CTR3);
	int want = expect_probe(false, cpu_env_rdpmc(), why, sizeof(why));

	printf("# hosts: expecting %d (%s); default disposition gave %d\n", want, why, plain);
	if (want == -1)
		ok(plain == 0 || plain == -EFAULT, "default disposition: 0 or -EFAULT (got %d)", plain);
	else
		check_int(plain, ==, want, "default disposition: the expected answer");
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_IGN;
	probe_as_host(&sa, "SIGCHLD ignored", want, plain);
	sa.sa_handler = host_reaper;
	sa.sa_flags = SA_RESTART;
	probe_as_host(&sa, "SIGCHLD handler reaping waitpid(-1, WNOHANG)",
		      want, plain);
	sa.sa_flags = 0;
	probe_as_host(&sa, "the reaping handler without SA_RESTART", want,
		      plain);
}

/* May this process open a user-only perf event on itself?  1 yes, 0 no,
 * -1 unknown (@why).  kernel/events/core.c perf_event_open: paranoid <= 2
 * lets anyone count their own task in user mode; above 2 (a distribution
 * patch) needs CAP_PERFMON (38) or CAP_SYS_ADMIN (21); a seccomp filter
 * may refuse the call whatever these say. */
static int may_open_perf(char *why, size_t n)
{
	unsigned long long cap = 0;
	int paranoid = 99, seccomp = -1;
	char line[256];
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");

	if (f) {
		if (fscanf(f, "%d", &paranoid) != 1)
			paranoid = 99;
		fclose(f);
	}
	f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof(line), f)) {
		sscanf(line, "CapEff: %llx", &cap);
		sscanf(line, "Seccomp: %d", &seccomp);
	}
	if (f)
		fclose(f);
	if (seccomp != 0)
		return snprintf(why, n, "seccomp mode %d: a filter may refuse perf_event_open", seccomp), -1;
	if (paranoid == 99)
		return snprintf(why, n, "perf_event_paranoid unreadable"), -1;
	if (paranoid <= 2 || (cap & (1ull << 38)) || (cap & (1ull << 21)))
		return snprintf(why, n, "perf_event_paranoid %d, CapEff %llx: allowed", paranoid, cap), 1;
	return snprintf(why, n, "perf_event_paranoid %d without CAP_PERFMON/CAP_SYS_ADMIN", paranoid), 0;
}

static void check_enable_self(void)
{
	bool pmu = exists(EVSRC "cpu") || exists(EVSRC "cpu_core");
	int sysfs = cpu_env_rdpmc(), fd = -12345, rc, may;
	char why[160];

	if (!pmu) {
		/* no PMU driver: perf_event_open has no event to give */
		rc = rdpmc_enable_self(&fd);
		printf("# rdpmc_enable_self: %d (%s)\n", rc, rc ? strerror(-rc) : "ok");
		ok(rc < 0, "rdpmc_enable_self fails without a core PMU");
		check_int(fd, ==, -12345, "and leaves *fd alone");
		return;
	}
	may = may_open_perf(why, sizeof(why));
	if (may < 0 || sysfs < 0) {
		skip(2, may < 0 ? why : "rdpmc sysfs unreadable");
		return;
	}
	rc = rdpmc_enable_self(&fd);
	printf("# rdpmc_enable_self: %d (%s); %s; rdpmc %d\n", rc, rc ? strerror(-rc) : "ok", why, sysfs);
	if (!may) {
		ok(rc < 0, "rdpmc_enable_self is refused (%s)", why);
		check_int(fd, ==, -12345, "and leaves *fd alone");
	} else if (sysfs == 0) {
		/* rdpmc=0: the event opens, but the kernel clears cap_user_rdpmc */
		check_int(rc, ==, -EOPNOTSUPP, "rdpmc=0: rdpmc_enable_self says RDPMC stays off");
		check_int(fd, ==, -12345, "and leaves *fd alone");
	} else {
		check_int(rc, ==, 0, "rdpmc_enable_self gives a key (rdpmc 1 or 2, perf allowed)");
		/* with the key mapped, rdpmc=1 or 2 lets this mm read; general
		 * counter 0 exists on every core kind and vendor with a PMU
		 * (RDPMC ECX 0: SDM; linux x86_pmu_event_idx) */
		check_int(rc ? -1 : rdpmc_probe(ECX_GP_CTR0), ==, 0, "RDPMC works while the key is held");
		if (!rc)
			rdpmc_disable_self(fd);
	}
}

/* ------------------------------------------------------ fake sysfs */

static char root[PATH_MAX];

/* mkdir -p of @path's parent directories (under the temp root) */
static void mkdirs_for(char *path)
{
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
}

static void put(const char *rel, const char *content)
{
	char path[PATH_MAX];
	FILE *f;

	t_path(path, "%s/%s", root, rel);
	mkdirs_for(path);
	f = fopen(path, "w");
	if (!f)
		return;
	fputs(content, f);
	fclose(f);
}

/* rm -r of the fake sys/ tree: only the files put() can create */
static void clear_tree(void)
{
	static const char *const pmus[] = { "cpu", "cpu_core", "cpu_atom" };
	static const char *const dirs[] = {
		"sys/bus/event_source/devices", "sys/bus/event_source", "sys/bus", "sys",
	};
	char path[PATH_MAX];

	for (size_t i = 0; i < sizeof(pmus) / sizeof(pmus[0]); i++) {
		t_path(path, "%s/sys/bus/event_source/devices/%s/rdpmc", root, pmus[i]);
		unlink(path);
		*strrchr(path, '/') = '\0';
		rmdir(path);
	}
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		t_path(path, "%s/%s", root, dirs[i]);
		rmdir(path);
	}
}

static void check_sysfs(void)
{
	const char *t = getenv("TMPDIR");

	t_path(root, "%s/baretma-0420-XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(root))
		return (void)ok(0, "mkdtemp");
	setenv("BARETMA_SYSROOT", root, 1);

	put("sys/bus/event_source/devices/cpu/rdpmc", "2\n");
	check_int(cpu_env_rdpmc(), ==, 2, "cpu/rdpmc '2' gives 2");
	put("sys/bus/event_source/devices/cpu/rdpmc", "0\n");
	check_int(cpu_env_rdpmc(), ==, 0, "cpu/rdpmc '0' gives 0");
	put("sys/bus/event_source/devices/cpu_core/rdpmc", "1\n");
	check_int(cpu_env_rdpmc(), ==, 0, "cpu/ wins over cpu_core/ when both exist");
	clear_tree();

	put("sys/bus/event_source/devices/cpu_core/rdpmc", "1\n");
	check_int(cpu_env_rdpmc(), ==, 1, "hybrid: cpu_core/rdpmc '1' gives 1");
	clear_tree();

	put("sys/bus/event_source/devices/cpu_atom/rdpmc", "2\n");
	check_int(cpu_env_rdpmc(), ==, -ENOENT, "neither cpu/ nor cpu_core/: -ENOENT");
	clear_tree();

	put("sys/bus/event_source/devices/cpu/rdpmc", "junk\n");
	check_int(cpu_env_rdpmc(), ==, -EINVAL, "'junk' gives -EINVAL");
	put("sys/bus/event_source/devices/cpu/rdpmc", "3\n");
	check_int(cpu_env_rdpmc(), ==, -EINVAL, "'3' (the kernel refuses > 2) gives -EINVAL");
	put("sys/bus/event_source/devices/cpu/rdpmc", "12\n");
	check_int(cpu_env_rdpmc(), ==, -EINVAL, "'12' gives -EINVAL");
	put("sys/bus/event_source/devices/cpu/rdpmc", "");
	check_int(cpu_env_rdpmc(), ==, -EINVAL, "an empty file gives -EINVAL");

	clear_tree();
	rmdir(root);
	unsetenv("BARETMA_SYSROOT");
}

int main(void)
{
	check_probe();
	check_hosts();
	check_enable_self();
	check_sysfs();
	return done_testing();
}
