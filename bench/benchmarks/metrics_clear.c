/*
 * bench/benchmarks/metrics_clear.c - RDPMC metrics-clear regions against
 * the slot-weighted delta, on the simulated PMU (msr/sim/msr_sim.h) of a
 * CPUID dump whose P-core enumerates the mode (IA32_PERF_CAPABILITIES
 * bit 19: Lunar Lake, Arrow Lake; linux commit
 * 0e45818ec189), with a workload that varies (`noise`: each PERF_METRICS
 * read's fractions jittered).  For regions of 1k, 10k and 100k cycles of
 * work, REGIONS regions back to back, each method's per-region error
 * against the profile (the largest |error| of the four level-1 nodes, in
 * percentage points: median, p5, p95) and its 8-bit quantisation bound
 * (median, msr/recipe/topdown.h td_pair_slots):
 *   delta, running   the counters run for the whole series (perf's way,
 *                    and the library's): region = b - a, slot-weighted
 *   delta, reset     FC3 and PERF_METRICS written 0 before each region
 *                    (bench's way: five writes a region)
 *   metrics-clear    IA32_FIXED_CTR_CTRL bit 14 set: the begin reading's
 *                    RDPMC of PERF_METRICS clears both; region = end reading
 * Usage: metrics_clear --cpuid-dump FILE [--regions N]
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/source/reading.h"
#include "msr/regs/intel_regs.h"
#include "msr/access/msr.h"
#include "msr/open/msr_open.h"
#include "msr/sim/msr_sim.h"

/* The profile: percent of slots per level-1 node, and the jitter. */
static const double prof[4] = { 40, 10, 20, 30 };
static const char profile[] =
	"ghz 0\naccess_cycles 100\nretiring 40\nbad_speculation 10\nfrontend_bound 20\n"
	"backend_bound 30\nseed 1\nnoise %g\n";
static const double noises[] = { 0, 2 };

enum method { DELTA_RUNNING, DELTA_RESET, CLEAR, NMETHODS };
static const char *const method_name[NMETHODS] = { "delta, running", "delta, reset",
						     "metrics-clear" };

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double pct(const double *v, size_t n, double p)
{
	return v[(size_t)(p * (double)(n - 1) + 0.5)];
}

static void program(struct msr_dev *d, uint64_t field)
{
	msr_write(d, 0, IA32_PERF_GLOBAL_CTRL, 0);
	msr_write(d, 0, IA32_FIXED_CTR_CTRL, field << FIXED_CTR3_FIELD_SHIFT);
	msr_write(d, 0, IA32_FIXED_CTR3, 0);
	msr_write(d, 0, IA32_PERF_METRICS, 0);
	msr_write(d, 0, IA32_PERF_GLOBAL_CTRL, GLOBAL_CTRL_EN_FIXED3 | GLOBAL_CTRL_EN_PERF_METRICS);
}

static void take(struct msr_dev *d, struct reading *r)
{
	msr_sim_rdpmc(d, 0, RDPMC_ECX_SLOTS, &r->v[0]);
	msr_sim_rdpmc(d, 0, RDPMC_PERF_METRICS, &r->v[1]);
}

/* One method over @n regions of @cycles: medians and percentiles out. */
static int series(struct msr_dev *d, enum method m, uint64_t cycles, size_t n, double *err,
		  double *bound)
{
	struct read_set rs;
	struct reading a = { 0 }, b = { 0 };
	struct counts c;

	read_set_perf_metrics(&rs);
	rs.metrics_clear = m == CLEAR;
	program(d, m == CLEAR ? 0x7 : 0x3);
	for (size_t i = 0; i < n; i++) {
		if (m == DELTA_RESET)
			program(d, 0x3);
		take(d, &a);
		if (msr_sim_work(d, 0, cycles))
			return -EIO;
		take(d, &b);
		reading_counts(&rs, &a, &b, &c);
		err[i] = 0;
		for (unsigned k = 0; k < 4; k++)
			err[i] = fmax(err[i], fabs(100.0 * c.c[1 + k] / c.c[0] - prof[k]));
		bound[i] = c.c[0] > 0 ? 100.0 * c.err / c.c[0] : INFINITY;
	}
	qsort(err, n, sizeof(*err), cmp);
	qsort(bound, n, sizeof(*bound), cmp);
	return 0;
}

int main(int argc, char **argv)
{
	const char *dump = NULL;
	size_t n = 2000;
	char dir[] = "/tmp/baretma-mclear.XXXXXX", path[64], spec[80];
	static const uint64_t sizes[] = { 1000, 10000, 100000 };
	struct msr_dev *d = NULL;
	double *err, *bound;
	FILE *f;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--cpuid-dump"))
			dump = argv[i + 1];
		else if (!strcmp(argv[i], "--regions"))
			n = strtoul(argv[i + 1], NULL, 10);
	}
	if (!dump || access(dump, R_OK) || n < 2) {
		fprintf(stderr, "metrics_clear: usage: metrics_clear --cpuid-dump FILE "
			"[--regions N >= 2] (a Lunar Lake or Arrow Lake dump; skipped)\n");
		return 0;
	}
	if (!mkdtemp(dir))
		return 1;
	err = calloc(n, sizeof(*err));
	bound = calloc(n, sizeof(*bound));
	if (!err || !bound)
		return 1;
	setenv("BARETMA_CPUID_DUMP", dump, 1);
	printf("metrics-clear regions vs the slot-weighted delta: simulated Lion Cove "
	       "P-core (cpu 0 of the dump), width 8,\nprofile 40/10/20/30, %zu regions "
	       "back to back per row; |error| = the largest of the four level-1\nnodes "
	       "against the profile, percentage points; noise: each read's fractions "
	       "jittered by up to that\n", n);
	printf("%-6s %-8s %-15s %12s %8s %8s %12s\n", "noise", "cycles", "method",
	       "|err| median", "p5", "p95", "bound median");
	for (size_t z = 0; z < sizeof(noises) / sizeof(noises[0]); z++) {
		snprintf(path, sizeof(path), "%s/profile%zu", dir, z);
		if (!(f = fopen(path, "we")))
			return 1;
		fprintf(f, profile, noises[z]);
		fclose(f);
		snprintf(spec, sizeof(spec), "sim:%s", path);
		if (msr_open(spec, &d)) {
			fprintf(stderr, "metrics_clear: %s\n", msr_last_error());
			return 1;
		}
		msr_ungate(d); /* the simulator's own registers, in this process's memory */
		for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
			for (int m = 0; m < NMETHODS; m++) {
				if (series(d, (enum method)m, sizes[s], n, err, bound))
					return 1;
				printf("%-6g %-8llu %-15s %12.3f %8.3f %8.3f %12.3f\n", noises[z],
				       (unsigned long long)sizes[s], method_name[m],
				       pct(err, n, 0.5), pct(err, n, 0.05), pct(err, n, 0.95),
				       pct(bound, n, 0.5));
			}
		msr_close(d);
		unlink(path);
	}
	rmdir(dir);
	free(err);
	free(bound);
	return 0;
}
