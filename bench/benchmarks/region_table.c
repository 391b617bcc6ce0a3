/*
 * bench/benchmarks/region_table.c - what the region table (bench/region.c)
 * costs per begin/end pair with Top-down, side by side in one run with
 * what a named region costs a harness without it (issue 30 of the
 * project, "The region table": at most 1.5x):
 *
 *   fenced read pair   `lfence; rdtsc; lfence` twice, inline: the floor of
 *                      any bracket around code (bench/benchmarks/api_overhead.c
 *                      says why four fences);
 *   region pair        baretma_region_begin + baretma_region_end, the calls
 *                      whole, on a TSC session of the public library (the
 *                      readings, the ownership check, the table at level 0,
 *                      the epoch's check): what a harness pays per pair;
 *   region-table pair  the work the library does with the Top-down of
 *                      PERF_METRICS before a begin's reading and after an
 *                      end's (never between a region's two readings,
 *                      bench/lib/api.c), readings left out: the slot-weighted
 *                      delta against RDPMC metrics-clear regions (each
 *                      reading a segment, summed into every open region:
 *                      bench/region.h), for an empty region alone (depth 1)
 *                      and inside two open regions (depth 3), with the
 *                      statistics' store a session has (region_store_new).
 *                      Readings are fixed values (a PERF_METRICS of
 *                      0xff-summing bytes, slots growing), so only the
 *                      table's arithmetic is timed.
 *
 * ns per pair (CLOCK_MONOTONIC around blocks of BLOCK pairs, the kinds
 * taking turns block by block so that they share the machine's
 * conditions; PAIRS pairs of each a run), min / median / max over --runs
 * runs, and the ratios of the medians.  The
 * region pair's session binds the thread to its CPU for the whole run.
 * Run by `make benchmark`, never by `make check`.
 *
 * usage: region_table [--runs N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "bench/region.h"
#include "bench/stats.h"
#include "include/baretma.h"

#define PAIRS  200000u /* pairs of each kind per run */
#define BLOCK  2000u   /* ... timed in blocks, the kinds taking turns */
#define KINDS  6

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Where the fenced pairs' summed differences go, so that they are kept. */
static volatile uint64_t sink;

/* ns for BLOCK fenced pairs of two inline RDTSCs. */
static double fenced_block(void)
{
	uint64_t sum = 0;
	double t0 = now_ns();

	for (unsigned i = 0; i < BLOCK; i++) {
		uint32_t lo0, hi0, lo1, hi1;

		__asm__ __volatile__("lfence\n\trdtsc\n\tlfence\n\tmov %%eax, %0\n\t"
				     "mov %%edx, %1\n\tlfence\n\trdtsc\n\tlfence"
				     : "=&r"(lo0), "=&r"(hi0), "=a"(lo1), "=d"(hi1) :: "memory");
		sum += (((uint64_t)hi1 << 32) | lo1) - (((uint64_t)hi0 << 32) | lo0);
	}
	t0 = now_ns() - t0;
	sink = sum;
	return t0;
}

/* ns for BLOCK empty named regions of the public library on @bm, the calls whole. */
static double region_block(struct baretma *bm)
{
	double t0 = now_ns();

	for (unsigned i = 0; i < BLOCK; i++) {
		baretma_region_begin(bm, "empty");
		baretma_region_end(bm, "empty");
	}
	return now_ns() - t0;
}

/* A reading as the rdpmc source fills it: TOPDOWN.SLOTS, PERF_METRICS. */
static void fake_read(struct reading *r, uint64_t slots)
{
	r->tsc = slots;
	r->v[0] = slots;
	r->v[1] = 0x33333366ull; /* 0x66 0x33 0x33 0x33: sums to 255 */
}

/* One region table as a session has it: PERF_METRICS's read set, the
 * statistics' store, region "r" to time inside depth - 1 open ones. */
struct table {
	struct region_table t;
	struct read_set rs;
	struct region *r;
	unsigned depth;
	uint64_t slots;
};

