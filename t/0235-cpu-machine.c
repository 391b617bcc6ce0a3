/*
 * t/0235-cpu-machine.c - "which machine" (cpu/machine.h): the machine a
 * CPUID dump describes gives the CPU numbers (which exist, which one is
 * chosen), the machine we run on gives the hypervisor, the environment and
 * pinning; a dump never pins, never reaches this machine's MSR device, and
 * RDPMC is never probed for its CPUs (bench_topdown_check, bench_identify).
 *
 * Known answers come from outside the code under test:
 *   - logical CPUs of a dump: $SHARED_CPUID/INDEX.tsv logical_cpus_in_dump
 *     (Ice Lake i7-1065G7: 8; Alder Lake-P i7-12700H: 20; the Raptor Lake-P
 *     hwloc directory: 20);
 *   - which CPUs are P-cores: the dump's own CPUID leaf 0x1A lines, read
 *     here (AIDA64 "CPUID 0000001A:" per "Logical CPU #N" section, hwloc
 *     "mask 1a 0 0 0 => eax ..." per puN file; EAX[31:24] 0x40 = Core,
 *     linux intel-family.h INTEL_CPU_TYPE_ATOM/CORE);
 *   - this machine: /proc/cpuinfo's "hypervisor" flag (the kernel's
 *     X86_FEATURE_HYPERVISOR, CPUID.1:ECX[31]), sched_getaffinity();
 *   - the environment: files written here under BARETMA_SYSROOT;
 *   - the MSR device path and remedy: msr/access/msr_dev.c's template
 *     ("no MSR device '<path>' (try: modprobe msr)", README).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench.h"
#include "cpu/environ.h"
#include "cpu/machine.h"
#include "msr/open/msr_open.h"
#include "t/fixture.h"

static char shared[2048], tmp[1024];
static struct cpu_info ci; /* large: kept off the stack */

/* ----------------------------------------------------- outside answers */

/* INDEX.tsv logical_cpus_in_dump (column 11) of @file, or -1. */
static int index_cpus(const char *file)
{
	char path[2300], line[8192];
	int n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/INDEX.tsv", shared);
	if (!(f = fopen(path, "r")))
		return -1;
	while (n < 0 && fgets(line, sizeof(line), f)) {
		char *p = line, *tok = strsep(&p, "\t");

		if (strcmp(tok, file))
			continue;
		for (int i = 1; i <= 10 && p; i++)
			tok = strsep(&p, "\t");
		if (tok)
			n = atoi(tok);
	}
	fclose(f);
	return n;
}

/* The last P-core (leaf 0x1A core type 0x40) of an AIDA64 dump, or -1. */
static int aida_last_pcore(const char *path)
{
	char line[512];
	int cpu = -1, last = -1;
	unsigned eax;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *hash = strstr(line, "Logical CPU #");

		if (hash)
			cpu = atoi(hash + strlen("Logical CPU #"));
		else if (sscanf(line, "CPUID 0000001A: %x", &eax) == 1 && (eax >> 24) == 0x40 &&
			 cpu > last)
			last = cpu;
	}
	fclose(f);
	return last;
}

/* The last P-core of a hwloc-gather-cpuid directory, or -1. */
static int hwloc_last_pcore(const char *dir)
{
	char path[2400], line[256];
	unsigned mask, in[4], out[4];
	int last = -1;

	for (unsigned pu = 0;; pu++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/pu%u", dir, pu);
		if (!(f = fopen(path, "r")))
			return last;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "%x %x %x %x %x => %x %x %x %x", &mask, &in[0], &in[1],
				   &in[2], &in[3], &out[0], &out[1], &out[2], &out[3]) == 9 &&
			    in[0] == 0x1a && in[2] == 0 && (out[0] >> 24) == 0x40)
				last = (int)pu;
		fclose(f);
	}
}

