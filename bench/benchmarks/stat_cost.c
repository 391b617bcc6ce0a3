/*
 * bench/benchmarks/stat_cost.c - what `baretma stat` costs (issue 19,
 * "Speed"): one interval end per CPU - the reads, the tamper and overflow
 * checks, the counts and the frozen reset with the next interval's first
 * reading (bench/stat.h stat_cost_ns), outside any measured work - on the
 * simulated PMU (msr/sim/msr_sim.h) of a CPUID dump's CPUs, in one guarded run
 * as the command makes it; and the interval timer's drift: how late each
 * of 100 absolute deadlines 100 ms apart woke (stat_drift), median and
 * maximum in microseconds.  Run by `make benchmark`, never by `make check`
 * (it measures the machine as much as baretma).
 *
 * The simulator's accesses are function calls under a lock, not RDMSR
 * through the msr driver's system calls: the cost is stat's own work plus
 * the simulator's, a floor for the real device (doc/simulator.md "The simulated
 * PMU").
 *
 * usage: stat_cost --cpuid-dump FILE [--rounds N] [--intervals N] [--period MS]
 */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/source/avail.h"
#include "bench/stat.h"
#include "cpu/machine.h"
#include "msr/guard/guard.h"
#include "msr/access/msr.h"

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* A scratch directory for the profile and the run's journal and locks. */
static int scratch(char *dir, size_t n, char *profile, size_t pn)
{
	const char *t = getenv("TMPDIR");
	FILE *f;

	snprintf(dir, n, "%s/baretma-stat-cost-XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(dir))
		return -errno;
	snprintf(profile, pn, "%s/profile", dir);
	f = fopen(profile, "we");
	if (!f)
		return -errno;
	/* every cycle a work cycle at these shares (msr/sim/msr_sim.h) */
	fputs("ghz 1\naccess_cycles 0\nretiring 40\nbad_speculation 10\nfrontend_bound 20\n"
	      "backend_bound 30\n", f);
	return fclose(f) ? -errno : 0;
}

/* The cost per CPU of an interval end, in ns, inside one guarded run. */
static int cost(const char *dump, unsigned rounds, double *ns, int *ncpus)
{
	char *err = NULL, *why = NULL; /* err: cpu_machine_open's (a benchmark tool's own line) */
	struct cpu_machine *m = NULL;
	struct msr_dev *dev = NULL;
	struct stat_run *r = NULL;
	struct guard *g = NULL;
	struct guard_opts go = { .kind = JOURNAL_RUN, .cmd = "stat_cost",
				 .backend = getenv("BARETMA_MSR") };
	const unsigned *cpus;
	int rc = cpu_machine_open(dump, &m, &err);

	if (rc) {
		fprintf(stderr, "stat_cost: cannot read '%s': %s\n", dump, err ? err : strerror(-rc));
		free(err);
		return rc;
	}
	if ((rc = msr_open(NULL, &dev))) {
		fprintf(stderr, "stat_cost: cannot open the simulator: %s\n", msr_last_error());
		goto out;
	}
	struct stat_options o = { .machine = m, .dev = dev };

	if ((rc = stat_open(&o, &r, &why))) {
		fprintf(stderr, "stat_cost: %s\n", why ? why : strerror(-rc));
		goto out;
	}
	*ncpus = stat_cpus(r, &cpus);
	if ((rc = guard_new(&g, &go)) ||
	    (rc = guard_start(g, dev, stat_info(r), cpus, *ncpus, true, JOURNAL_RUN, false))) {
		fprintf(stderr, "stat_cost: the guarded run: %s\n", g ? guard_message(g) : "");
		goto out;
	}
	if ((rc = stat_program(r, guard_journal(g), &why)))
		fprintf(stderr, "stat_cost: %s\n", why ? why : strerror(-rc));
	else if ((rc = stat_cost_ns(r, rounds, ns)))
		fprintf(stderr, "stat_cost: a read failed: %s\n", strerror(-rc));
	if (guard_finish(g, false) && !rc)
		rc = -EIO;
out:
	free(why);
	guard_free(g);
	stat_close(r);
	msr_close(dev);
	cpu_machine_free(m);
	return rc;
}

int main(int argc, char **argv)
{
	const char *dump = NULL;
	unsigned rounds = 200, intervals = 100, period = 100, kept;
	char dir[512], profile[600], spec[700];
	int64_t *late;
	double ns = 0;
	int ncpus = 0, rc;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--cpuid-dump"))
			dump = argv[i + 1];
		else if (!strcmp(argv[i], "--rounds"))
			rounds = (unsigned)strtoul(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--intervals"))
			intervals = (unsigned)strtoul(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--period"))
			period = (unsigned)strtoul(argv[i + 1], NULL, 10);
	}
	if (!rounds || !intervals || !period) {
		fprintf(stderr, "usage: stat_cost --cpuid-dump FILE [--rounds N] [--intervals N] "
			"[--period MS]\n");
		return 64;
	}
	if (!dump || access(dump, R_OK)) {
		printf("stat cost: skipped (no CPUID dump%s%s; set SHARED_CPUID)\n",
		       dump ? " " : "", dump ? dump : "");
	} else if ((rc = scratch(dir, sizeof(dir), profile, sizeof(profile)))) {
		fprintf(stderr, "stat_cost: scratch directory: %s\n", strerror(-rc));
		return 73;
	} else {
		snprintf(spec, sizeof(spec), "sim:%s", profile);
		setenv("BARETMA_MSR", spec, 1);
		setenv("BARETMA_CPUID_DUMP", dump, 1);
		setenv("BARETMA_STATE_DIR", dir, 1);
		rc = cost(dump, rounds, &ns, &ncpus);
		nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
		if (rc)
			return 1;
		printf("stat cost per interval per CPU (simulated PMU, %d CPUs of %s, median of %u "
		       "interval ends: read, checks, counts, frozen reset, read): %.2f us\n", ncpus,
		       dump, rounds, ns / 1e3);
	}
	late = calloc(intervals, sizeof(*late));
	if (!late || stat_drift(intervals, period, late))
		return 1;
	qsort(late, intervals, sizeof(*late), cmp_i64);
	kept = intervals;
	printf("stat timer drift over %u intervals of %u ms (absolute deadlines, CLOCK_MONOTONIC):"
	       " median %.1f us, max %.1f us\n", kept, period, (double)late[kept / 2] / 1e3,
	       (double)late[kept - 1] / 1e3);
	free(late);
	return 0;
}
