/*
 * t/0972-region-stats - a region's statistics beyond its sums (bench/
 * region.h region_stats, include/baretma.h baretma_region_stats) on
 * readings made by hand, against (1) values worked by hand here and (2)
 * `baretma bench`'s own statistics of the same readings (bench/
 * measure_int.h bench_summarise, with nothing subtracted), computed
 * independently of the region table.
 *
 * Six pairs, each from a reset (slots 0, PERF_METRICS 0) to b = (slots
 * 25500 k, PERF_METRICS with Retiring byte R and Backend byte 255 - R),
 * k = 1..6, so that a pair's share of a node is its byte / 255 (linux
 * tools/perf/Documentation/topdown.txt; msr/recipe/topdown.h):
 *   TSC ticks      700 100 400 200 1000 300
 *   R               51 153 102 255    0 204  -> retiring 20 60 40 100 0 80 %
 * Type-7 quantiles (Hyndman & Fan 1996, definition 7: h = (n - 1) p):
 *   TSC sorted 100 200 300 400 700 1000: median h 2.5 -> 350; q1 h 1.25
 *   -> 225; q3 h 3.75 -> 400 + 0.75 x 300 = 625; |x - 350| sorted 50 50
 *   150 250 350 650 -> MAD 200; min 100, max 1000.
 *   retiring sorted 0 20 40 60 80 100: median 50, q1 25, q3 75;
 *   |x - 50| sorted 10 10 30 30 50 50 -> MAD 30.  Backend = 100 - retiring:
 *   the same median 50, q1 25, q3 75, MAD 30.
 *   slots 25500 k: median (76500 + 102000)/2 = 89250; q1 51000 + 0.25 x
 *   25500 = 57375.
 * Totals: slots 25500 x 21 = 535500; retiring slots 100 x (1x51 + 2x153
 * + 3x102 + 4x255 + 5x0 + 6x204) = 290700 (54.2857 %); the bound: each
 * pair's error (slots_a + slots_b)/255 = 100 k slots, 2100 in all.
 */
#include <math.h>
#include <string.h>

#include "bench/measure_int.h"
#include "bench/region.h"
#include "include/baretma.h"
#include "t/tap.h"

static struct read_set pm;
static const struct region_verdict clean, tampered = { .tampered = true };
static const double tsc6[6] = { 700, 100, 400, 200, 1000, 300 };
static const unsigned r6[6] = { 51, 153, 102, 255, 0, 204 };

static struct reading rd(uint64_t slots, uint64_t metrics, uint64_t tsc)
{
	struct reading r = { .tsc = tsc, .v = { slots, metrics } };
	return r;
}

/* Pair k (0-based) of the vector: from a reset at TSC 1000 k. */
static void pair(unsigned k, struct reading *a, struct reading *b)
{
	uint64_t metrics = r6[k] | (uint64_t)(255 - r6[k]) << 24;

	*a = rd(0, 0, 1000 * k);
	*b = rd(25500 * (k + 1), metrics, 1000 * k + (uint64_t)tsc6[k]);
}

/* @got within @tol of @want (NAN is never near). */
static void near(double got, double want, double tol, const char *what, const char *sub)
{
	ok(fabs(got - want) <= tol, "%s: %s %.10g (worked by hand: %.10g)", what, sub, got, want);
}

static void check_stat(const struct baretma_stat *s, double med, double q1, double q3,
		       double mad, double min, double max, const char *what)
{
	near(s->median, med, 1e-9, what, "median");
	near(s->q1, q1, 1e-9, what, "q1");
	near(s->q3, q3, 1e-9, what, "q3");
	near(s->mad, mad, 1e-9, what, "MAD");
	near(s->min, min, 1e-9, what, "min");
	near(s->max, max, 1e-9, what, "max");
}

/* The same as bench's, field by field (@scale: bench keeps fractions). */
static void same_as_bench(const struct baretma_stat *s, const struct bench_stats *b,
			  double scale, const char *what)
{
	ok(s->n == b->n && fabs(s->median - scale * b->median) < 1e-9 &&
	   fabs(s->q1 - scale * b->q1) < 1e-9 && fabs(s->q3 - scale * b->q3) < 1e-9 &&
	   fabs(s->mad - scale * b->mad) < 1e-9 && fabs(s->min - scale * b->min) < 1e-9 &&
	   fabs(s->max - scale * b->max) < 1e-9, "%s: as bench's (n %zu, median %g; bench %zu, %g)",
	   what, (size_t)s->n, s->median, b->n, scale * b->median);
}

