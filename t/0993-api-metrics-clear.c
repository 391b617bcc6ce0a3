/*
 * t/0993-api-metrics-clear - the library's regions in RDPMC metrics-clear
 * mode (bench/region.h), alone, nested and overlapping, on the simulated
 * PMU and its simulated RDPMC (msr_sim_rdpmc) of the Lunar Lake dump
 * (Core Ultra 9 288V: CPU 0 a Lion Cove P-core, width W = 8, PERF_METRICS
 * level 2, IA32_PERF_CAPABILITIES bit 19: $SHARED_CPUID/INDEX.tsv).
 *
 * Metrics-clear mode (linux commit 0e45818ec189, arch/x86/events/intel/
 * core.c): with IA32_FIXED_CTR_CTRL bit 14 an RDPMC of PERF_METRICS returns
 * the metrics since the last one, then clears PERF_METRICS and fixed
 * counter 3.  The library's reading is RDPMC FC3, then RDPMC PERF_METRICS
 * (one simulated access of N = access_cycles cycles each, at the access
 * shares A); with `ghz 0` only accesses and msr_sim_work (K cycles at the
 * work shares R) advance the clock.  So a segment between two readings
 * counts, from the second reading alone:
 *   slots    W x (its work + the FC3 read's own access N)
 *   metrics  its work and 2N of access (both reads), bytes round(255 x share)
 * and a region is the sum of the segments between its begin and its end.
 *
 * Profile (t/0992's):   retiring bad_spec frontend backend | heavy br_mis fetch_lat memory
 *   work     R:            60       20       20       0    |  40     20      20       0
 *   access   A:            20       20       20      40    |   0     20      20      40
 * Segment kinds, by the work w in it:
 *   w = 0  (a reading straight after another): slots 1.W.N, bytes of A
 *          51 51 51 102 | 0 51 51 102
 *   w = N:  slots 2.W.N, (R + 2A)/3 = 33.333 20 20 26.667 | 13.333 20 20 26.667
 *           bytes 85 51 51 68 | 34 51 51 68
 *   w = 2N: slots 3.W.N, (R + A)/2 = 40 20 20 20 | 20 20 20 20
 *           bytes 102 51 51 51 | 51 51 51 51
 *   w = 4N: slots 5.W.N, (2R + A)/3 = 46.667 20 20 13.333 | 26.667 20 20 13.333
 *           bytes 119 51 51 34 | 68 51 51 34
 * Each segment's quantisation error is its slots x 1/255 (S = 255): the
 * bound of a region is 100/255 = 0.392157 points whatever its segments.
 *
 * (a) alone: begin, 4N work, end: one segment w = 4N: 40000 slots,
 *     46.667 20 20 13.333 | heavy 26.667 light 20 br 20 mc 0 fl 20 fb 0
 *     mem 13.333 core 0.
 * (b) nested: O{ I1{ 4N work } I2{ N work } }: O's segments are
 *     O.begin-I1.begin (w 0), I1 (4N), I1.end-I2.begin (0), I2 (N),
 *     I2.end-O.end (0): slots (1 + 5 + 1 + 2 + 1) W.N = 80000;
 *     retiring (3x51 + 5x119 + 2x85) / (255 x 10) = 918/2550 = 36 %,
 *     bad speculation and frontend 20, backend (3x102 + 5x34 + 2x68)/2550
 *     = 24, heavy (5x68 + 2x34)/2550 = 16, light 20, branch 20, machine
 *     clears 0, fetch latency 20, bandwidth 0, memory 24, core 0.
 *     I1 is (a); I2 is the w = N segment: 16000 slots, 33.333 20 20 26.667
 *     | heavy 13.333 light 20 br 20 mc 0 fl 20 fb 0 mem 26.667 core 0.
 *     Before the segments were summed (the begin's clear lost the counts
 *     before it), O read its last segment only: 8000 slots, A's shares.
 * (c) overlapping: A.begin, 4N, B.begin, N, A.end, 2N, B.end: A has the
 *     segments w 4N and w N: 7.W.N = 56000 slots, retiring (5x119 + 2x85)
 *     / (255 x 7) = 3/7 = 42.857143, backend (5x34 + 2x68)/1785 = 6/35 =
 *     17.142857, heavy (5x68 + 2x34)/1785 = 22.857143, memory 17.142857;
 *     B has w N and w 2N: 5.W.N = 40000, retiring (2x85 + 3x102)/1275 =
 *     37.333333, backend (2x68 + 3x51)/1275 = 22.666667, heavy
 *     (2x34 + 3x51)/1275 = 17.333333, memory 22.666667; both bad
 *     speculation, frontend, light, branch, fetch latency 20, the rest 0.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/baretma.h"
#include "msr/access/msr.h"
#include "msr/open/msr_open.h"
#include "msr/sim/msr_sim.h"
#include "t/tap.h"
#include "t/fixture.h"

#define N 1000u /* access_cycles */
#define W 8u    /* Lion Cove's width */

static struct msr_dev *work_dev; /* the test's handle on the simulated machine */

/* The expected tma_* of a region, in percent, enum baretma_tma order. */
struct want {
	double slots;
	double tma[BARETMA_TMA_N];
};

static void work(uint64_t cycles)
{
	if (msr_sim_work(work_dev, 0, cycles))
		printf("# msr_sim_work failed\n");
}

