/*
 * bench/benchmarks/timings.c - how long baretma takes on this machine: the
 * timings the test suite must not assert (they measure the machine, its
 * load and the build, e.g. ASan, as much as baretma).  Run by
 * `make benchmark`, never by `make check`.
 *
 * Reports, with the machine it ran on and the spread over --runs runs
 * (min / median / max):
 *   - each kernel's setup() (the JIT chain, the pointer-chase cycle, the
 *     branch data), in seconds, against a budget of 2 s: the default bench
 *     (about 220 repetitions of each kernel) should end within a minute on
 *     a small machine;
 *   - each kernel's run() (one repetition) in TSC ticks, LFENCE-bracketed,
 *     and its ratio to the empty bracket;
 *   - the wall time of a default `baretma bench` (TSC backend where no
 *     PMU can be used), against a budget of 60 s;
 *   - the default simulated bench: `baretma bench --cpuid-dump DUMP` with
 *     BARETMA_MSR=sim:PROFILE, for each --sim-dump, its CPU seconds (user
 *     + system) and peak RSS, each of that child alone (wait4's rusage),
 *     against issue 30's budgets of 0.2 s and 32 MiB, judged on the median
 *     (CPU time grows with the load, so its max says more of the machine).
 * A time over its budget is flagged "OVER"; the exit status is 0 unless a
 * measurement could not be made (1) or the options are wrong (64).
 *
 * usage: timings [--runs N] [--baretma PATH [--sim-profile PROFILE
 *                 --sim-dump DUMP...]]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/benchmarks/machine.h"
#include "bench/bench.h"
#include "bench/stats.h"
#include "cpu/cpu.h"
#include "msr/regs/rdpmc.h"

#define SETUP_BUDGET_S 2.0
#define BENCH_BUDGET_S 60.0
#define RUN_REPS 101 /* run() repetitions per kernel and run */
#define SIM_CPU_BUDGET_S   0.2  /* issue 30, "The simulator" */
#define SIM_RSS_BUDGET_MIB 32.0
#define SIM_DUMPS_MAX      4

static void print_machine(int runs)
{
	struct utsname u;
	char model[256], load[128];

	uname(&u);
	file_field("/proc/cpuinfo", "model name", model, sizeof(model));
	loadavg(load, sizeof(load));
	printf("machine: %s %s %s; %s; %ld CPUs online\n", u.sysname, u.release, u.machine,
	       model, sysconf(_SC_NPROCESSORS_ONLN));
	printf("build: %s; runs: %d\n",
#if defined(__SANITIZE_ADDRESS__)
	       "AddressSanitizer",
#else
	       "plain",
#endif
	       runs);
	printf("load average at start: %s\n", load);
}

/* One line: min, median, max of @v in @unit; with a @budget (> 0), whether
 * the max (or, @by_median, the median) is over it. */
static void print_stats_by(const char *what, const char *unit, const double *v, int n,
			   double budget, bool by_median)
{
	struct bench_stats st;
	double judged;

	if (bench_stats_compute(v, (size_t)n, &st))
		return;
	judged = by_median ? st.median : st.max;
	printf("  %-26s min %10.4g  median %10.4g  max %10.4g %s", what, st.min, st.median,
	       st.max, unit);
	if (budget > 0)
		printf("  (budget %g %s%s: %s)", budget, unit, by_median ? ", median" : "",
		       judged > budget ? "OVER" : "within");
	printf("\n");
}

static void print_stats(const char *what, const char *unit, const double *v, int n,
			double budget)
{
	print_stats_by(what, unit, v, n, budget, false);
}

