/*
 * t/0456-compare-stats.c - the statistics of `baretma compare`
 * (bench/study/compare.h) against vectors worked by hand: the sign-test
 * interval's order statistic k from the binomial distribution (Conover,
 * Practical Nonparametric Statistics, table A3: n = 10 -> (2, 9),
 * n = 20 -> (6, 15)), the sign test's p against the allowance, Holm's
 * adjustment (Holm 1979, Scand. J. Statist. 6:65-70) of a set of p-values
 * and of a run's family of metrics, the fewest pairs a family needs, and
 * the verdicts of four block series.
 */
#include <math.h>

#include "bench/study/compare.h"
#include "t/tap.h"

static void test_k(void)
{
	/* P(B(5) <= 0) = 1/32 = 0.031 > 0.025: no 95 % interval with 5 pairs */
	check_int((int)compare_sign_k(5), ==, 0, "5 pairs: no 95% interval");
	/* P(B(6) <= 0) = 1/64 = 0.016, P(B(6) <= 1) = 7/64 = 0.109: k = 1 */
	check_int((int)compare_sign_k(6), ==, 1, "6 pairs: k = 1");
	/* P(B(8) <= 0) = 1/256 = 0.0039, P(B(8) <= 1) = 9/256 = 0.035 > 0.025:
	 * k = 1 (at a one-sided 0.05 it would be 2) */
	check_int((int)compare_sign_k(8), ==, 1, "8 pairs: k = 1 (d(1), d(8))");
	/* P(B(10) <= 1) = 11/1024 = 0.0107, P(<= 2) = 56/1024 = 0.0547: k = 2 */
	check_int((int)compare_sign_k(10), ==, 2, "10 pairs: k = 2 (d(2), d(9))");
	/* P(B(20) <= 5) = 21700/2^20 = 0.0207, P(<= 6) = 0.0577: k = 6 */
	check_int((int)compare_sign_k(20), ==, 6, "20 pairs: k = 6 (d(6), d(15))");
}

static void test_agree(void)
{
	static const double raw[10] = { 40, 41, 39, 40, 42, 38, 40, 41, 39, 40 };
	static const double perf[10] = { 40, 40, 40, 40, 40, 40, 40, 40, 40, 40 };
	struct compare_metric m;

	/* d sorted -2 -1 -1 0 0 0 0 1 1 2: median 0, [d(2), d(9)] = [-1, 1];
	 * allowance 0.4 + 0.3 = 0.7: one d above it (1 1 2: three), three
	 * below (-2 -1 -1): p = 2 x P(B(10) >= 3) = 2 x 968/1024 > 1 -> 1 */
	compare_metric_stats(raw, perf, 10, 0.4, 0.3, &m);
	check_int((int)m.n, ==, 10, "agree: 10 pairs");
	check_dbl(m.raw, 40, 1e-12, "agree: raw median");
	check_dbl(m.perf, 40, 1e-12, "agree: perf median");
	check_dbl(m.diff, 0, 1e-12, "agree: difference");
	check_dbl(m.lo, -1, 1e-12, "agree: interval low d(2)");
	check_dbl(m.hi, 1, 1e-12, "agree: interval high d(9)");
	check_dbl(m.allow, 0.7, 1e-12, "agree: allowance, both bounds");
	check_int((int)m.above * 100 + (int)m.below, ==, 303, "agree: 3 above, 3 below");
	check_dbl(m.p, 1, 1e-12, "agree: p 1");
	check_int(m.verdict, ==, COMPARE_AGREE, "agree: verdict");
}

static void test_disagree(void)
{
	static const double raw[6] = { 30, 30.5, 29.5, 30, 30, 30 };
	double perf[6];
	struct compare_metric m;

	/* perf = raw + 5 (fault perf_offset tma_backend_bound 5): d = -5 each,
	 * interval [-5, -5]; allowance 0.4 + 0.4 = 0.8; hi = -5 < -0.8 and
	 * every d below -0.8: p = 2 x P(B(6) >= 6) = 2/64: DISAGREE */
	for (int i = 0; i < 6; i++)
		perf[i] = raw[i] + 5;
	compare_metric_stats(raw, perf, 6, 0.4, 0.4, &m);
	check_dbl(m.diff, -5, 1e-12, "offset: difference");
	check_dbl(m.hi, -5, 1e-12, "offset: interval high");
	check_dbl(m.allow, 0.8, 1e-12, "offset: allowance");
	check_dbl(m.p, 2.0 / 64, 1e-15, "offset: p = 2/64");
	check_int(m.verdict, ==, COMPARE_DISAGREE, "offset: DISAGREE");
	/* the same offset, within an allowance of 5 (2.5 + 2.5: no d beyond
	 * it, p 1): agree */
	compare_metric_stats(raw, perf, 6, 2.5, 2.5, &m);
	check_int(m.verdict, ==, COMPARE_AGREE, "offset within a wide tolerance: agree");
}