static void check_region(struct baretma *bm, const char *name, uint64_t count,
			 const struct want *w)
{
	struct baretma_result r;
	double worst = 0;
	int bad = -1;

	memset(&r, 0, sizeof(r));
	if (!ok(baretma_region_get(bm, name, &r) == 0 && r.count == count && r.invalid == 0 &&
		r.level == 2, "%s: %" PRIu64 " pairs, none invalid, level 2", name, count))
		printf("# count %" PRIu64 " invalid %" PRIu64 " level %d: %s\n", r.count,
		       r.invalid, r.level, baretma_last_error());
	check_dbl(r.slots, (double)count * w->slots, 1e-6, "slots");
	for (int m = 0; m < BARETMA_TMA_N; m++)
		if (fabs(r.tma[m] - w->tma[m]) > worst) {
			worst = fabs(r.tma[m] - w->tma[m]);
			bad = m;
		}
	if (!ok(worst < 1e-4, "%s: every tma_* share as worked by hand", name))
		printf("# %s %.6f, expected %.6f\n", baretma_tma_name(bad), r.tma[bad],
		       w->tma[bad]);
	check_dbl(r.bound_pp, 100.0 / 255, 1e-6, "bound: each segment's slots/255, summed");
}

static struct baretma *open_lnl(const char *dump)
{
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	struct baretma *bm = NULL;

	o.backend = "rdpmc";
	o.cpu = 0;
	o.level = 2;
	o.cpuid_dump = dump;
	if (baretma_open(&bm, &o))
		printf("# baretma_open: %s\n", baretma_last_error());
	return bm;
}

int main(void)
{
	char *ptext;
	const char *shared = t_shared_dumps();
	static char dir[PATH_MAX], run[PATH_MAX], prof[PATH_MAX], spec[PATH_MAX + 8];
	static char lnl[PATH_MAX], state[PATH_MAX];
	/* the shares of the segment kinds (header), in enum baretma_tma order:
	 * retiring bad_spec frontend backend heavy light branch machine_clears
	 * fetch_lat fetch_bw memory core */
	static const struct want alone = { 5.0 * W * N, { 140.0 / 3, 20, 20, 40.0 / 3, 80.0 / 3,
							   20, 20, 0, 20, 0, 40.0 / 3, 0 } };
	static const struct want inner2 = { 2.0 * W * N, { 100.0 / 3, 20, 20, 80.0 / 3,
							    40.0 / 3, 20, 20, 0, 20, 0, 80.0 / 3, 0 } };
	static const struct want outer = { 10.0 * W * N, { 36, 20, 20, 24, 16, 20, 20, 0, 20, 0,
							    24, 0 } };
	static const struct want ovl_a = { 7.0 * W * N, { 300.0 / 7, 20, 20, 600.0 / 35,
							   800.0 / 35, 20, 20, 0, 20, 0,
							   600.0 / 35, 0 } };
	static const struct want ovl_b = { 5.0 * W * N, { 112.0 / 3, 20, 20, 68.0 / 3,
							   52.0 / 3, 20, 20, 0, 20, 0, 68.0 / 3,
							   0 } };
	struct baretma *bm;

	t_path(lnl, "%s/libcpuid/master-history/intel/x86-64/lion-cove/"
	       "intel-core-ultra-9-288v.test", shared);
	t_scratch(dir, "0993");
	t_path(run, "%s/run", dir);
	t_path(prof, "%s/profile", dir);
	t_path(state, "%s/state", dir);
	t_put_lnl_state(state, 0);
	ptext = t_lnl_two_workloads(state);
	t_put_tree(prof, ptext);
	free(ptext);
	t_path(spec, "sim:%s", prof);
	setenv("BARETMA_STATE_DIR", run, 1);
	setenv("BARETMA_MSR", spec, 1);
	unsetenv("BARETMA_CPUID_DUMP");
	unsetenv("BARETMA_MSR_TRACE");
	unsetenv("BARETMA_PERF");
	/* the same simulated machine as the session's (one per profile and
	 * dump in a process): its work is the regions' workload */
	if (msr_open_on(spec, lnl, &work_dev)) {
		printf("# %s\n", msr_last_error());
		skip_all("cannot open the simulated Lunar Lake machine");
	}
	plan(27);

	bm = open_lnl(lnl);
	if (!ok(bm != NULL, "Lunar Lake cpu 0, backend rdpmc on the simulator: opens")) {
		skip(26, "no session");
		goto out;
	}
	ok(strstr(baretma_notes(bm), "note: regions: RDPMC metrics-clear regions") != NULL,
	   "the notes say metrics-clear regions (the default where enumerated)");

	/* (a) one region alone, twice (two epochs) */
	for (int i = 0; i < 2; i++) {
		baretma_region_begin(bm, "alone");
		work(4 * N);
		baretma_region_end(bm, "alone");
	}
	check_region(bm, "alone", 2, &alone);

	/* (b) nested, three times */
	for (int i = 0; i < 3; i++) {
		baretma_region_begin(bm, "outer");
		baretma_region_begin(bm, "inner1");
		work(4 * N);
		baretma_region_end(bm, "inner1");
		baretma_region_begin(bm, "inner2");
		work(N);
		baretma_region_end(bm, "inner2");
		baretma_region_end(bm, "outer");
	}
	check_region(bm, "outer", 3, &outer);
	check_region(bm, "inner1", 3, &alone);
	check_region(bm, "inner2", 3, &inner2);

	/* (c) overlapping, not nested */
	baretma_region_begin(bm, "ovl-a");
	work(4 * N);
	baretma_region_begin(bm, "ovl-b");
	work(N);
	baretma_region_end(bm, "ovl-a");
	work(2 * N);
	baretma_region_end(bm, "ovl-b");
	check_region(bm, "ovl-a", 1, &ovl_a);
	check_region(bm, "ovl-b", 1, &ovl_b);
	ok(baretma_close(bm) == 0, "closes");
out:
	msr_close(work_dev);
	t_rm_rf(dir);
	return done_testing();
}