static void hand_vector(struct region_table *t)
{
	struct baretma_region_stats st;
	struct rep_sample v[6];
	struct bench_kernel_result kr;
	struct region *r = region_add(t, "solve");
	struct reading a, b;

	memset(v, 0, sizeof(v));
	for (unsigned k = 0; k < 6; k++) {
		pair(k, &a, &b);
		region_begin(t, r, &a);
		region_end(t, r, &b, 1);
		region_epoch_end(t, &clean);
		/* bench's repetition of the same readings, counted its way */
		v[k].tsc = (double)(b.tsc - a.tsc);
		reading_counts(&pm, &a, &b, &v[k].c);
		v[k].flags = v[k].c.flags;
	}
	check_int(region_stats(t, r, 1, &st), ==, 0, "stats");
	check_u64(st.pairs, ==, 6, "six pairs in the statistics");
	check_u64(st.tsc.n, ==, 6, "TSC over six");
	check_stat(&st.tsc, 350, 225, 625, 200, 100, 1000, "TSC ticks");
	check_stat(&st.tma[BARETMA_TMA_RETIRING], 50, 25, 75, 30, 0, 100, "tma_retiring");
	check_stat(&st.tma[BARETMA_TMA_BACKEND_BOUND], 50, 25, 75, 30, 0, 100, "tma_backend_bound");
	check_dbl(st.slots.median, 89250, 1e-9, "slots: median");
	check_dbl(st.slots.q1, 57375, 1e-9, "slots: q1");
	check_dbl(st.total.tsc, 2700, 0, "total TSC ticks: the sum 2700");
	check_dbl(st.total.slots, 535500, 1e-6, "total slots 535500");
	check_dbl(st.node_slots[BARETMA_TMA_RETIRING], 290700, 1e-6, "retiring: 290700 slots");
	check_dbl(st.total.tma[BARETMA_TMA_RETIRING], 100.0 * 290700 / 535500, 1e-9,
		  "retiring total: slot-weighted 54.2857 %, not the median");
	check_dbl(st.bound_slots, 2100, 1e-6, "the bound: 2100 slots");
	check_u64(st.tma[BARETMA_TMA_HEAVY_OPERATIONS].n, ==, 0, "level 1: no level-2 node");
	ok(isnan(st.tma[BARETMA_TMA_HEAVY_OPERATIONS].median) &&
	   isnan(st.node_slots[BARETMA_TMA_HEAVY_OPERATIONS]), "... NAN, never 0");
	check_dbl(st.last.tma[BARETMA_TMA_RETIRING], 80, 1e-9, "the last pair alone: 204/255");
	check_u64(st.last.count, ==, 1, "... one pair");

	memset(&kr, 0, sizeof(kr));
	kr.topdown = true;
	check_int(bench_summarise(&pm, 1, v, 6, NULL, &kr), ==, 0, "bench_summarise");
	same_as_bench(&st.tsc, &kr.tsc, 1, "TSC ticks");
	same_as_bench(&st.slots, &kr.slots, 1, "slots");
	for (unsigned m = 0; m < 4; m++)
		same_as_bench(&st.tma[m], &kr.tma[m], 100, td_metric_name((enum td_metric)m));
}

/* A tampered epoch: its pair's TSC ticks count, its shares do not. */
static void tampered_epoch(struct region_table *t)
{
	struct baretma_region_stats st;
	struct region *r = region_add(t, "solve");
	struct reading a = rd(0, 0, 0), b = rd(25500, 0xff, 5000);

	region_begin(t, r, &a);
	region_end(t, r, &b, 1);
	region_epoch_end(t, &tampered);
	region_stats(t, r, 1, &st);
	check_u64(st.tsc.n, ==, 7, "tampered: TSC over seven pairs");
	check_dbl(st.tsc.max, 5000, 0, "... its 5000 ticks among them");
	check_u64(st.tma[BARETMA_TMA_RETIRING].n, ==, 6, "... shares over the six valid");
	check_dbl(st.tma[BARETMA_TMA_RETIRING].median, 50, 1e-9, "... median still 50");
}

