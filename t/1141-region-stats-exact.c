/*
 * t/1141-region-stats-exact - a region's totals and robust statistics,
 * now evaluated when the region is read (issue 30 of the project, "The
 * region table"; bench/region.h), bit for bit as the documented formulas
 * give them for the same pairs, at level 2, with the delta method and
 * with metrics-clear segments, invalid pairs among the valid ones, and
 * more pairs than a region keeps.
 *
 * The formulas, worked here from the readings alone:
 *   a reading's field slots  slots x field / S in long double, S the sum of
 *                            the four level-1 bytes (msr/recipe/topdown.h
 *                            td_field_slots; linux tools/perf/Documentation/
 *                            topdown.txt), its error slots x (1 + |S - 255|)
 *                            / 255 (td_value_bound);
 *   a delta pair             TOPDOWN.SLOTS b - a, each topdown-* count
 *                            fs_b - fs_a, err the two errors summed;
 *   a metrics-clear segment  b's values alone; a pair the sum of the
 *                            segments between its readings, in order;
 *   the shares               spr-metrics.json (linux tools/perf/pmu-events/
 *                            arch/x86/sapphirerapids): each measured node its
 *                            count / (fe + bad + ret + be), each derived
 *                            level-2 node its parent - its measured child,
 *                            in percent (x 100);
 *   a number                 slots above 0, the four's sum not 0, no level-1
 *                            sum beyond 255 +/- 3, slots not back;
 *   the totals               the shares of the valid pairs' counts summed in
 *                            pair order, the bound err / slots in points;
 *   the statistics           type-7 quantiles (Hyndman & Fan 1996): with 9
 *                            pairs, q1, median and q3 are the 3rd, 5th and 7th
 *                            smallest (h = 2, 4, 6), MAD the 5th smallest
 *                            |x - median|: each is one pair's own value, so
 *                            equal to the bit.
 * More pairs than kept: 1030 pairs from a reset, 255 k slots, retiring
 * byte R and backend 255 - R, R 200 for the first six and then (i - 6) mod
 * 200: the last 1024 hold R = 0..23 six times and 24..199 five times, so
 * the 512th and 513th smallest are both 97 (144 values below 24, then
 * 367 / 5 and 368 / 5 both fall in the 74th group): median retiring
 * 100 x 97/255, max 100 x 199/255; the first six (200) are left out.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/region.h"
#include "include/baretma.h"
#include "t/tap.h"
#include "t/td-ref.h"

#define NV 9 /* valid pairs of each run */

/* ------------------------------------------------ the documented formulas */

/* A count vector: slots, the eight topdown-* counts, the error. */
struct cnt {
	double c[9];
	double err;
};

static struct cnt delta(uint64_t sa, uint64_t ma, uint64_t sb, uint64_t mb)
{
	struct cnt k = { .c = { (double)sb - (double)sa } };

	for (unsigned i = 0; i < 8; i++)
		k.c[1 + i] = fslots(sb, byte(mb, i), l1(mb)) - fslots(sa, byte(ma, i), l1(ma));
	k.err = (double)sb * vbound(l1(mb)) + (sa ? (double)sa * vbound(l1(ma)) : 0);
	return k;
}

static void add(struct cnt *sum, const struct cnt *k)
{
	for (unsigned i = 0; i < 9; i++)
		sum->c[i] += k->c[i];
	sum->err += k->err;
}

