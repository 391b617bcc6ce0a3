/*
 * bench/output/output_long.c - the long layout of measured quantities
 * that --csv and -x SEP write for bench and stat (output.h struct
 * output_long; doc/csv.md): one record per value,
 * every number with the digits its double holds.
 */
#include <math.h>
#include <stdio.h>

#include "bench/output/output.h"

const char *const output_long_columns[] = { "cpu", "kind", "recipe", "backend", "time",
	"kernel", "level", "quantity", "unit", "value", "bound_pp", "n", "median", "min", "max",
	"q1", "q3", "mad", "mean", NULL };

#define LONG_NSTATS 7 /* median, min, max, q1, q3, mad, mean */

char *output_number(char *buf, size_t n, double v)
{
	if (isnan(v)) {
		snprintf(buf, n, "NaN");
	} else if (isinf(v)) {
		snprintf(buf, n, v > 0 ? "+Inf" : "-Inf");
	} else {
		snprintf(buf, n, "%.15g", v);
	}
	return buf;
}

/* @v in @buf, or "" when it is not a number (a cell left empty). */
static const char *cell(char *buf, size_t n, double v)
{
	if (isnan(v)) {
		buf[0] = '\0';
		return buf;
	}
	return output_number(buf, n, v);
}

void output_long_record(output_record_fn record, void *arg, const struct output_long *l)
{
	const struct bench_stats *s = l->stats;
	char t[OUTPUT_NUMBER_MAX], level[12] = "", value[OUTPUT_NUMBER_MAX];
	char bound[OUTPUT_NUMBER_MAX], n[24], st[LONG_NSTATS][OUTPUT_NUMBER_MAX];
	double v[LONG_NSTATS] = { NAN, NAN, NAN, NAN, NAN, NAN, NAN };
	double val = l->value;
	const char *cells[20];

	if (s && s->n > 1) { /* a single sample has no statistics: never one value 7 times */
		double w[LONG_NSTATS] = { s->median, s->min, s->max, s->q1, s->q3, s->mad,
					  s->mean };

		for (unsigned i = 0; i < LONG_NSTATS; i++)
			v[i] = w[i];
	}
	if (s)
		val = s->n ? s->median : NAN;
	if (l->level > 0)
		snprintf(level, sizeof(level), "%d", l->level);
	snprintf(n, sizeof(n), "%zu", s ? s->n : (size_t)1);
	cells[0] = l->cpu;
	cells[1] = l->kind;
	cells[2] = l->recipe;
	cells[3] = l->backend;
	t[0] = '\0';
	if (!isnan(l->time)) /* nanoseconds since the start: all that CLOCK_MONOTONIC has */
		snprintf(t, sizeof(t), "%.9f", l->time);
	cells[4] = t;
	cells[5] = l->kernel;
	cells[6] = level;
	cells[7] = l->quantity;
	cells[8] = l->unit;
	cells[9] = cell(value, sizeof(value), val);
	cells[10] = cell(bound, sizeof(bound), l->bound);
	cells[11] = n;
	for (unsigned i = 0; i < LONG_NSTATS; i++)
		cells[12 + i] = cell(st[i], sizeof(st[i]), v[i]);
	cells[19] = NULL;
	record(arg, cells);
}
