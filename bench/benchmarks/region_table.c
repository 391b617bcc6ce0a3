/*
 * bench/benchmarks/region_table.c - what the region table (bench/region.c)
 * costs per begin/end pair, readings left out: the work the library does
 * before a begin's reading and after an end's (never between a region's
 * two readings, bench/lib/api.c), with the slot-weighted delta against
 * RDPMC metrics-clear regions (each reading a segment, summed into every
 * open region: bench/region.h), for an empty region alone (depth 1) and
 * inside two open regions (depth 3).  Readings are fixed values (a
 * PERF_METRICS of 0xff-summing bytes, slots growing), so only the table's
 * arithmetic is timed; ns per pair, min / median / max over --runs runs
 * of PAIRS pairs.  Run by `make benchmark`, never by `make check`.
 *
 * usage: region_table [--runs N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/region.h"
#include "bench/stats.h"

#define PAIRS 1000000u

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* A reading as the rdpmc source fills it: TOPDOWN.SLOTS, PERF_METRICS. */
static void fake_read(struct reading *r, uint64_t slots)
{
	r->tsc = slots;
	r->v[0] = slots;
	r->v[1] = 0x33333366ull; /* 0x66 0x33 0x33 0x33: sums to 255 */
}

/* ns per begin/end pair of "r" at @depth (1 or 3), the table's work only. */
static double run(bool clear, unsigned depth)
{
	static struct region_table t;
	struct read_set rs;
	struct region *outer[2], *r;
	struct reading b;
	uint64_t s = 1000;
	double t0;

	memset(&t, 0, sizeof(t));
	read_set_perf_metrics(&rs);
	rs.metrics_clear = clear;
	t.rs = &rs;
	r = region_add(&t, "r");
	for (unsigned k = 0; k + 1 < depth; k++) {
		outer[k] = region_add(&t, k ? "o1" : "o0");
		fake_read(region_open(&t, outer[k]), s += 1000);
	}
	t0 = now_ns();
	for (unsigned i = 0; i < PAIRS; i++) {
		fake_read(region_open(&t, r), s += 1000);
		fake_read(&b, s += 1000);
		region_end(&t, r, &b, 2);
		if (depth == 1)
			region_epoch_end(&t, &(struct region_verdict){ 0 });
	}
	t0 = now_ns() - t0;
	return t0 / PAIRS;
}

int main(int argc, char **argv)
{
	static const char *const what[4] = { "delta, depth 1        ", "metrics-clear, depth 1",
					      "delta, depth 3        ", "metrics-clear, depth 3" };
	unsigned runs = 5;
	double *v[4];
	struct bench_stats st;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
			runs = (unsigned)strtoul(argv[++i], NULL, 10);
		} else {
			fprintf(stderr, "usage: region_table [--runs N]\n");
			return 64;
		}
	}
	if (!runs)
		return 64;
	for (int k = 0; k < 4; k++)
		if (!(v[k] = calloc(runs, sizeof(double))))
			return 1;
	for (unsigned r = 0; r < runs; r++)
		for (int k = 0; k < 4; k++)
			v[k][r] = run(k & 1, k < 2 ? 1 : 3);
	printf("region table per begin/end pair, readings excluded (ns: min / median / max "
	       "over %u runs of %u pairs)\n", runs, PAIRS);
	for (int k = 0; k < 4; k++) {
		bench_stats_compute(v[k], runs, &st);
		printf("  %s %8.1f %8.1f %8.1f\n", what[k], st.min, st.median, st.max);
		free(v[k]);
	}
	return 0;
}