/* /proc/cpuinfo names the "hypervisor" flag: 1, 0, or -1 when unreadable. */
static int cpuinfo_hypervisor(void)
{
	char line[8192];
	int found = -1;
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f)
		return -1;
	while (found < 1 && fgets(line, sizeof(line), f))
		if (!strncmp(line, "flags", 5)) {
			found = strstr(line, " hypervisor") != NULL;
			break;
		}
	fclose(f);
	return found;
}

static int last_allowed_cpu(void)
{
	cpu_set_t set;
	int last = -1;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			last = c;
	return last;
}

/* ----------------------------------------------------------- the tests */

/* Whatever machine is described, the host is this machine. */
static void check_host(const struct cpu_machine *m, const char *what)
{
	const struct cpu_host *h = cpu_machine_host(m);
	int hv = cpuinfo_hypervisor();

	if (hv < 0) {
		skip(1, "no /proc/cpuinfo flags");
		return;
	}
	ok(!!h->hypervisor == hv, "%s: the hypervisor is this machine's (%s; /proc/cpuinfo "
	   "flag %s)", what, h->hypervisor ? h->hypervisor : "none", hv ? "set" : "clear");
}

static void check_icl(void)
{
	char path[2300], *err = NULL;
	struct cpu_machine *m;
	unsigned cpus[16], n;
	cpu_set_t before, after;
	bool mem = true;
	int want = index_cpus("libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test");

	snprintf(path, sizeof(path), "%s/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test",
		 shared);
	if (!ok(want == 8 && cpu_machine_open(path, &m, &err) == 0,
		"Ice Lake dump opens (INDEX.tsv: %d CPUs) %s", want, err ? err : "")) {
		skip(14, "no Ice Lake dump");
		return;
	}
	ok(cpu_machine_is_dump(m) && !strcmp(cpu_machine_name(m), path), "a dump, named by its path");
	ok(cpu_machine_topo(m) == NULL, "a single-file dump has no topology");
	n = cpu_machine_cpus(m, cpus, 16);
	ok(n == 8 && cpus[0] == 0 && cpus[7] == 7, "its CPUs: 0-7 (%u)", n);
	check_int(cpu_machine_check_cpu(m, 5), ==, 0, "cpu 5 is the dump's (whatever this machine has)");
	check_int(cpu_machine_check_cpu(m, 8), ==, -ENXIO, "cpu 8 is not");
	ok(cpu_info_identify(cpu_machine_source(m), NULL, &ci) == 0 && !ci.hypervisor,
	   "the dump was taken on bare metal (CPUID.1:ECX[31] clear)");
	check_int(cpu_machine_choose(m, &ci, -1), ==, want - 1, "default: the dump's last CPU");
	check_int(cpu_machine_choose(m, &ci, 5), ==, 5, "--cpu 5 of the dump");
	check_int(cpu_machine_choose(m, &ci, 99), ==, -ENXIO, "--cpu 99: -ENXIO");
	ok(!cpu_machine_can_pin(m), "a dump never pins");
	sched_getaffinity(0, sizeof(before), &before);
	check_int(cpu_machine_pin(m, 0, &mem), ==, -EXDEV, "pinning to a dump's CPU: -EXDEV");
	sched_getaffinity(0, sizeof(after), &after);
	ok(CPU_EQUAL(&before, &after) && !mem, "and nothing was bound");
	check_host(m, "Ice Lake dump");
	{
		char *why = strdup("x");

		check_int(cpu_machine_check_kinds(m, &ci, &why), ==, 0,
			  "no topology to compare kinds with");
		ok(why == NULL, "and no disagreement said");
	}
	cpu_machine_free(m);
}

