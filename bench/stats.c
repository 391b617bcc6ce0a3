/*
 * bench/stats.c - robust statistics of one quantity over repetitions.
 *
 * Quantiles use R's type 7 (numpy's default "linear"): for probability p
 * over the sorted x[0..n-1], h = (n - 1) p and
 *   Q(p) = x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h]),
 * so Q(0.5) is the usual median (the mean of the two middle values when n
 * is even).  Hyndman & Fan, "Sample quantiles in statistical packages",
 * The American Statistician 50(4), 1996, definition 7.
 * MAD is the median of |x - median|, not scaled by 1.4826.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Type-7 quantile of sorted @s[0..n-1], n >= 1. */
static double quantile_sorted(const double *s, size_t n, double p)
{
	double h = (double)(n - 1) * p;
	size_t lo = (size_t)floor(h);

	if (lo + 1 >= n)
		return s[n - 1];
	return s[lo] + (h - (double)lo) * (s[lo + 1] - s[lo]);
}

/* A sorted copy of @v, or NULL (ENOMEM). */
static double *sorted_copy(const double *v, size_t n)
{
	double *s = malloc(n * sizeof(*s));

	if (!s)
		return NULL;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	return s;
}

double bench_median(const double *v, size_t n)
{
	double *s, m;

	if (n == 0 || !v)
		return NAN;
	s = sorted_copy(v, n);
	if (!s)
		return NAN;
	m = quantile_sorted(s, n, 0.5);
	free(s);
	return m;
}

int bench_stats_compute(const double *v, size_t n, struct bench_stats *out)
{
	double *s = NULL, sum = 0;
	int rc = -EINVAL;

	memset(out, 0, sizeof(*out));
	if (n == 0 || !v)
		goto out;
	rc = -ENOMEM;
	s = sorted_copy(v, n);
	if (!s)
		goto out;
	out->n = n;
	out->min = s[0];
	out->max = s[n - 1];
	out->q1 = quantile_sorted(s, n, 0.25);
	out->median = quantile_sorted(s, n, 0.5);
	out->q3 = quantile_sorted(s, n, 0.75);
	out->p05 = quantile_sorted(s, n, 0.05);
	out->p95 = quantile_sorted(s, n, 0.95);
	out->p025 = quantile_sorted(s, n, 0.025);
	out->p975 = quantile_sorted(s, n, 0.975);
	for (size_t i = 0; i < n; i++)
		sum += s[i];
	out->mean = sum / (double)n;
	/* reuse the copy for the absolute deviations */
	for (size_t i = 0; i < n; i++)
		s[i] = fabs(s[i] - out->median);
	qsort(s, n, sizeof(*s), cmp_double);
	out->mad = quantile_sorted(s, n, 0.5);
	rc = 0;
out:
	free(s);
	return rc;
}