static void test_noise_once(void)
{
	static const double raw[10] = { 30, 34, 26, 32, 28, 31, 29, 33, 27, 30 };
	static const double e[10] = { 0.1, -0.1, 0.2, -0.2, 0, 0.1, -0.1, 0.2, -0.2, 0 };
	double perf[10];
	struct compare_metric m;

	/* Each side wanders by +-4 points from block to block, together (the
	 * pairs share the block's conditions); perf reads 3 points more, give
	 * or take 0.2.  d = -3 - e: sorted -3.2 -3.2 -3.1 -3.1 -3.0 -3.0 -2.9
	 * -2.9 -2.8 -2.8, median -3, interval [d(2), d(9)] = [-3.2, -2.8];
	 * allowance 0.5 + 0.5 = 1: the interval lies wholly below -1, and
	 * every d_i < -1, so p = 2 x P(B(10, 1/2) >= 10) = 2/1024.  (Adding
	 * each side's own 95 % half-interval, 3 and 3.2 points, to the
	 * allowance would count the block-to-block noise that the paired
	 * differences have already taken out, a second time: 7.2 points, and
	 * the 3-point offset would pass.) */
	for (int i = 0; i < 10; i++)
		perf[i] = raw[i] + 3 + e[i];
	compare_metric_stats(raw, perf, 10, 0.5, 0.5, &m);
	check_dbl(m.diff, -3, 1e-12, "noise once: difference");
	check_dbl(m.lo, -3.2, 1e-12, "noise once: interval low d(2)");
	check_dbl(m.hi, -2.8, 1e-12, "noise once: interval high d(9)");
	check_int(m.verdict, ==, COMPARE_DISAGREE,
		  "noise once: DISAGREE (interval beyond the allowance of both bounds)");
	check_dbl(m.p, 2.0 / 1024, 1e-15, "noise once: p = 2/1024");
}

static void test_sign_p(void)
{
	/* p = min(1, 2 max-side tail): P(B(n) >= j) = sum C(n, i) / 2^n, i >= j */
	check_dbl(compare_sign_p(10, 0, 10), 2.0 / 1024, 1e-15, "10 of 10 below: 2/1024");
	check_dbl(compare_sign_p(10, 9, 0), 2.0 * 11 / 1024, 1e-15,
		  "9 of 10 above: 2 x (1 + 10)/1024 = 0.0215");
	check_dbl(compare_sign_p(20, 0, 18), 2.0 * 211 / 1048576, 1e-15,
		  "18 of 20 below: 2 x (1 + 20 + 190)/2^20");
	check_dbl(compare_sign_p(10, 0, 0), 1, 1e-15, "none beyond: 1");
	check_dbl(compare_sign_p(6, 2, 3), 1, 1e-15,
		  "3 of 6 below, 2 above: 2 x 42/64 > 1 -> 1");
	/* p <= 0.05 exactly when the 95 % interval [d(2), d(9)] of 10 pairs
	 * lies outside: 9 beyond gives 0.0215 (d(9) beyond), 8 gives 2 x 56 /
	 * 1024 = 0.109 (d(9) is not) */
	check_dbl(compare_sign_p(10, 0, 8), 2.0 * 56 / 1024, 1e-15, "8 of 10 below: 0.109");
}

static void test_holm(void)
{
	/* Holm's worked order: sorted 0.005 (x4 = 0.02), 0.01 (x3 = 0.03),
	 * 0.03 (x2 = 0.06), 0.04 (x1 = 0.04, but never below the step before:
	 * 0.06).  At 0.05 the first and the fourth are rejected; 0.04 alone
	 * would have been, and is not. */
	const double p[4] = { 0.01, 0.04, 0.03, 0.005 };
	double adj[4];

	compare_holm(p, 4, adj);
	check_dbl(adj[0], 0.03, 1e-15, "holm: 0.01 -> 3 x 0.01");
	check_dbl(adj[1], 0.06, 1e-15, "holm: 0.04 -> 0.06 (monotone)");
	check_dbl(adj[2], 0.06, 1e-15, "holm: 0.03 -> 2 x 0.03");
	check_dbl(adj[3], 0.02, 1e-15, "holm: 0.005 -> 4 x 0.005");
	/* capped at 1 */
	const double q[2] = { 0.7, 0.9 };

	compare_holm(q, 2, adj);
	check_dbl(adj[0], 1, 1e-15, "holm: 2 x 0.7 capped at 1");
	check_dbl(adj[1], 1, 1e-15, "holm: 0.9 after a 1: 1");
}