static void check_hybrid(void)
{
	struct t_env saved[CPU_TOPO_DUMP_ENV_MAX];
	char path[2300], *err = NULL;
	struct cpu_machine *m;
	unsigned cpus[32];
	size_t nenv;
	int last, rc;

	snprintf(path, sizeof(path), "%s/libcpuid/v0.6.2/intel/core_12th_gen/alder-lake-p-i7.test",
		 shared);
	last = aida_last_pcore(path);
	if (!ok(last >= 0 && cpu_machine_open(path, &m, &err) == 0,
		"Alder Lake-P dump opens (last P-core by its leaf 0x1A: %d)", last)) {
		skip(3, "no Alder Lake-P dump");
		return;
	}
	check_int(cpu_machine_cpus(m, cpus, 32), ==,
		  index_cpus("libcpuid/v0.6.2/intel/core_12th_gen/alder-lake-p-i7.test"),
		  "its CPUs: INDEX.tsv's count");
	ok(cpu_info_identify(cpu_machine_source(m), NULL, &ci) == 0, "identified");
	check_int(cpu_machine_choose(m, &ci, -1), ==, last, "default: the dump's last P-core");
	cpu_machine_free(m);

	snprintf(path, sizeof(path), "%s/hwloc/Intel-RaptorLake-Corei7-1370P", shared);
	last = hwloc_last_pcore(path);
	/* hwloc takes the directory from the environment the caller sets */
	nenv = t_hwloc_dump_env(saved, path);
	rc = last >= 0 ? cpu_machine_open(path, &m, &err) : -1;
	t_hwloc_dump_env_put_back(saved, nenv);
	if (!ok(rc == 0, "Raptor Lake-P hwloc directory opens (last P-core by its leaf 0x1A: %d)",
		last)) {
		skip(4, "no Raptor Lake-P directory");
		return;
	}
	ok(cpu_machine_topo(m) && cpu_topo_is_dump(cpu_machine_topo(m)),
	   "a hwloc directory has its own topology (not this system)");
	check_int(cpu_machine_cpus(m, cpus, 32), ==,
		  index_cpus("hwloc/Intel-RaptorLake-Corei7-1370P"), "its CPUs: INDEX.tsv's count");
	ok(cpu_info_identify(cpu_machine_source(m), NULL, &ci) == 0 &&
	   cpu_machine_choose(m, &ci, -1) == last, "default: the directory's last P-core");
	ok(!cpu_machine_can_pin(m) && cpu_machine_pin(m, (unsigned)last, NULL) == -EXDEV,
	   "never pinned");
	cpu_machine_free(m);
}

static void check_live(void)
{
	char *err = NULL;
	struct cpu_machine *m;
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	unsigned cpus[CPU_MAX_CPUS];

	/* The kernel's online list (main's fake /sys) says only CPU 0 is online. */
	if (!ok(cpu_machine_open(NULL, &m, &err) == 0, "live machine opens %s", err ? err : "")) {
		skip(7, "no live machine");
		return;
	}
	ok(!cpu_machine_is_dump(m) && !strcmp(cpu_machine_name(m), "this machine"), "live");
	check_int(cpu_machine_check_cpu(m, (unsigned)conf), ==, -ENXIO,
		  "a CPU beyond the configured ones: -ENXIO");
	check_host(m, "live");
	if (conf > 1 && cpu_machine_cpus(m, cpus, CPU_MAX_CPUS) == 1)
		check_int(cpu_machine_check_cpu(m, 1), ==, -ENODEV,
			  "cpu 1 not in the online list '0': -ENODEV (offline)");
	else
		skip(1, conf > 1 ? "online list not read from BARETMA_SYSROOT" : "one CPU");
	ok(cpu_info_identify(cpu_machine_source(m), NULL, &ci) == 0, "live identified");
	if (!ci.hybrid && !getenv("HWLOC_CPUID_PATH"))
		check_int(cpu_machine_choose(m, &ci, -1), ==, last_allowed_cpu(),
			  "default: the last CPU this process may run on");
	else
		skip(1, "hybrid or a foreign topology");
	ok(cpu_machine_can_pin(m) || getenv("HWLOC_CPUID_PATH"), "the live machine pins");
	cpu_machine_free(m);
}

/* The environment is this machine's: CPU 0's per-CPU files for a dump's CPU. */
static void check_env(void)
{
	char path[2300];
	struct cpu_machine *m;
	struct cpu_env e;

	snprintf(path, sizeof(path), "%s/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test",
		 shared);
	if (cpu_machine_open(path, &m, NULL)) {
		skip(1, "no Ice Lake dump");
		return;
	}
	cpu_machine_env_read(m, 5, &e);
	check_str(e.governor, "powersave", "a dump's cpu 5: this machine's cpu 0 governor, "
		  "not cpu 5's (another machine's number)");
	cpu_machine_free(m);
}