static int table_new(struct table *tb, bool clear, unsigned depth)
{
	memset(tb, 0, sizeof(*tb));
	read_set_perf_metrics(&tb->rs);
	tb->rs.metrics_clear = clear;
	tb->t.rs = &tb->rs;
	tb->depth = depth;
	tb->slots = 1000;
	if (region_store_new(&tb->t))
		return -1;
	region_prepare(&tb->t, 2); /* as a session's open does */
	tb->r = region_add(&tb->t, "r");
	for (unsigned k = 0; k + 1 < depth; k++)
		fake_read(region_open(&tb->t, region_add(&tb->t, k ? "o1" : "o0")),
			  tb->slots += 1000);
	return 0;
}

/* ns for BLOCK begin/end pairs of "r", the table's work only. */
static double table_block(struct table *tb)
{
	struct reading b;
	double t0 = now_ns();

	for (unsigned i = 0; i < BLOCK; i++) {
		fake_read(region_open(&tb->t, tb->r), tb->slots += 1000);
		fake_read(&b, tb->slots += 1000);
		region_end(&tb->t, tb->r, &b, 2);
		if (tb->depth == 1)
			region_epoch_end(&tb->t, &(struct region_verdict){ 0 });
	}
	return now_ns() - t0;
}

/* One run: every kind's ns per pair into @v[k][run]; -1 without memory. */
static int one_run(struct baretma *bm, double *v[KINDS], unsigned run)
{
	static struct table tb[4];
	double ns[KINDS] = { 0 };
	int rc = 0;

	for (int k = 0; k < 4; k++)
		if (table_new(&tb[k], k & 1, k < 2 ? 1 : 3))
			rc = -1;
	for (unsigned done = 0; !rc && done < PAIRS; done += BLOCK) {
		ns[0] += fenced_block();
		ns[1] += region_block(bm);
		for (int k = 0; k < 4; k++)
			ns[2 + k] += table_block(&tb[k]);
	}
	for (int k = 0; k < 4; k++)
		region_store_free(&tb[k].t);
	for (int k = 0; k < KINDS; k++)
		v[k][run] = ns[k] / PAIRS;
	return rc;
}

int main(int argc, char **argv)
{
	static const char *const what[KINDS] = {
		"fenced read pair (4 LFENCE)      ", "region pair (TSC session, whole) ",
		"region-table pair: delta, depth 1", "  metrics-clear, depth 1         ",
		"  delta, depth 3                 ", "  metrics-clear, depth 3         ",
	};
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	struct bench_stats st[KINDS];
	struct baretma *bm;
	struct utsname u;
	unsigned runs = 5;
	double *v[KINDS] = { NULL };
	int rc = 1;

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
	o.backend = "tsc"; /* every machine has it */
	if (baretma_open(&bm, &o)) {
		fprintf(stderr, "region_table: %s\n", baretma_last_error());
		return 1;
	}
	for (int k = 0; k < KINDS; k++)
		if (!(v[k] = calloc(runs, sizeof(double))))
			goto out;
	for (unsigned r = 0; r < runs; r++)
		if (one_run(bm, v, r))
			goto out;
	uname(&u);
	printf("region table against a region pair (ns per pair: min / median / max over %u "
	       "runs; %s %s)\n", runs, u.machine, u.release);
	for (int k = 0; k < KINDS; k++) {
		bench_stats_compute(v[k], runs, &st[k]);
		printf("  %s %8.1f %8.1f %8.1f", what[k], st[k].min, st[k].median, st[k].max);
		if (k >= 2)
			printf("   %5.2fx the region pair", st[k].median / st[1].median);
		else if (k == 1)
			printf("   %5.2fx the fenced pair", st[1].median / st[0].median);
		printf("\n");
	}
	printf("  (issue 30: a region-table pair at most 1.5x the region pair; the table's "
	       "work is readings excluded,\n   the region pair's readings included)\n");
	rc = 0;
out:
	baretma_close(bm);
	for (int k = 0; k < KINDS; k++)
		free(v[k]);
	return rc;
}