/* One kernel: @runs timed setups, and RUN_REPS timed run()s after each. */
static int time_kernel(const struct bench_kernel *k, uint64_t llc, int runs, double empty)
{
	double *setup = calloc((size_t)runs, sizeof(double));
	double *ticks = calloc((size_t)runs * RUN_REPS, sizeof(double));
	struct bench_stats st;
	char what[64];
	int rc = 0;

	if (!setup || !ticks) {
		rc = -ENOMEM;
		goto out;
	}
	for (int r = 0; r < runs && !rc; r++) {
		struct bench_kernel_ctx c = { .llc_bytes = llc };
		double t0 = mono_s();

		if (k->setup && (rc = k->setup(&c)) != 0)
			break;
		setup[r] = mono_s() - t0;
		k->run(&c); /* warm-up */
		for (int i = 0; i < RUN_REPS; i++) {
			uint64_t a = rdtsc_fenced();

			k->run(&c);
			ticks[r * RUN_REPS + i] = (double)(rdtsc_fenced() - a);
		}
		if (k->teardown)
			k->teardown(&c);
	}
	if (rc) {
		fprintf(stderr, "timings: %s: setup: %s\n", k->name, strerror(-rc));
		goto out;
	}
	printf("%s\n", k->name);
	if (k->setup)
		print_stats("setup", "s", setup, runs, SETUP_BUDGET_S);
	print_stats("run (one repetition)", "TSC ticks", ticks, runs * RUN_REPS, 0);
	if (empty > 0 && !bench_stats_compute(ticks, (size_t)runs * RUN_REPS, &st)) {
		snprintf(what, sizeof(what), "min / empty bracket min");
		printf("  %-26s %.1fx\n", what, st.min / empty);
	}
out:
	free(setup);
	free(ticks);
	return rc;
}