/* Availability: a dump's CPU behind this machine's device; RDPMC not probed. */
static void check_avail(void)
{
	char path[2300], dev_tpl[1100], state[1100];
	struct cpu_machine *dump, *live;
	struct msr_dev *dev = NULL, *st = NULL;
	struct bench_avail a = { 0 };
	char why[512];

	snprintf(path, sizeof(path), "%s/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test",
		 shared);
	if (cpu_machine_open(path, &dump, NULL) || cpu_machine_open(NULL, &live, NULL)) {
		skip(15, "no Ice Lake dump");
		return;
	}
	cpu_info_identify(cpu_machine_source(dump), NULL, &ci);
	snprintf(dev_tpl, sizeof(dev_tpl), "%s/nodev/cpu/%%u/msr", tmp);
	snprintf(state, sizeof(state), "%s/state", tmp);
	/* with the general-purpose counters Ice Lake's recipe counts beside
	 * PERF_METRICS (msr/recipe/recipes_intel_pm.c): IA32_PERFEVTSELx, IA32_PMCx,
	 * IA32_A_PMCx */
	put_file(state, "1 0x30c 0x0\n1 0x329 0x0\n1 0x345 0xf4c5\n1 0x38d 0x333\n"
		 "1 0x38f 0x70000000f\n"
		 "1 0x186 0x0\n1 0xc1 0x0\n1 0x4c1 0x0\n"
		 "1 0x187 0x0\n1 0xc2 0x0\n1 0x4c2 0x0\n"
		 "1 0x188 0x0\n1 0xc3 0x0\n1 0x4c3 0x0\n"
		 "1 0x189 0x0\n1 0xc4 0x0\n1 0x4c4 0x0\n"
		 "1 0x18a 0x0\n1 0xc5 0x0\n1 0x4c5 0x0\n"
		 "1 0x18b 0x0\n1 0xc6 0x0\n1 0x4c6 0x0\n"
		 "1 0x18c 0x0\n1 0xc7 0x0\n1 0x4c7 0x0\n"
		 "1 0x18d 0x0\n1 0xc8 0x0\n1 0x4c8 0x0\n");
	ok(msr_open(dev_tpl, &dev) == 0 && msr_open(NULL, &st) == 0 && dev && st,
	   "a device backend and a state backend");
	ok(!bench_msr_reaches(dump, dev) && bench_msr_reaches(dump, st) &&
	   bench_msr_reaches(live, dev) && !bench_msr_reaches(dump, NULL),
	   "a dump's CPUs: reached through a state file only; live: through the device");

	/* Ice Lake's CPUID with the live machine object: the device's own reason. */
	bench_topdown_check(live, &ci, 1, dev, &a);
	snprintf(why, sizeof(why), "no MSR device '%s/nodev/cpu/1/msr' (try: modprobe msr)", tmp);
	ok(a.why == TD_NO_MSR_DEVICE && !strcmp(bench_avail_reason(&a), why),
	   "live: a missing device is named with its remedy (%s)", bench_avail_reason(&a));

	bench_topdown_check(dump, &ci, 1, dev, &a);
	ok(a.why == TD_OTHER_MACHINE && a.level == 0, "dump + this machine's device: TD_OTHER_MACHINE");
	ok(strstr(bench_avail_reason(&a), path) && strstr(bench_avail_reason(&a), "level 1") &&
	   strstr(bench_avail_reason(&a), "BARETMA_MSR=state:FILE") &&
	   !strstr(bench_avail_reason(&a), "/nodev/") && !strstr(bench_avail_reason(&a), "modprobe"),
	   "the reason names the dump, its level and the dry run, not this machine's device: %s",
	   bench_avail_reason(&a));

	bench_topdown_check(dump, &ci, 1, st, &a);
	ok(a.why == TD_OK && a.level == 1 && a.msr_ok, "dump + state file: level 1 (%s)",
	   bench_avail_reason(&a));
	ok(a.rdpmc_dump && !a.rdpmc_ok, "RDPMC is not probed for a dump's CPU");
	bench_rdpmc_reason(&a, why, sizeof(why));
	ok(strstr(why, "CPUID dump") && !strstr(why, "--rdpmc-always"),
	   "and the reason says why, without this machine's rdpmc remedy: %s", why);
	a.rdpmc_dump = false;
	a.rdpmc_sysfs = 0;
	bench_rdpmc_reason(&a, why, sizeof(why));
	ok(strstr(why, "rdpmc = 0") && strstr(why, "--rdpmc-always"),
	   "live CPU with rdpmc 0: the flag that would change it: %s", why);

	/* IA32_PERF_CAPABILITIES: from the state file (the dump's stand-in),
	 * never from this machine's device. */
	ok(bench_identify(dump, st, 1, &ci) == 0 && ci.perf_caps_read && ci.perf_caps == 0xf4c5,
	   "dump + state file: IA32_PERF_CAPABILITIES read (0xf4c5)");
	ok(bench_identify(dump, dev, 1, &ci) == 0 && !ci.perf_caps_read,
	   "dump + device: not read");
	{
		uint64_t caps = 0;

		check_int(bench_perf_caps(dump, st, 1, &caps), ==, 0, "bench_perf_caps: cpu 1 read");
		check_u64(caps, ==, 0xf4c5, "the state file's value");
		check_int(bench_perf_caps(dump, dev, 1, &caps), ==, -EXDEV,
			  "through this machine's device for a dump's CPU: -EXDEV");
		check_int(bench_perf_caps(dump, st, 0, &caps), ==, -ENXIO,
			  "cpu 0, absent from the state file: the backend's -ENXIO");
	}
	bench_avail_release(&a);
	msr_close(dev);
	msr_close(st);
	cpu_machine_free(dump);
	cpu_machine_free(live);
}