static void test_min_pairs(void)
{
	/* the smallest n >= 6 with h x 2 x 2^-n <= 0.05, i.e. 2^n >= 40 h */
	check_int((int)compare_min_pairs(1), ==, 6, "1 hypothesis: 6 pairs (2/64 = 0.031)");
	check_int((int)compare_min_pairs(8), ==, 9, "8: 2^9 = 512 >= 320");
	check_int((int)compare_min_pairs(24), ==, 10, "24: 2^10 = 1024 >= 960");
	check_int((int)compare_min_pairs(96), ==, 12, "96: 2^12 = 4096 >= 3840 (2^11 is not)");
}

/* A run's family: two kernels at level 1, 10 pairs: 8 hypotheses. */
static void test_family(void)
{
	static const double base[10] = { 30, 34, 26, 32, 28, 31, 29, 33, 27, 30 };
	struct compare_kernel ks[2] = { { .name = "a" }, { .name = "b" } };
	struct compare_result res = { .nkernels = 2, .kernels = ks, .level = 1 };
	double perf[10];

	/* kernel a backend: perf 3 points above in all 10 pairs: p = 2/1024;
	 * kernel b backend: in 9 of 10 (the last pair equal): p = 2 x 11/1024
	 * = 0.0215, its own 95 % interval [d(2), d(9)] = [-3, -3] outside
	 * +-1; every other metric equal on both sides: p 1.  Holm over 8:
	 * 8 x 2/1024 = 0.0156 -> DISAGREE; 7 x 0.0215 = 0.150 -> agree (one
	 * run's 8 comparisons: a 0.0215 is what 8 tries at 5 % turn up by
	 * chance); the six 1s stay 1. */
	for (int k = 0; k < 2; k++)
		for (unsigned m = 0; m < TMA_NMETRICS; m++) {
			for (int i = 0; i < 10; i++)
				perf[i] = base[i] + (m == TMA_BACKEND_BOUND && (k == 0 || i < 9) ? 3 : 0);
			compare_metric_stats(base, perf, 10, 0.5, 0.5, &ks[k].m[m]);
		}
	check_dbl(ks[1].m[TMA_BACKEND_BOUND].hi, -3, 1e-12, "family: b's interval high d(9) = -3");
	check_int(ks[1].m[TMA_BACKEND_BOUND].verdict, ==, COMPARE_DISAGREE,
		  "family: b alone (a family of one) would DISAGREE");
	compare_verdicts(&res);
	check_dbl(ks[0].m[TMA_BACKEND_BOUND].p_holm, 8 * 2.0 / 1024, 1e-15, "family: a 8 x 2/1024");
	check_dbl(ks[1].m[TMA_BACKEND_BOUND].p_holm, 7 * 22.0 / 1024, 1e-15,
		  "family: b 7 x 22/1024");
	check_dbl(ks[1].m[TMA_RETIRING].p_holm, 1, 1e-15, "family: equal metrics 1");
	check_int(ks[0].m[TMA_BACKEND_BOUND].verdict, ==, COMPARE_DISAGREE, "family: a DISAGREE");
	check_int(ks[1].m[TMA_BACKEND_BOUND].verdict, ==, COMPARE_AGREE, "family: b agree");
	check_int(res.agree * 100 + res.disagree * 10 + res.na, ==, 710,
		  "family: 7 agree, 1 DISAGREE, 0 n/a (level-2 metrics not counted)");
}

static void test_na(void)
{
	double raw[6] = { 40, 40, 40, 40, 40, NAN }, perf[6] = { 40, 40, 40, 40, 40, 40 };
	struct compare_metric m;

	/* one block without a median leaves 5 pairs: no 95 % interval */
	compare_metric_stats(raw, perf, 6, 0.4, 0.4, &m);
	check_int((int)m.n, ==, 5, "n/a: 5 pairs with numbers");
	check_int(m.verdict, ==, COMPARE_NA, "n/a: not compared (a check not made is no pass)");
}

int main(void)
{
	plan(52);
	test_k();
	test_agree();
	test_disagree();
	test_noise_once();
	test_sign_p();
	test_holm();
	test_min_pairs();
	test_family();
	test_na();
	return done_testing();
}
