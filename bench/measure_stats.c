/*
 * bench/measure_stats.c - the statistics of a kernel's repetitions
 * (bench/measure_int.h): the empty bracket's cost, its subtraction in
 * slots per field, and the medians and quartiles of what is left.  Pure:
 * no session, no source, no register.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/measure_int.h"

bool bench_rep_valid(const struct rep_sample *v)
{
	return !v->tampered && !v->overflow && !(v->flags & TD_FLAGS_INVALID);
}

void bench_bracket_cost(const struct rep_sample *v, unsigned n, struct bench_result *res,
		  struct bracket_cost *bc)
{
	double *tmp = calloc(n ? n : 1, sizeof(double)), *err = calloc(n ? n : 1, sizeof(double));
	unsigned m = 0;

	memset(bc, 0, sizeof(*bc));
	if (!tmp || !err)
		goto out;
	for (unsigned i = 0; i < n; i++)
		tmp[i] = v[i].tsc;
	bench_stats_compute(tmp, n, &res->bracket_tsc);
	bc->tsc = res->bracket_tsc.median;
	for (unsigned i = 0; i < n; i++)
		if (bench_rep_valid(&v[i])) {
			tmp[m] = v[i].slots;
			err[m++] = v[i].err_slots;
		}
	if (!m)
		goto out;
	bench_stats_compute(tmp, m, &res->bracket_slots);
	bc->slots = res->bracket_slots.median;
	bc->err_slots = res->bracket_err_slots = bench_median(err, m);
	for (unsigned f = 0; f < TD_NFIELDS; f++) {
		m = 0;
		for (unsigned i = 0; i < n; i++)
			if (bench_rep_valid(&v[i]))
				tmp[m++] = v[i].fs[f];
		bench_stats_compute(tmp, m, &res->bracket_fs[f]);
		bc->fs[f] = res->bracket_fs[f].median;
	}
out:
	free(tmp);
	free(err);
}

void bench_subtracted_cost(const struct bench_result *res, const struct bracket_cost *own,
		     struct bracket_cost *bc)
{
	const struct bench_calib_use *u = &res->calib;

	*bc = *own;
	if (!u->used)
		return;
	bc->tsc = u->bracket_tsc;
	if (!res->level)
		return;
	bc->slots = u->bracket_slots;
	bc->err_slots = u->bracket_err_slots;
	memcpy(bc->fs, u->bracket_fs, sizeof(bc->fs));
}

int bench_subtract_bracket(const double fs[TD_NFIELDS], double slots,
			   const double empty_fs[TD_NFIELDS], double empty_slots,
			   double err_slots, int level, struct td_result *out)
{
	double d[TD_NFIELDS];

	for (unsigned f = 0; f < TD_NFIELDS; f++)
		d[f] = fs[f] - empty_fs[f];
	return td_from_field_slots(d, slots - empty_slots, err_slots, level, out);
}

/* Why one repetition is left out, counted once, first reason first. */
static void count_invalid(const struct rep_sample *v, unsigned flags,
			  struct bench_kernel_result *kr)
{
	kr->invalid++;
	if (v->tampered)
		kr->tampered++;
	else if (v->overflow)
		kr->overflow++;
	else if (flags & TD_FLAG_SLOTS_BACK)
		kr->slots_back++;
	else if ((flags & TD_FLAG_ZERO_SLOTS) && v->slots > 0)
		kr->below_bracket++; /* counted, but no more than the bracket */
	else if (flags & TD_FLAG_ZERO_SLOTS)
		kr->zero_slots++;
	else
		kr->l1_sum++;
}

int bench_summarise(int level, const struct rep_sample *v, unsigned n, const struct bracket_cost *bc,
	      struct bench_kernel_result *kr)
{
	double *tsc = calloc(n, sizeof(double)), *slots = calloc(n, sizeof(double));
	double *bound = calloc(n, sizeof(double)), *tma[TMA_NMETRICS] = { 0 };
	double *rbound = calloc(n, sizeof(double)), *bbound = calloc(n, sizeof(double));
	unsigned good = 0;
	int rc = -ENOMEM;

	for (unsigned m = 0; m < TMA_NMETRICS; m++)
		if (!(tma[m] = calloc(n, sizeof(double))))
			goto out;
	if (!tsc || !slots || !bound || !rbound || !bbound)
		goto out;
	for (unsigned i = 0; i < n; i++) {
		tsc[i] = v[i].tsc - (bc ? bc->tsc : 0);
		if (!kr->topdown)
			continue;
		static const double none[TD_NFIELDS];
		struct td_result r = { .flags = v[i].flags };
		double d = v[i].slots - (bc ? bc->slots : 0);
		double err = v[i].err_slots + (bc ? bc->err_slots : 0);

		bench_subtract_bracket(v[i].fs, v[i].slots, bc ? bc->fs : none,
				       bc ? bc->slots : 0, err, level, &r);
		/* a tampered, overflowed or flagged repetition is not a number */
		if (v[i].tampered || v[i].overflow || (r.flags & TD_FLAGS_INVALID)) {
			count_invalid(&v[i], r.flags, kr);
			continue;
		}
		kr->flags |= r.flags;
		kr->normalised += !!(r.flags & TD_FLAG_NORMALISED);
		slots[good] = d;
		bound[good] = err / d;
		rbound[good] = v[i].err_slots / d;
		bbound[good] = (bc ? bc->err_slots : 0) / d;
		for (unsigned m = 0; m < TMA_NMETRICS; m++)
			tma[m][good] = r.frac[m];
		good++;
	}
	kr->reps = n;
	bench_stats_compute(tsc, n, &kr->tsc);
	if (kr->topdown && good) {
		bench_stats_compute(slots, good, &kr->slots);
		kr->bound = bench_median(bound, good);
		kr->read_bound = bench_median(rbound, good);
		kr->bracket_bound = bench_median(bbound, good);
		for (unsigned m = 0; m < TMA_NMETRICS; m++)
			bench_stats_compute(tma[m], good, &kr->tma[m]);
	}
	rc = 0;
out:
	for (unsigned m = 0; m < TMA_NMETRICS; m++)
		free(tma[m]);
	free(tsc);
	free(slots);
	free(bound);
	free(rbound);
	free(bbound);
	return rc;
}
