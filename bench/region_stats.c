/*
 * bench/region_stats.c - a region's statistics beyond its sums
 * (bench/region.h region_stats, include/baretma.h baretma_region_stats):
 * the robust statistics of its pairs, with the functions `baretma bench`
 * uses for its repetitions (bench/stats.h: type-7 quartiles, unscaled
 * MAD), so that the same readings give the same numbers in both; and the
 * markers' combined row over the sessions of several threads.
 *
 * Pairs wait in a region's pend bucket until their epoch is checked
 * (bench/region.h): the statistics take the ring's pairs less those, so
 * they cover the same verified pairs as the totals (the last
 * REGION_SAMPLES of them).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/region.h"
#include "bench/stats.h"
#include "bench/tma.h"

int region_store_new(struct region_table *t)
{
	size_t pairs = (size_t)REGION_MAX * REGION_SAMPLES;

	t->stride = t->rs && t->rs->ncounts ? t->rs->ncounts + 1 : 0;
	t->tsc_store = calloc(pairs, sizeof(*t->tsc_store));
	if (t->stride) {
		t->cnt_store = calloc(pairs * t->stride, sizeof(*t->cnt_store));
		t->valid_store = calloc(pairs, sizeof(*t->valid_store));
	}
	if (t->tsc_store && (!t->stride || (t->cnt_store && t->valid_store)))
		return 0;
	region_store_free(t);
	return -ENOMEM;
}

void region_store_free(struct region_table *t)
{
	free(t->tsc_store);
	free(t->cnt_store);
	free(t->valid_store);
	t->tsc_store = NULL;
	t->cnt_store = NULL;
	t->valid_store = NULL;
	t->stride = 0;
}

/* @st from bench_stats_compute of @v[0..n-1]; n 0 (or no memory): NAN. */
static void stat_of(const double *v, size_t n, struct baretma_stat *st)
{
	struct bench_stats b;

	if (bench_stats_compute(v, n, &b)) {
		*st = (struct baretma_stat){ 0, NAN, NAN, NAN, NAN, NAN, NAN };
		return;
	}
	*st = (struct baretma_stat){ b.n, b.median, b.q1, b.q3, b.min, b.max, b.mad };
}

/* The verified pairs in @r's ring: the oldest first, @first its index
 * among the pairs ever kept, *n how many. */
static uint64_t verified(const struct region *r, size_t *n)
{
	uint64_t done = r->nsamples > r->pend.count ? r->nsamples - r->pend.count : 0;
	uint64_t first = done > REGION_SAMPLES ? done - REGION_SAMPLES : 0;

	*n = r->tsc_ring ? (size_t)(done - first) : 0;
	return first;
}

/* The last pair as a result of its own, as decoded when it ended (before
 * its epoch's check); count 0 when the region has none. */
static void last_result(const struct region_table *t, const struct region *r, int level,
			struct baretma_result *res)
{
	struct region one;

	memset(&one, 0, sizeof(one));
	if (r->tot.count || r->pend.count) {
		one.tot.count = 1;
		one.tot.tsc = r->last.tsc;
		if (level && t->rs && t->rs->ncounts && !r->last.valid)
			one.tot.invalid = 1;
		else
			one.tot.sum = r->last.c;
	}
	region_result(t, &one, level, res);
}

/* The valid pairs among @n kept in @r's rings from @first on, evaluated at
 * @level (counts_to_tma on the counts kept: the same numbers as at their
 * ends): their slots into @slots, their shares in percent into @tma[m]
 * (@n each); how many. */
static size_t evaluate(const struct region_table *t, const struct region *r, uint64_t first,
		       size_t n, int level, double *slots, double *tma)
{
	unsigned nc = t->rs->ncounts;
	size_t good = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t k = (first + i) % REGION_SAMPLES;
		const double *p = r->cnt_ring + k * t->stride;
		struct counts c = { .err = p[nc] };
		struct td_result d;

		if (!r->valid_ring[k])
			continue;
		memcpy(c.c, p, nc * sizeof(double));
		if (counts_to_tma(t->rs, &c, level, &d))
			continue; /* cannot be: the pair's end found it a number */
		slots[good] = d.slots;
		for (unsigned m = 0; m < TMA_NMETRICS; m++)
			tma[m * n + good] = 100.0 * d.frac[m];
		good++;
	}
	return good;
}

int region_stats(const struct region_table *t, const struct region *r, int level,
		 struct baretma_region_stats *st)
{
	size_t n, good = 0;
	uint64_t first = verified(r, &n);
	/* per pair: its TSC ticks or slots, and its twelve shares */
	double *v = malloc((n ? n : 1) * (1 + TMA_NMETRICS) * sizeof(double)), *tma;

	memset(st, 0, sizeof(*st));
	if (!v)
		return -ENOMEM;
	tma = v + (n ? n : 1);
	region_result(t, r, level, &st->total);
	last_result(t, r, level, &st->last);
	st->pairs = n;
	for (size_t i = 0; i < n; i++)
		v[i] = r->tsc_ring[(first + i) % REGION_SAMPLES];
	stat_of(v, n, &st->tsc);
	/* no shares kept: nothing counted (level 0, a TSC-only set), no store */
	if (st->total.level && r->cnt_ring)
		good = evaluate(t, r, first, n, level, v, tma);
	stat_of(v, good, &st->slots);
	for (unsigned m = 0; m < TMA_NMETRICS; m++) {
		bool node = st->total.level && td_metric_level((enum td_metric)m) <= st->total.level;
		size_t k = 0;

		for (size_t i = 0; node && i < good; i++)
			if (!isnan(tma[m * n + i]))
				v[k++] = tma[m * n + i];
		stat_of(v, k, &st->tma[m]);
		st->node_slots[m] = node && !isnan(st->total.tma[m]) ?
			st->total.tma[m] / 100.0 * st->total.slots : NAN;
	}
	st->bound_slots = st->total.level ? st->total.bound_pp / 100.0 * st->total.slots : NAN;
	free(v);
	return 0;
}

/* Whether @a and @b count the same events for the same recipe. */
static bool same_kind(const struct read_set *a, const struct read_set *b)
{
	if (!a || !b)
		return a == b;
	if (a->recipe != b->recipe || a->ncounts != b->ncounts)
		return false;
	for (unsigned k = 0; k < a->ncounts; k++)
		if (strcmp(a->count[k], b->count[k]))
			return false;
	return true;
}

unsigned region_combine(const struct region_table *const *ts, unsigned n, const char *name,
			struct region *out, unsigned *skipped)
{
	unsigned had = 0;

	memset(out, 0, sizeof(*out));
	*skipped = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct region *r = region_find((struct region_table *)ts[i], name);
		const struct region_acc *a;

		if (!r)
			continue;
		if (!same_kind(ts[0]->rs, ts[i]->rs)) {
			(*skipped)++;
			continue;
		}
		a = &r->tot;
		out->tot.count += a->count;
		out->tot.invalid += a->invalid;
		out->tot.tampered += a->tampered;
		out->tot.overflow += a->overflow;
		out->tot.slots_back += a->slots_back;
		out->tot.zero_slots += a->zero_slots;
		out->tot.l1_sum += a->l1_sum;
		out->tot.tsc += a->tsc;
		counts_add(&out->tot.sum, &a->sum, COUNTS_MAX);
		out->misuse += r->misuse;
		had++;
	}
	snprintf(out->name, sizeof(out->name), "%s", name);
	return had;
}
