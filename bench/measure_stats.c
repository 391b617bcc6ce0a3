/*
 * bench/measure_stats.c - the statistics of a kernel's repetitions
 * (bench/measure_int.h): the empty bracket's cost per event, its
 * subtraction from the counts, and the medians and quartiles of the
 * fractions the recipe makes of what is left (bench/tma.h).  Pure: no
 * session, no source, no register.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/measure_int.h"
#include "bench/tma.h"

bool bench_rep_valid(const struct rep_sample *v)
{
	return !v->tampered && !v->overflow && !(v->flags & TD_FLAGS_INVALID);
}

/* Where @res (and a calibration) keeps the empty bracket of event @name:
 * TOPDOWN.SLOTS as its slots, a topdown-* event as its field (the
 * calibration document's keys, bench/calibration.h); -1 for TOPDOWN.SLOTS,
 * the field, or -2 for an event the document has no key for. */
static int bracket_key(const char *name)
{
	for (int f = 0; f < READ_TD_EVENTS; f++)
		if (name == read_td_events[f] || !strcmp(name, read_td_events[f]))
			return f - 1;
	return -2;
}

/* @st as the bracket of count @name in pass @pass of @res (replacing the
 * same name and pass; a name that does not fit, or a full table: left out,
 * the run's own bracket is what a run subtracts anyway). */
static void record_count(struct bench_result *res, const char *name, unsigned pass,
			 const struct bench_stats *st)
{
	unsigned i;

	if (strlen(name) >= BENCH_COUNT_NAME_MAX)
		return;
	for (i = 0; i < res->nbracket_counts; i++)
		if (res->bracket_counts[i].pass == pass && !strcmp(res->bracket_counts[i].name, name))
			break;
	if (i == BENCH_BRACKET_COUNTS_MAX)
		return;
	if (i == res->nbracket_counts)
		res->nbracket_counts++;
	snprintf(res->bracket_counts[i].name, sizeof(res->bracket_counts[i].name), "%s", name);
	res->bracket_counts[i].pass = pass;
	res->bracket_counts[i].st = *st;
}

void bench_bracket_cost(const struct read_set *rs, const struct rep_sample *v, unsigned n,
			struct bench_result *res, struct bracket_cost *bc)
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
		if (bench_rep_valid(&v[i]))
			err[m++] = v[i].c.err;
	if (!m || !rs)
		goto out;
	bc->c.err = res->bracket_err_slots = bench_median(err, m);
	for (unsigned k = 0; k < rs->ncounts; k++) {
		struct bench_stats st;
		int key = bracket_key(rs->count[k]);

		m = 0;
		for (unsigned i = 0; i < n; i++)
			if (bench_rep_valid(&v[i]))
				tmp[m++] = v[i].c.c[k];
		bench_stats_compute(tmp, m, &st);
		bc->c.c[k] = st.median;
		record_count(res, rs->count[k], rs->pass, &st);
		if (key == -1)
			res->bracket_slots = st;
		else if (key >= 0)
			res->bracket_fs[key] = st;
	}
	if (rs->recipe) { /* an event recipe: its SLOTS node (width x cycles) */
		m = 0;
		for (unsigned i = 0; i < n; i++)
			if (bench_rep_valid(&v[i]) && !tma_slots(rs, &v[i].c, &tmp[m]))
				m++;
		bench_stats_compute(tmp, m, &res->bracket_slots);
	}
out:
	free(tmp);
	free(err);
}

void bench_subtracted_cost(const struct read_set *rs, const struct bench_result *res,
			   const struct bracket_cost *own, struct bracket_cost *bc)
{
	const struct bench_calib_use *u = &res->calib;

	*bc = *own;
	if (!u->used)
		return;
	bc->tsc = u->bracket_tsc;
	if (!res->level || !rs)
		return;
	bc->c.err = u->bracket_err_slots;
	/* an event the document has no key for keeps the run's own median */
	for (unsigned k = 0; k < rs->ncounts; k++) {
		int key = bracket_key(rs->count[k]);
		bool named = false;

		for (unsigned i = 0; i < u->ncounts && !named; i++)
			if (u->counts[i].pass == rs->pass && !strcmp(u->counts[i].name, rs->count[k])) {
				bc->c.c[k] = u->counts[i].st.median;
				named = true;
			}
		if (named)
			continue;
		if (key == -1)
			bc->c.c[k] = u->bracket_slots;
		else if (key >= 0)
			bc->c.c[k] = u->bracket_fs[key];
	}
}