int main(void)
{
	const char *dir = getenv("SHARED_CPUID"), *base = getenv("BARETMA_STATE_DIR");
	char p[1300];
	struct stat st;

	if (!dir || stat(dir, &st))
		skip_all("no $SHARED_CPUID");
	snprintf(shared, sizeof(shared), "%s", dir);
	snprintf(tmp, sizeof(tmp), "%s/t0235", base ? base : "/tmp");
	mkdir(tmp, 0700);
	/* A fake /sys: CPU 0 online only; governors of cpu 0 and cpu 5. */
	snprintf(p, sizeof(p), "%s/sys", tmp);
	mkdir(p, 0700);
	setenv("BARETMA_SYSROOT", p, 1);
	for (const char *d = "/sys\0/sys/devices\0/sys/devices/system\0/sys/devices/system/cpu\0"
	     "/sys/devices/system/cpu/cpu0\0/sys/devices/system/cpu/cpu0/cpufreq\0"
	     "/sys/devices/system/cpu/cpu5\0/sys/devices/system/cpu/cpu5/cpufreq\0"; *d;
	     d += strlen(d) + 1) {
		snprintf(p, sizeof(p), "%s/sys%s", tmp, d);
		mkdir(p, 0700);
	}
	snprintf(p, sizeof(p), "%s/sys/sys/devices/system/cpu/online", tmp);
	put_file(p, "0\n");
	snprintf(p, sizeof(p), "%s/sys/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", tmp);
	put_file(p, "powersave\n");
	snprintf(p, sizeof(p), "%s/sys/sys/devices/system/cpu/cpu5/cpufreq/scaling_governor", tmp);
	put_file(p, "performance\n");
	snprintf(p, sizeof(p), "state:%s/state", tmp);
	setenv("BARETMA_MSR", p, 1);

	check_icl();
	check_hybrid();
	check_live();
	check_env();
	check_avail();
	return done_testing();
}
