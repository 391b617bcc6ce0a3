/*
 * bench/region.c - named regions: a fixed table, sums of the counts of
 * begin/end pairs (bench/region.h; the model of bench/source/reading.h).
 */
#include <errno.h>
#include <string.h>

#include "bench/region.h"
#include "bench/tma.h"

/* The public flags are msr/recipe/topdown.h's, bit for bit. */
_Static_assert(BARETMA_FLAG_L1_SUM == TD_FLAG_L1_SUM && BARETMA_FLAG_L2_ABOVE == TD_FLAG_L2_ABOVE &&
	       BARETMA_FLAG_ZERO_SLOTS == TD_FLAG_ZERO_SLOTS &&
	       BARETMA_FLAG_NEGATIVE == TD_FLAG_NEGATIVE &&
	       BARETMA_FLAG_SLOTS_BACK == TD_FLAG_SLOTS_BACK &&
	       BARETMA_FLAG_NORMALISED == TD_FLAG_NORMALISED, "flags as msr/recipe/topdown.h");
/* ... and so are the nodes. */
_Static_assert((int)BARETMA_TMA_N == (int)TMA_NMETRICS &&
	       (int)BARETMA_TMA_CORE_BOUND == (int)TMA_CORE_BOUND &&
	       (int)BARETMA_TMA_HEAVY_OPERATIONS == (int)TMA_HEAVY_OPERATIONS,
	       "nodes as msr/recipe/topdown.h");

void region_prepare(struct region_table *t, int level)
{
	if (!t->rs || !t->rs->ncounts)
		return;
	(void)recipe_prepare(tma_recipe(t->rs)); /* without memory: cut at each evaluation */
	if (level)
		tma_quick_init(&t->quick, t->rs, level);
}

struct region *region_find(struct region_table *t, const char *name)
{
	for (unsigned i = 0; name && i < t->n; i++)
		if (!strcmp(t->r[i].name, name))
			return &t->r[i];
	return NULL;
}

struct region *region_add(struct region_table *t, const char *name)
{
	struct region *r = region_find(t, name);
	size_t len = name ? strlen(name) : 0;

	if (r)
		return r;
	if (!len || len >= REGION_NAME_MAX || t->n == REGION_MAX) {
		t->lost++;
		return NULL;
	}
	r = &t->r[t->n];
	memset(r, 0, sizeof(*r));
	memcpy(r->name, name, len + 1);
	r->tsc_ring = t->tsc_store ? t->tsc_store + (size_t)t->n * REGION_SAMPLES : NULL;
	r->cnt_ring = t->cnt_store ? t->cnt_store + (size_t)t->n * REGION_SAMPLES * t->stride
				   : NULL;
	r->valid_ring = t->valid_store ? t->valid_store + (size_t)t->n * REGION_SAMPLES : NULL;
	t->n++;
	return r;
}

/* Whether @t's readings are RDPMC metrics-clear readings (bench/region.h). */
static bool clearing(const struct region_table *t)
{
	return t->rs && t->rs->metrics_clear && t->rs->ncounts;
}

/* The segment reading @b closed, to every region open across it but
 * @except (the region @b began). */
static void segment_add(struct region_table *t, const struct reading *b,
			const struct region *except)
{
	struct counts c;
	int ks;

	if (t->depth <= (except ? 1u : 0u))
		return; /* nobody to count for: the epoch's first segment */
	reading_counts(t->rs, b, b, &c); /* metrics-clear: @b's values alone */
	ks = read_set_count_index(t->rs, read_td_events[0]);
	if (ks >= 0 && !(c.c[ks] > 0))
		return; /* zero slots: nothing counted, nothing to flag */
	for (unsigned i = 0; i < t->depth; i++)
		if (t->open_list[i] != except)
			counts_add(&t->open_list[i]->open_sum, &c, t->rs->ncounts);
}

/* The segment the last begin's reading closed, counted now that it is read. */
static void flush_pending(struct region_table *t)
{
	struct region *r = t->pending;

	t->pending = NULL;
	if (r && r->open && clearing(t))
		segment_add(t, &r->start, r);
}

/* @r out of the list of open regions (the order of the rest kept). */
static void unlist(struct region_table *t, struct region *r)
{
	unsigned i = 0;

	while (i < t->depth && t->open_list[i] != r)
		i++;
	if (i == t->depth)
		return;
	memmove(&t->open_list[i], &t->open_list[i + 1],
		(t->depth - i - 1) * sizeof(t->open_list[0]));
	t->depth--;
}

