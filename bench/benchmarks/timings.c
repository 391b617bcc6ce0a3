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
 *     PMU can be used), against a budget of 60 s.
 * A time over its budget is flagged "over"; the exit status is 0 unless a
 * measurement could not be made (1) or the options are wrong (64).
 *
 * usage: timings [--runs N] [--baretma PATH]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void loadavg(char *buf, size_t n)
{
	FILE *f = fopen("/proc/loadavg", "re");

	if (!f || !fgets(buf, (int)n, f))
		snprintf(buf, n, "?");
	buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
}

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

static void print_stats(const char *what, const char *unit, const double *v, int n,
			double budget)
{
	struct bench_stats st;

	if (bench_stats_compute(v, (size_t)n, &st))
		return;
	printf("  %-26s min %10.4g  median %10.4g  max %10.4g %s", what, st.min, st.median,
	       st.max, unit);
	if (budget > 0)
		printf("  (budget %g %s: %s)", budget, unit, st.max > budget ? "OVER" : "within");
	printf("\n");
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
		double t0 = now_s();

		if (k->setup && (rc = k->setup(&c)) != 0)
			break;
		setup[r] = now_s() - t0;
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
	double t0 = now_s();
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
	return now_s() - t0;
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
	const char *baretma = NULL;
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
		else {
			fprintf(stderr, "usage: timings [--runs N] [--baretma PATH]\n");
			return 64;
		}
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
	loadavg(load, sizeof(load));
	printf("\nload average at end: %s\n", load);
	return status;
}