/* An epoch not yet checked (an enclosing region open) is not in them. */
static void pending(struct region_table *t)
{
	struct baretma_region_stats st;
	struct region *outer = region_add(t, "outer"), *in = region_add(t, "in");
	struct reading a = rd(0, 0, 0), b = rd(25500, 0xff, 10);

	region_begin(t, outer, &a);
	region_begin(t, in, &a);
	region_end(t, in, &b, 1);
	region_stats(t, in, 1, &st);
	ok(st.pairs == 0 && st.tsc.n == 0 && isnan(st.tsc.median) && st.total.count == 0,
	   "a pair of an open epoch: in no statistic yet (NAN, never 0)");
	region_end(t, outer, &b, 1);
	region_epoch_end(t, &clean);
	region_stats(t, in, 1, &st);
	check_u64(st.pairs, ==, 1, "... and in them once checked");
	/* a second pair (30 ticks) pending beside the checked one (10) */
	b = rd(51000, 0xff, 30);
	region_begin(t, outer, &a);
	region_begin(t, in, &a);
	region_end(t, in, &b, 1);
	region_stats(t, in, 1, &st);
	ok(st.pairs == 1 && st.tsc.n == 1 && st.tsc.max == 10 && st.slots.n == 1 &&
	   st.total.count == 1, "a pair pending beside a checked one: the checked one only "
	   "(its 10 ticks)");
	region_end(t, outer, &b, 1);
	region_epoch_end(t, &clean);
	region_stats(t, in, 1, &st);
	ok(st.pairs == 2 && st.tsc.max == 30, "... both once its epoch is checked");
}

/* More pairs than the ring: the last REGION_SAMPLES. */
static void wrap(struct region_table *t)
{
	struct baretma_region_stats st;
	struct region *r = region_add(t, "wrap");

	for (uint64_t i = 0; i < REGION_SAMPLES + 6; i++) {
		struct reading a = rd(0, 0, 0), b = rd(0, 0, i + 1);

		region_begin(t, r, &a);
		region_end(t, r, &b, 0);
		region_epoch_end(t, &clean);
	}
	region_stats(t, r, 0, &st);
	check_u64(st.total.count, ==, REGION_SAMPLES + 6, "wrap: every pair in the totals");
	check_u64(st.pairs, ==, REGION_SAMPLES, "wrap: the last 1024 in the statistics");
	check_dbl(st.tsc.min, 7, 0, "wrap: the first six left out (ticks 7 and up)");
	near(st.tsc.median, 7 + (REGION_SAMPLES - 1) / 2.0, 1e-9, "wrap", "median of 7..1030");
	ok(st.total.level == 0 && st.tma[0].n == 0 && isnan(st.bound_slots),
	   "TSC only: no shares, no bound (NAN)");
}

/* The public call on a TSC session of this machine. */
static void public_api(void)
{
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	struct baretma_region_stats st;
	struct baretma *bm;

	o.backend = "tsc";
	if (baretma_open(&bm, &o)) {
		skip(4, "no TSC session");
		return;
	}
	for (int i = 0; i < 9; i++) {
		baretma_region_begin(bm, "r");
		baretma_region_end(bm, "r");
	}
	check_int(baretma_region_stats(bm, "r", &st), ==, 0, "baretma_region_stats");
	ok(st.pairs == 9 && st.tsc.n == 9 && st.tsc.min <= st.tsc.median &&
	   st.tsc.median <= st.tsc.max, "nine pairs, min <= median <= max");
	check_int(baretma_region_stats(bm, "none", &st), ==, -ENOENT, "an unknown region: -ENOENT");
	check_int(baretma_region_stats(bm, "r", NULL), ==, -EINVAL, "no result: -EINVAL");
	baretma_close(bm);
}

int main(void)
{
	static struct region_table t;

	read_set_perf_metrics(&pm);
	t.rs = &pm;
	if (region_store_new(&t))
		skip_all("no memory for the store");
	hand_vector(&t);
	tampered_epoch(&t);
	pending(&t);
	wrap(&t);
	region_store_free(&t);
	public_api();
	return done_testing();
}