struct reading *region_open(struct region_table *t, struct region *r)
{
	if (r->open) {
		r->misuse++;
		return NULL;
	}
	flush_pending(t);
	r->open = true;
	if (clearing(t)) /* the delta method has no segments to sum */
		counts_clear(&r->open_sum, t->rs->ncounts);
	t->open_list[t->depth++] = r; /* depth <= REGION_MAX: one entry per name */
	t->pending = r;
	return &r->start;
}

void region_unopen(struct region_table *t, struct region *r)
{
	if (r->open) {
		r->open = false;
		unlist(t, r);
		if (t->pending == r)
			t->pending = NULL;
	}
}

void region_reading(struct region_table *t, const struct reading *b)
{
	flush_pending(t);
	if (clearing(t))
		segment_add(t, b, NULL);
}

int region_begin(struct region_table *t, struct region *r, const struct reading *a)
{
	struct reading *at = region_open(t, r);

	if (!at)
		return -EALREADY;
	*at = *a;
	return 0;
}

/* Count @acc's pair as invalid for its first decode reason. */
static void count_flags(struct region_acc *acc, unsigned flags)
{
	acc->invalid++;
	if (flags & TD_FLAG_SLOTS_BACK)
		acc->slots_back++;
	else if (flags & TD_FLAG_ZERO_SLOTS)
		acc->zero_slots++;
	else
		acc->l1_sum++;
}

/* Whether pairs of @rs are counted at @level: a read set with counts. */
static bool counted(const struct read_set *rs, int level)
{
	return level >= 1 && rs && rs->ncounts;
}

/* The pair into @r's rings (when it has them): TSC ticks always; when
 * @counted, whether it is a number and, for a valid pair (@c, @n counts
 * of @stride - 1 at most), its counts and their err. */
static void keep_sample(struct region *r, bool counted, const struct counts *c, unsigned n,
			unsigned stride)
{
	uint64_t k;
	double *p;

	if (!r->tsc_ring)
		return;
	k = r->nsamples++ % REGION_SAMPLES;
	r->tsc_ring[k] = r->last.tsc;
	if (!counted || !r->cnt_ring)
		return;
	/* a read set wider than the store's (set after it was made): no shares */
	r->valid_ring[k] = c && n < stride;
	if (!r->valid_ring[k])
		return;
	p = r->cnt_ring + k * stride;
	memcpy(p, c->c, n * sizeof(double));
	p[n] = c->err;
}

/* The pair of @r ending at @b into r->last, its rings and its pend bucket:
 * its counts @sum (metrics-clear: the segments summed), NULL: those of
 * r->start and @b.  Whether it is a number: @q's test (bench/tma.h) where
 * it says yes, else the recipe's (counts_to_tma). */
static void pair_end(const struct read_set *rs, const struct tma_quick *q, unsigned stride,
		     struct region *r, const struct reading *b, int level,
		     const struct counts *sum)
{
	struct region_acc *acc = &r->pend;
	struct td_result d;

	acc->count++;
	r->last.tsc = (double)(b->tsc - r->start.tsc);
	r->last.valid = false;
	acc->tsc += r->last.tsc;
	if (!counted(rs, level)) {
		memset(&r->last.c, 0, sizeof(r->last.c));
		keep_sample(r, false, NULL, 0, stride);
		return;
	}
	if (sum) /* past ncounts both are 0: nothing writes there */
		counts_copy(&r->last.c, sum, rs->ncounts);
	else
		reading_counts(rs, &r->start, b, &r->last.c);
	r->last.valid = q && tma_quick_valid(q, &r->last.c);
	if (!r->last.valid) {
		/* a set without the recipe's events gives no fractions: zero slots */
		if (counts_to_tma(rs, &r->last.c, level, &d))
			d = (struct td_result){ .flags = TD_FLAG_ZERO_SLOTS };
		r->last.valid = !(d.flags & TD_FLAGS_INVALID);
		if (!r->last.valid) {
			count_flags(acc, d.flags);
			keep_sample(r, true, NULL, 0, stride);
			return;
		}
	}
	keep_sample(r, true, &r->last.c, rs->ncounts, stride);
	counts_add(&acc->sum, &r->last.c, rs->ncounts);
}

void region_last_decode(const struct region_table *t, const struct region *r, int level,
			double *slots, unsigned *flags)
{
	struct td_result d;

	*slots = 0;
	*flags = 0;
	if (!counted(t->rs, level))
		return;
	if (counts_to_tma(t->rs, &r->last.c, level, &d))
		d = (struct td_result){ .flags = TD_FLAG_ZERO_SLOTS };
	*slots = d.slots;
	*flags = d.flags;
}