int bench_subtract_bracket(const struct read_set *rs, const struct counts *region,
			   const struct counts *empty, int level, struct td_result *out)
{
	struct counts net;

	counts_sub(region, empty, rs ? rs->ncounts : 0, &net);
	return counts_to_tma(rs, &net, level, out);
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

/* A node's value of one repetition: kept unless NAN (a node the recipe
 * does not define, or a split of nothing: msr/recipe/recipe.h). */
static void keep(double *vals, unsigned *n, double v)
{
	if (!isnan(v))
		vals[(*n)++] = v;
}

/* The names and levels of @x's nodes into @kr (the first repetition's). */
static void extra_names(const struct tma_extra *x, struct bench_kernel_result *kr)
{
	kr->nextra = x->n;
	for (unsigned j = 0; j < x->n; j++) {
		kr->extra_name[j] = x->x[j].metric;
		kr->extra_level[j] = x->x[j].level;
	}
}

int bench_summarise(const struct read_set *rs, int level, const struct rep_sample *v,
		    unsigned n, const struct bracket_cost *bc, struct bench_kernel_result *kr)
{
	double *tsc = calloc(n, sizeof(double)), *slots = calloc(n, sizeof(double));
	double *bound = calloc(n, sizeof(double)), *tma[TMA_NMETRICS] = { 0 };
	double *rbound = calloc(n, sizeof(double)), *bbound = calloc(n, sizeof(double));
	double *xv[RECIPE_EXTRA_MAX] = { 0 };
	unsigned nm[TMA_NMETRICS] = { 0 }, nx[RECIPE_EXTRA_MAX] = { 0 };
	static const struct counts none;
	const struct counts *empty = bc ? &bc->c : &none;
	unsigned good = 0;
	int rc = -ENOMEM;

	for (unsigned m = 0; m < TMA_NMETRICS; m++)
		if (!(tma[m] = calloc(n, sizeof(double))))
			goto out;
	for (unsigned j = 0; j < RECIPE_EXTRA_MAX; j++)
		if (!(xv[j] = calloc(n, sizeof(double))))
			goto out;
	if (!tsc || !slots || !bound || !rbound || !bbound)
		goto out;
	for (unsigned i = 0; i < n; i++) {
		tsc[i] = v[i].tsc - (bc ? bc->tsc : 0);
		if (!kr->topdown)
			continue;
		struct counts c = v[i].c, net;
		struct tma_extra x = { 0 };
		struct td_result r;

		/* what the pair's counting found stays (counts_to_tma keeps it) */
		c.flags = v[i].flags;
		counts_sub(&c, empty, rs ? rs->ncounts : 0, &net);
		if (counts_to_tma_extra(rs, &net, level, &r, &x))
			r = (struct td_result){ .flags = TD_FLAG_ZERO_SLOTS };
		/* a tampered, overflowed or flagged repetition is not a number */
		if (v[i].tampered || v[i].overflow || (r.flags & TD_FLAGS_INVALID)) {
			count_invalid(&v[i], r.flags, kr);
			continue;
		}
		kr->flags |= r.flags;
		kr->normalised += !!(r.flags & TD_FLAG_NORMALISED);
		slots[good] = r.slots;
		bound[good] = r.bound;
		rbound[good] = v[i].c.err / r.slots;
		bbound[good] = empty->err / r.slots;
		for (unsigned m = 0; m < TMA_NMETRICS; m++)
			keep(tma[m], &nm[m], r.frac[m]);
		if (!good)
			extra_names(&x, kr);
		for (unsigned j = 0; j < x.n && j < kr->nextra; j++)
			keep(xv[j], &nx[j], x.x[j].frac);
		good++;
	}
	kr->reps = n;
	kr->events = rs && rs->recipe;
	bench_stats_compute(tsc, n, &kr->tsc);
	if (kr->topdown && good) {
		bench_stats_compute(slots, good, &kr->slots);
		kr->bound = bench_median(bound, good);
		kr->read_bound = bench_median(rbound, good);
		kr->bracket_bound = bench_median(bbound, good);
		for (unsigned m = 0; m < TMA_NMETRICS; m++)
			bench_stats_compute(tma[m], nm[m], &kr->tma[m]);
		for (unsigned j = 0; j < kr->nextra; j++)
			bench_stats_compute(xv[j], nx[j], &kr->extra[j]);
	}
	rc = 0;
out:
	for (unsigned m = 0; m < TMA_NMETRICS; m++)
		free(tma[m]);
	for (unsigned j = 0; j < RECIPE_EXTRA_MAX; j++)
		free(xv[j]);
	free(tsc);
	free(slots);
	free(bound);
	free(rbound);
	free(bbound);
	return rc;
}
