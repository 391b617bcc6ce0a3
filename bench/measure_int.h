/*
 * bench/measure_int.h - inside the harness (bench/measure.c): what a
 * repetition leaves for the statistics, and the statistics of a kernel's
 * repetitions (bench/measure_stats.c), apart from the run that takes them.
 * Not for the other rooms: they see struct bench_result (bench/bench.h).
 */
#ifndef BARETMA_MEASURE_INT_H
#define BARETMA_MEASURE_INT_H

#include <stdbool.h>

#include "bench/bench.h"

/* One measured repetition of a kernel. */
struct rep_sample {
	double tsc;
	double slots;
	double err_slots;           /* quantisation uncertainty in slots */
	double fs[TD_NFIELDS];      /* field slots of the region */
	unsigned flags;
	bool tampered;              /* a tamper check before or after failed */
	bool overflow;              /* GLOBAL_STATUS bit 35 or 48 after it */
};

/* Median per field of the empty bracket: what the bracket itself costs. */
struct bracket_cost {
	double tsc, slots, err_slots, fs[TD_NFIELDS];
};

/* bench_rep_valid - a repetition whose Top-down can be used as a number. */
bool bench_rep_valid(const struct rep_sample *v);

/* bench_bracket_cost - the empty bracket's statistics over its @n repetitions
 * @v into @res (TSC over every repetition, Top-down over the valid ones)
 * and its medians into @bc. */
void bench_bracket_cost(const struct rep_sample *v, unsigned n, struct bench_result *res,
		  struct bracket_cost *bc);

/* bench_subtracted_cost - the bracket cost subtracted: the calibration's when
 * the run uses one (bench/study/calibrate.h: its measured cost), else the
 * run's own (@own). */
void bench_subtracted_cost(const struct bench_result *res, const struct bracket_cost *own,
		     struct bracket_cost *bc);

/* bench_summarise - the statistics of one kernel's @n repetitions @v at @level
 * into @kr, the empty bracket @bc subtracted (NULL: the empty kernel
 * itself, reported raw).  0 or -ENOMEM. */
int bench_summarise(int level, const struct rep_sample *v, unsigned n, const struct bracket_cost *bc,
	      struct bench_kernel_result *kr);

#endif
