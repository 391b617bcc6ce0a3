/*
 * bench/stats.h - robust statistics of one quantity over repetitions.
 */
#ifndef BARETMA_STATS_H
#define BARETMA_STATS_H

#include <stddef.h>

struct bench_stats {
	size_t n;
	double median;
	double min, max;
	double q1, q3;   /* quartiles (linear interpolation, type 7 as in R/numpy) */
	double mad;      /* median absolute deviation from the median (unscaled) */
	double mean;
	double p025, p975; /* 2.5th and 97.5th percentiles (type 7): the 95 %
			    * spread is (p975 - p025) / 2 (bench/study/calibrate.h) */
	double p05, p95;   /* 5th and 95th percentiles (type 7): the spread of a
			    * timing (bench/benchmarks/bracket.c) */
};

/*
 * bench_stats_compute - statistics of @v[0..n-1] (not modified).
 * Returns 0, or -EINVAL when n == 0 (then *out is zeroed and out->n = 0).
 */
int bench_stats_compute(const double *v, size_t n, struct bench_stats *out);

/* bench_median - median of @v[0..n-1] (not modified); NAN when n == 0. */
double bench_median(const double *v, size_t n);

#endif