int region_end(struct region_table *t, struct region *r, const struct reading *b,
	       int level)
{
	bool clear = clearing(t);

	/* in metrics-clear mode @b cleared the counters whoever's end it is:
	 * its segment is every open region's, @r's last */
	region_reading(t, b);
	if (!r->open) {
		r->misuse++;
		return -ENOENT;
	}
	r->open = false;
	unlist(t, r);
	if (counted(t->rs, level) && (t->quick.rs != t->rs || t->quick.level != level))
		tma_quick_init(&t->quick, t->rs, level); /* once per read set and level */
	pair_end(t->rs, &t->quick, t->stride, r, b, level, clear ? &r->open_sum : NULL);
	return 0;
}

/* @pend into @tot, every pair invalid for @why (tampered or overflow);
 * @n the counts in use (the others are 0 in both). */
static void add_acc(struct region_acc *tot, const struct region_acc *p, uint64_t *why,
		    unsigned n)
{
	tot->count += p->count;
	tot->tsc += p->tsc;
	if (why) {
		tot->invalid += p->count;
		*why += p->count;
		return;
	}
	tot->invalid += p->invalid;
	tot->slots_back += p->slots_back;
	tot->zero_slots += p->zero_slots;
	tot->l1_sum += p->l1_sum;
	counts_add(&tot->sum, &p->sum, n);
}

/* @acc empty again; its sum past @n counts is 0 already (nothing adds
 * there), so only @n of them are cleared: this runs at every epoch's end. */
static void acc_clear(struct region_acc *acc, unsigned n)
{
	acc->count = acc->invalid = 0;
	acc->tampered = acc->overflow = acc->slots_back = acc->zero_slots = acc->l1_sum = 0;
	acc->tsc = 0;
	counts_clear(&acc->sum, n);
}

void region_epoch_end(struct region_table *t, const struct region_verdict *v)
{
	unsigned n = t->rs ? t->rs->ncounts : 0;

	for (unsigned i = 0; i < t->n; i++) {
		struct region *r = &t->r[i];
		uint64_t *why = v->tampered ? &r->tot.tampered : v->overflow ? &r->tot.overflow
								  : NULL;

		if (!r->pend.count)
			continue;
		/* the epoch's pairs, the last pend.count of the ring, are no
		 * numbers now either (their TSC ticks stay) */
		for (uint64_t k = 0; why && r->valid_ring && k < r->pend.count &&
		     k < REGION_SAMPLES && k < r->nsamples; k++)
			r->valid_ring[(r->nsamples - 1 - k) % REGION_SAMPLES] = 0;
		add_acc(&r->tot, &r->pend, why, n);
		acc_clear(&r->pend, n);
	}
}

/* Everything but the Top-down numbers. */
static void result_counts(const struct region_acc *a, struct baretma_result *res)
{
	memset(res, 0, sizeof(*res));
	res->count = a->count;
	res->invalid = a->invalid;
	res->invalid_why.tampered = a->tampered;
	res->invalid_why.overflow = a->overflow;
	res->invalid_why.slots_back = a->slots_back;
	res->invalid_why.zero_slots = a->zero_slots;
	res->invalid_why.l1_sum = a->l1_sum;
	res->tsc = a->tsc;
}

/* The recipe's fractions of @a's summed counts (bench/tma.h), in percent. */
static void result_tma(const struct read_set *rs, const struct region_acc *a, int level,
		       struct baretma_result *res)
{
	struct td_result d;

	if (!counted(rs, level) || a->count == a->invalid ||
	    counts_to_tma(rs, &a->sum, level, &d) || (d.flags & TD_FLAG_ZERO_SLOTS))
		return;
	res->level = level;
	res->slots = d.slots;
	res->bound_pp = 100.0 * d.bound;
	res->flags = d.flags;
	for (unsigned m = 0; m < TMA_NMETRICS; m++)
		if (td_metric_level((enum td_metric)m) <= level)
			res->tma[m] = 100.0 * d.frac[m];
}

void region_result(const struct region_table *t, const struct region *r, int level,
		   struct baretma_result *res)
{
	result_counts(&r->tot, res);
	result_tma(t->rs, &r->tot, level, res);
}

int region_decode_pair(const struct baretma_reading *a, const struct baretma_reading *b,
		       int level, struct baretma_result *res)
{
	struct region r = { .start = { .tsc = a->tsc, .v = { a->slots, a->metrics } } };
	const struct reading rb = { .tsc = b->tsc, .v = { b->slots, b->metrics } };
	struct read_set rs;

	if (level != 1 && level != 2)
		return -EINVAL;
	read_set_perf_metrics(&rs);
	pair_end(&rs, NULL, 0, &r, &rb, level, NULL);
	add_acc(&r.tot, &r.pend, NULL, rs.ncounts); /* one pair: nothing to verify */
	result_counts(&r.tot, res);
	result_tma(&rs, &r.tot, level, res);
	return 0;
}