/* The twelve shares of @k in percent, enum baretma_tma order. */
static void shares(const struct cnt *k, double out[BARETMA_TMA_N])
{
	double sum = k->c[3] + k->c[2] + k->c[1] + k->c[4];
	double ret = k->c[1] / sum, bad = k->c[2] / sum, fe = k->c[3] / sum, be = k->c[4] / sum;
	double heavy = k->c[5] / sum, br = k->c[6] / sum, fl = k->c[7] / sum, mem = k->c[8] / sum;
	double f[BARETMA_TMA_N] = { ret, bad, fe, be, heavy, ret - heavy, br, bad - br, fl,
				    fe - fl, mem, be - mem };

	for (int m = 0; m < BARETMA_TMA_N; m++)
		out[m] = 100.0 * f[m];
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The 9-value statistics of @v (header): min q1 median q3 max MAD. */
static void stat9(const double *v, double out[6])
{
	double s[NV], d[NV];

	memcpy(s, v, sizeof(s));
	qsort(s, NV, sizeof(double), cmp);
	for (int i = 0; i < NV; i++)
		d[i] = fabs(s[i] - s[4]);
	qsort(d, NV, sizeof(double), cmp);
	out[0] = s[0];
	out[1] = s[2];
	out[2] = s[4];
	out[3] = s[6];
	out[4] = s[8];
	out[5] = d[4];
}

static bool same_stat(const struct baretma_stat *st, const double w[6])
{
	return st->n == NV && st->min == w[0] && st->q1 == w[1] && st->median == w[2] &&
	       st->q3 == w[3] && st->max == w[4] && st->mad == w[5];
}

/* ------------------------------------------------------------- readings */

/* A PERF_METRICS value: level-1 bytes r b f e (level 2: half, a third,
 * half, half of them). */
static uint64_t pm(unsigned r, unsigned b, unsigned f, unsigned e)
{
	return (uint64_t)r | (uint64_t)b << 8 | (uint64_t)f << 16 | (uint64_t)e << 24 |
	       (uint64_t)(r / 2) << 32 | (uint64_t)(b / 3) << 40 | (uint64_t)(f / 2) << 48 |
	       (uint64_t)(e / 2) << 56;
}

/* Valid pair k's end value: level-1 sum 253..257 (normalised, valid). */
static uint64_t pm_b(unsigned k)
{
	unsigned r = 60 + 7 * k, b = 30 + (3 * k) % 11, f = 50 + (5 * k) % 13;

	return pm(r, b, f, 253 + k % 5 - r - b - f);
}

static uint64_t pm_a(unsigned k)
{
	unsigned r = 90 - 4 * k, b = 40 + k, f = 35 + (7 * k) % 9;

	return pm(r, b, f, 255 - r - b - f);
}

static struct reading rd(uint64_t slots, uint64_t metrics, uint64_t tsc)
{
	struct reading r = { .tsc = tsc, .v = { slots, metrics } };

	return r;
}

static const struct region_verdict clean, tampered = { .tampered = true };

/* One pair of @r in an epoch of its own. */
static void one(struct region_table *t, struct region *r, struct reading a, struct reading b,
		const struct region_verdict *v)
{
	region_begin(t, r, &a);
	region_end(t, r, &b, 2);
	region_epoch_end(t, v);
}

/* The statistics and totals of @r against the nine expected pairs @k
 * (their shares), @total their sum, @tsc their TSC ticks (@ntsc, invalid
 * pairs' included). */
static void check(struct region_table *t, struct region *r, const struct cnt k[NV],
		  const struct cnt *total, const double *tsc, size_t ntsc, const char *what)
{
	struct baretma_region_stats st;
	double sh[NV][BARETMA_TMA_N], v[NV], w[6], tot[BARETMA_TMA_N];
	int bad = -1;

	ok(region_stats(t, r, 2, &st) == 0, "%s: region_stats", what);
	for (int i = 0; i < NV; i++) {
		shares(&k[i], sh[i]);
		v[i] = k[i].c[0];
	}
	stat9(v, w);
	ok(same_stat(&st.slots, w), "%s: slots' median %.17g, quartiles, min, max, MAD as the "
	   "formulas' to the bit (median %.17g)", what, st.slots.median, w[2]);
	for (int m = 0; m < BARETMA_TMA_N; m++) {
		for (int i = 0; i < NV; i++)
			v[i] = sh[i][m];
		stat9(v, w);
		if (!same_stat(&st.tma[m], w) && bad < 0)
			bad = m;
	}
	ok(bad < 0, "%s: each of the twelve tma_* shares' statistics to the bit%s%s", what,
	   bad < 0 ? "" : ": not ", bad < 0 ? "" : baretma_tma_name(bad));
	shares(total, tot);
	bad = -1;
	for (int m = 0; m < BARETMA_TMA_N; m++)
		if (st.total.tma[m] != tot[m] && bad < 0)
			bad = m;
	ok(bad < 0 && st.total.slots == total->c[0] && st.total.level == 2,
	   "%s: totals: slots %.17g and every share of the summed counts to the bit", what,
	   st.total.slots);
	ok(st.total.bound_pp == 100.0 * (total->err / total->c[0]),
	   "%s: bound %.17g points: the summed error over the summed slots", what,
	   st.total.bound_pp);
	if (tsc) {
		double s[16];

		memcpy(s, tsc, ntsc * sizeof(double));
		qsort(s, ntsc, sizeof(double), cmp);
		ok(st.tsc.n == ntsc && st.tsc.min == s[0] && st.tsc.max == s[ntsc - 1],
		   "%s: TSC over all %zu pairs (min %g, max %g)", what, ntsc, st.tsc.min,
		   st.tsc.max);
	}
}

/* ---------------------------------------------------------------- runs */

static void delta_run(struct region_table *t)
{
	struct region *r = region_add(t, "delta");
	struct cnt k[NV], total = { .c = { 0 } };
	struct baretma_result res;
	double tsc[NV + 4];
	size_t nt = 0;

	for (unsigned i = 0; i < NV; i++) {
		uint64_t sa = 1000 + 3000 * i, sb = sa + 2550 + 100 * i;

		k[i] = delta(sa, pm_a(i), sb, pm_b(i));
		add(&total, &k[i]);
		tsc[nt++] = 100 + 37 * i;
		one(t, r, rd(sa, pm_a(i), 5000 * i), rd(sb, pm_b(i), 5000 * i + 100 + 37 * i),
		    &clean);
		if (i == 2) { /* equal slots: zero slots */
			one(t, r, rd(9000, pm_a(1), 0), rd(9000, pm_b(1), 7), &clean);
			tsc[nt++] = 7;
		} else if (i == 4) { /* a level-1 sum of 200: beyond 255 +/- 3 */
			one(t, r, rd(9000, pm_a(1), 0), rd(12000, pm(50, 50, 50, 50), 8), &clean);
			tsc[nt++] = 8;
		} else if (i == 6) { /* slots back */
			one(t, r, rd(9000, pm_a(1), 0), rd(8000, pm_b(1), 9), &clean);
			tsc[nt++] = 9;
		} else if (i == 7) { /* a valid pair in a tampered epoch */
			one(t, r, rd(9000, pm_a(1), 0), rd(12000, pm_b(1), 5), &tampered);
			tsc[nt++] = 5;
		}
	}
	region_result(t, r, 2, &res);
	ok(res.count == NV + 4 && res.invalid == 4 && res.invalid_why.zero_slots == 1 &&
	   res.invalid_why.l1_sum == 1 && res.invalid_why.slots_back == 1 &&
	   res.invalid_why.tampered == 1, "delta: 13 pairs, 4 invalid: one each for zero slots, "
	   "level-1 sum, slots back, tampered");
	check(t, r, k, &total, tsc, nt, "delta");
}

/* Metrics-clear: "alone" (each pair its end's segment) and "outer" around
 * "inner" (outer's pair: the segments of inner's begin, of inner, of its
 * own end). */
static void clear_run(struct region_table *t)
{
	struct region *alone = region_add(t, "alone"), *o = region_add(t, "outer"),
		      *in = region_add(t, "inner");
	struct cnt ka[NV], ko[NV], ki[NV], ta = { .c = { 0 } }, to = ta, ti = ta;
	struct reading x;

	for (unsigned i = 0; i < NV; i++) {
		uint64_t s1 = 2550 + 300 * i, s2 = 7000 + 11 * i, s3 = 1275 + i;
		struct cnt seg1 = delta(0, 0, s1, pm_a(i)), seg2 = delta(0, 0, s2, pm_b(i)),
			   seg3 = delta(0, 0, s3, pm_b(8 - i));

		ka[i] = seg2;
		add(&ta, &ka[i]);
		one(t, alone, rd(s1, pm_a(i), 0), rd(s2, pm_b(i), 1), &clean);

		memset(&ko[i], 0, sizeof(ko[i]));
		add(&ko[i], &seg1);
		add(&ko[i], &seg2);
		add(&ko[i], &seg3);
		ki[i] = seg2;
		add(&to, &ko[i]);
		add(&ti, &ki[i]);
		x = rd(4000, pm_b(3), 0);
		region_begin(t, o, &x);
		x = rd(s1, pm_a(i), 0);
		region_begin(t, in, &x);
		x = rd(s2, pm_b(i), 0);
		region_end(t, in, &x, 2);
		x = rd(s3, pm_b(8 - i), 0);
		region_end(t, o, &x, 2);
		region_epoch_end(t, &clean);
	}
	check(t, alone, ka, &ta, NULL, 0, "metrics-clear alone");
	check(t, o, ko, &to, NULL, 0, "metrics-clear outer");
	check(t, in, ki, &ti, NULL, 0, "metrics-clear inner");
}

/* More pairs than kept (header). */
static void wrap_run(struct region_table *t)
{
	struct region *r = region_add(t, "wrap");
	struct baretma_region_stats st;

	for (unsigned i = 0; i < REGION_SAMPLES + 6; i++) {
		unsigned R = i < 6 ? 200 : (i - 6) % 200;

		one(t, r, rd(0, 0, 0), rd(255 * (i + 1), R | (uint64_t)(255 - R) << 24, 1),
		    &clean);
	}
	region_stats(t, r, 2, &st);
	ok(st.total.count == REGION_SAMPLES + 6 && st.total.invalid == 0 &&
	   st.pairs == REGION_SAMPLES && st.tma[BARETMA_TMA_RETIRING].n == REGION_SAMPLES,
	   "1030 pairs: all in the totals, the last 1024 in the statistics");
	ok(st.tma[BARETMA_TMA_RETIRING].median == 100.0 * (97.0 / 255),
	   "the last 1024: median retiring 100 x 97/255 (%.17g)",
	   st.tma[BARETMA_TMA_RETIRING].median);
	ok(st.tma[BARETMA_TMA_RETIRING].max == 100.0 * (199.0 / 255) &&
	   st.tma[BARETMA_TMA_RETIRING].min == 0,
	   "... max 100 x 199/255, min 0: the first six (200/255) left out (max %.17g)",
	   st.tma[BARETMA_TMA_RETIRING].max);
	check_dbl(st.tma[BARETMA_TMA_BACKEND_BOUND].median, 100.0 * (158.0 / 255), 1e-12,
		  "... median backend 100 x (255 - 97)/255");
}

int main(void)
{
	static struct region_table t;
	static struct read_set rs;

	read_set_perf_metrics(&rs);
	t.rs = &rs;
	if (region_store_new(&t))
		skip_all("no memory for the store");
	delta_run(&t);
	wrap_run(&t);
	region_store_free(&t);

	memset(&t, 0, sizeof(t));
	rs.metrics_clear = true;
	t.rs = &rs;
	if (region_store_new(&t))
		skip_all("no memory for the store");
	clear_run(&t);
	region_store_free(&t);
	return done_testing();
}