/* Wall time of `@baretma bench` (default options), output discarded. */
static double time_bench(const char *baretma)
{
	double t0 = mono_s();
	int status = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execl(baretma, baretma, "bench", (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return -1;
	return mono_s() - t0;
}

/*
 * One default `@baretma bench --cpuid-dump @dump` on the simulated PMU of
 * @profile (BARETMA_MSR=sim:, set in the child only), output discarded:
 * *@cpu its user + system seconds, *@rss_mib its peak RSS, both of that
 * child alone (wait4).  0, or -1 when it could not run or did not exit 0.
 */
static int sim_bench(const char *baretma, const char *dump, const char *profile, double *cpu,
		     double *rss_mib)
{
	struct rusage ru;
	int status = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char spec[4096];
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		snprintf(spec, sizeof(spec), "sim:%s", profile);
		setenv("BARETMA_MSR", spec, 1);
		execl(baretma, baretma, "bench", "--cpuid-dump", dump, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return -1;
	*cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
	*rss_mib = (double)ru.ru_maxrss / 1024.0; /* Linux: kilobytes (getrusage(2)) */
	return 0;
}

/* The default simulated bench of one dump, @runs times. */
struct sim_runs {
	const char *dump;
	bool absent;          /* the dump or the profile is not there (the shared
			       * dumps are optional): said, not measured */
	int err;              /* errno of the absent file */
	bool failed;          /* a run could not be made or did not exit 0 */
	double cpu[64], rss[64]; /* per run: CPU seconds, peak RSS in MiB */
};

/*
 * Measure @sr->dump's runs.  Called before this process maps anything
 * large: a child's ru_maxrss counts the RSS it had before its exec, which
 * fork copies from the parent (linux fs/exec.c exec_mmap,
 * setmax_mm_hiwater_rss), so a parent bigger than baretma would be
 * measured instead of it.
 */
static void sim_measure(const char *baretma, const char *profile, int runs, struct sim_runs *sr)
{
	if (access(sr->dump, R_OK) != 0 || access(profile, R_OK) != 0) {
		sr->err = errno;
		sr->absent = true;
		return;
	}
	for (int r = 0; r < runs && !sr->failed; r++)
		sr->failed = sim_bench(baretma, sr->dump, profile, &sr->cpu[r], &sr->rss[r]) != 0;
}

/* Print @sr's runs; 0, or 1 when a run failed. */
static int sim_print(const char *baretma, const char *profile, int runs,
		     const struct sim_runs *sr)
{
	printf("\ndefault simulated bench: CPU seconds and peak RSS of '%s bench --cpuid-dump %s' "
	       "(BARETMA_MSR=sim:%s)\n", baretma, sr->dump, profile);
	if (sr->absent) {
		printf("  not measured: %s: %s\n", access(sr->dump, R_OK) ? sr->dump : profile,
		       strerror(sr->err));
		return 0;
	}
	if (sr->failed) {
		fprintf(stderr, "timings: the simulated '%s bench --cpuid-dump %s' failed\n",
			baretma, sr->dump);
		return 1;
	}
	print_stats_by("CPU seconds (user + sys)", "s", sr->cpu, runs, SIM_CPU_BUDGET_S, true);
	print_stats_by("peak RSS", "MiB", sr->rss, runs, SIM_RSS_BUDGET_MIB, true);
	return 0;
}

/* The empty kernel's fastest repetition: the bracket alone. */
static double empty_min(void)
{
	const struct bench_kernel *k = bench_kernel_find("empty");
	struct bench_kernel_ctx c = { 0 };
	double min = 0;

	for (int i = 0; k && i < RUN_REPS; i++) {
		uint64_t a = rdtsc_fenced();
		double t;

		k->run(&c);
		t = (double)(rdtsc_fenced() - a);
		if (i == 0 || t < min)
			min = t;
	}
	return min;
}

int main(int argc, char **argv)
{
	const char *baretma = NULL, *profile = NULL, *dumps[SIM_DUMPS_MAX];
	size_t ndumps = 0;
	static struct sim_runs sims[SIM_DUMPS_MAX];
	hwloc_topology_t topo;
	char load[128];
	uint64_t llc = 0;
	int runs = 5, status = 0;
	size_t n;
	const struct bench_kernel *k = bench_kernels(&n);
	double empty, *wall;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--runs") && i + 1 < argc && atoi(argv[i + 1]) > 0)
			runs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--baretma") && i + 1 < argc)
			baretma = argv[++i];
		else if (!strcmp(argv[i], "--sim-profile") && i + 1 < argc)
			profile = argv[++i];
		else if (!strcmp(argv[i], "--sim-dump") && i + 1 < argc && ndumps < SIM_DUMPS_MAX)
			dumps[ndumps++] = argv[++i];
		else {
			fprintf(stderr, "usage: timings [--runs N] [--baretma PATH [--sim-profile "
				"PROFILE --sim-dump DUMP...]]\n");
			return 64;
		}
	}
	if (ndumps && (!baretma || !profile)) {
		fprintf(stderr, "timings: --sim-dump needs --baretma and --sim-profile\n");
		return 64;
	}
	if (ndumps && runs > 64) {
		fprintf(stderr, "timings: --sim-dump takes at most 64 --runs\n");
		return 64;
	}
	/* first, while this process is small (sim_measure) */
	for (size_t i = 0; i < ndumps; i++) {
		sims[i].dump = dumps[i];
		sim_measure(baretma, profile, runs, &sims[i]);
	}
	if (!cpu_topo_load(&topo)) {
		llc = cpu_llc_bytes(topo, 0);
		hwloc_topology_destroy(topo);
	}
	print_machine(runs);
	printf("last-level cache: %llu bytes\n\n", (unsigned long long)llc);
	empty = empty_min();
	for (size_t i = 0; i < n; i++)
		if (time_kernel(&k[i], llc, runs, strcmp(k[i].name, "empty") ? empty : 0))
			status = 1;
	if (baretma) {
		wall = calloc((size_t)runs, sizeof(double));
		for (int r = 0; wall && r < runs; r++)
			if ((wall[r] = time_bench(baretma)) < 0) {
				fprintf(stderr, "timings: '%s bench' failed\n", baretma);
				status = 1;
				break;
			}
		if (wall && !status) {
			printf("\n'%s bench' (default options)\n", baretma);
			print_stats("wall time", "s", wall, runs, BENCH_BUDGET_S);
		}
		free(wall);
	}
	for (size_t i = 0; i < ndumps; i++)
		if (sim_print(baretma, profile, runs, &sims[i]))
			status = 1;
	loadavg(load, sizeof(load));
	printf("\nload average at end: %s\n", load);
	return status;
}
