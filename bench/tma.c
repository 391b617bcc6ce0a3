/*
 * bench/tma.c - counts -> tma_* fractions (bench/tma.h): the read set's
 * recipe evaluated on its counts (msr/recipe/recipe.h recipe_eval), and the
 * flags each kind of recipe decides.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "bench/tma.h"

const struct recipe *tma_recipe(const struct read_set *rs)
{
	static const struct recipe *pm;

	if (rs && rs->recipe)
		return rs->recipe;
	/* the variant with level 2: a level-1 run evaluates its level-1 nodes */
	if (!pm)
		pm = recipe_find_variant("intel-perf-metrics", "golden-cove");
	return pm;
}

bool tma_is_metrics(const struct recipe *r)
{
	return r && !strcmp(r->name, "intel-perf-metrics");
}

/* @c as the recipe's counts, in r->events order: -1 for an event @rs does
 * not count (NAN: recipe_eval's "not measured"). */
static void recipe_counts(const struct recipe *r, const struct read_set *rs,
			  const struct counts *c, double *out)
{
	for (unsigned e = 0; e < r->nevents; e++) {
		int k = read_set_count_index(rs, r->events[e].name);

		out[e] = k < 0 ? NAN : c->c[k];
	}
}

int tma_slots(const struct read_set *rs, const struct counts *c, double *slots)
{
	const struct recipe *r = tma_recipe(rs);
	double counts[RECIPE_EVENTS_MAX];

	if (!r || !c || !slots)
		return -EINVAL;
	recipe_counts(r, rs, c, counts);
	return recipe_expr_eval("SLOTS", r, counts, &rs->env, slots, NULL) ? -ENOENT : 0;
}

/* The topdown-* counts of @c (0 where @rs has none); -ENOENT without a
 * level-1 one. */
static int metrics_fields(const struct read_set *rs, const struct counts *c,
			  double fs[TD_NFIELDS], double *sum)
{
	*sum = 0;
	for (unsigned f = 0; f < TD_NFIELDS; f++) {
		int k = read_set_count_index(rs, read_td_events[1 + f]);

		if (k < 0 && f < TMA_NLEVEL1)
			return -ENOENT;
		fs[f] = k < 0 ? 0 : c->c[k];
		*sum += f < TMA_NLEVEL1 ? fs[f] : 0;
	}
	return 0;
}

/* PERF_METRICS's and perf's flags, as td_from_field_slots gives them on
 * the topdown-* counts (their quantisation error for PERF_METRICS). */
/* The bound of a fraction of @c (bench/tma.h), @den the divisor used. */
static double bound_of(const struct read_set *rs, const struct counts *c, double slots,
		       double den)
{
	if (rs->bound == READ_BOUND_PERF_METRICS)
		return slots > 0 ? c->err / slots : 0;
	if (rs->bound == READ_BOUND_PERF_COUNTS)
		return den > 0 ? (c->err + fabs(den - slots)) / den : 0;
	return 0;
}

static int metrics_flags(const struct read_set *rs, const struct counts *c, double slots,
			 int level, struct td_result *out)
{
	bool pm = rs->bound == READ_BOUND_PERF_METRICS, quant = rs->bound != READ_BOUND_EXACT;
	double fs[TD_NFIELDS], sum, den;
	int rc = metrics_fields(rs, c, fs, &sum);

	if (rc)
		return rc;
	den = pm || !(slots > 0) ? slots : sum;
	td_from_field_slots(fs, den, quant ? c->err : 0, level, out);
	out->slots = slots;
	out->bound = bound_of(rs, c, slots, den);
	out->err_slots = quant ? c->err : 0;
	return 0;
}

/* The index of the level-1 parent of level-2 node @m, as the recipe says it. */
static int parent_of(const struct recipe *r, const char *metric)
{
	int i = recipe_node_index(r, metric);

	if (i < 0 || !r->nodes[i].parent)
		return -1;
	for (int m = 0; m < TMA_NMETRICS; m++)
		if (!strcmp(td_metric_name((enum td_metric)m), r->nodes[i].parent))
			return m;
	return -1;
}

/* An event recipe's flags on its fractions: exact counts, so any node
 * below 0 is negative, and a child above its parent by half a slot is. */
static void event_flags(const struct recipe *r, int level, const struct recipe_result *res,
			struct td_result *out)
{
	static const enum td_metric field_node[TD_NFIELDS] = {
		TMA_RETIRING, TMA_BAD_SPECULATION, TMA_FRONTEND_BOUND, TMA_BACKEND_BOUND,
		TMA_HEAVY_OPERATIONS, TMA_BRANCH_MISPREDICTS, TMA_FETCH_LATENCY, TMA_MEMORY_BOUND,
	};

	for (int m = 0; m < TMA_NMETRICS; m++) {
		double v = res->frac[m];
		int p;

		if (td_metric_level((enum td_metric)m) > level || isnan(v))
			continue;
		if (v < 0)
			out->flags |= TD_FLAG_NEGATIVE;
		p = level == 2 && m >= TMA_NLEVEL1 ? parent_of(r, td_metric_name((enum td_metric)m))
						     : -1;
		if (p >= 0 && (v - res->frac[p]) * res->slots > 0.5)
			out->flags |= TD_FLAG_L2_ABOVE;
	}
	for (unsigned i = 0; i < res->nextra; i++)
		if (res->extra[i].level <= level && res->extra[i].frac < 0)
			out->flags |= TD_FLAG_NEGATIVE;
	for (unsigned f = 0; f < TD_NFIELDS; f++)
		out->field_slots[f] = isnan(res->frac[field_node[f]]) ? 0
				      : res->frac[field_node[f]] * res->slots;
}

/* Nothing to divide by: every fraction 0, flagged. */
static void zero_slots(const struct recipe *r, const struct read_set *rs,
		       const struct counts *c, struct td_result *out)
{
	double slots = 0;

	memset(out->frac, 0, sizeof(out->frac));
	out->flags |= TD_FLAG_ZERO_SLOTS;
	if (!tma_slots(rs, c, &slots))
		out->slots = slots;
	(void)r;
}

int counts_to_tma_extra(const struct read_set *rs, const struct counts *c, int level,
			struct td_result *out, struct tma_extra *x)
{
	const struct recipe *r = tma_recipe(rs);
	double counts[RECIPE_EVENTS_MAX];
	struct recipe_result res;
	int rc;

	if (!rs || !c || !out || !r || (level != 1 && level != 2))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (x)
		x->n = 0;
	out->level = level;
	out->flags = c->flags & ~(TD_FLAG_ZERO_SLOTS | TD_FLAG_NEGATIVE | TD_FLAG_L2_ABOVE);
	if (rs->npasses > 1) { /* one pass: its base only (bench/tma.h) */
		if (tma_slots(rs, c, &out->slots))
			return -ENOENT;
		if (!(out->slots > 0))
			out->flags |= TD_FLAG_ZERO_SLOTS;
		return 0;
	}
	recipe_counts(r, rs, c, counts);
	rc = recipe_eval(r, counts, &rs->env, level, &res, NULL);
	if (rc == -ENODATA)
		return -ENOENT;
	if (rc && rc != -EDOM)
		return rc;
	if (tma_is_metrics(r) && (rc = metrics_flags(rs, c, rc ? 0 : res.slots, level, out)))
		return rc;
	if (rc == -EDOM || (out->flags & TD_FLAG_ZERO_SLOTS)) {
		zero_slots(r, rs, c, out);
		return 0;
	}
	for (int m = 0; m < TMA_NLEVEL1; m++)
		if (isnan(res.frac[m])) { /* a division by zero: nothing counted */
			zero_slots(r, rs, c, out);
			return 0;
		}
	out->slots = res.slots;
	if (!tma_is_metrics(r))
		event_flags(r, level, &res, out);
	for (int m = 0; m < TMA_NMETRICS; m++)
		out->frac[m] = td_metric_level((enum td_metric)m) <= level ? res.frac[m] : 0;
	if (x) {
		x->n = res.nextra;
		memcpy(x->x, res.extra, sizeof(x->x));
	}
	return 0;
}

int counts_to_tma(const struct read_set *rs, const struct counts *c, int level,
		  struct td_result *out)
{
	return counts_to_tma_extra(rs, c, level, out, NULL);
}

/* The formulas tma_quick_valid's reasoning holds for (bench/tma.h), as
 * msr/recipe/recipes_intel.c writes them: another text, another recipe. */
static const char quick_sum[] = "topdown\\-fe\\-bound + topdown\\-bad\\-spec + "
				"topdown\\-retiring + topdown\\-be\\-bound";
static const struct { enum td_metric m; const char *expr; } quick_l1[TMA_NLEVEL1] = {
	{ TMA_RETIRING, "topdown\\-retiring / PERF_METRICS_SUM" },
	{ TMA_BAD_SPECULATION, "topdown\\-bad\\-spec / PERF_METRICS_SUM" },
	{ TMA_FRONTEND_BOUND, "topdown\\-fe\\-bound / PERF_METRICS_SUM" },
	{ TMA_BACKEND_BOUND, "topdown\\-be\\-bound / PERF_METRICS_SUM" },
};

/* Whether node @n of a recipe has the formula tma_quick_valid knows for
 * it; level-0 nodes other than SLOTS and PERF_METRICS_SUM, and nodes of
 * level 2, may be anything (a NAN there is no invalid pair). */
static bool quick_node(const struct recipe_node *n)
{
	if (!strcmp(n->metric, "SLOTS"))
		return !strcmp(n->expr, "TOPDOWN.SLOTS");
	if (!strcmp(n->metric, "PERF_METRICS_SUM"))
		return !strcmp(n->expr, quick_sum);
	if (n->level != 1)
		return true;
	for (unsigned i = 0; i < TMA_NLEVEL1; i++)
		if (!strcmp(n->metric, td_metric_name(quick_l1[i].m)))
			return !strcmp(n->expr, quick_l1[i].expr);
	return false; /* a level-1 node of another name */
}

void tma_quick_init(struct tma_quick *q, const struct read_set *rs, int level)
{
	const struct recipe *r = tma_recipe(rs);
	struct counts c = { .c = { 0 } };
	struct td_result d;
	uint32_t need = 0;
	unsigned seen = 0;

	memset(q, 0, sizeof(*q));
	q->rs = rs;
	q->level = level;
	if (!rs || !rs->ncounts || rs->npasses > 1 || !tma_is_metrics(r) ||
	    (level != 1 && level != 2) || recipe_needed(r, &rs->env, level, &need))
		return;
	for (unsigned i = 0; i < r->nnodes; i++) {
		if (!quick_node(&r->nodes[i]))
			return;
		seen += r->nodes[i].level == 1 || !strcmp(r->nodes[i].metric, "SLOTS") ||
			!strcmp(r->nodes[i].metric, "PERF_METRICS_SUM");
	}
	for (unsigned e = 0; e < r->nevents; e++)
		if ((need & (1u << e)) && read_set_count_index(rs, r->events[e].name) < 0)
			return; /* a count the formulas need, missing: -ENOENT */
	q->slots = read_set_count_index(rs, read_td_events[0]);
	for (unsigned i = 0; i < TMA_NLEVEL1; i++)
		q->l1[i] = read_set_count_index(rs, read_td_events[1 + i]);
	if (seen != TMA_NLEVEL1 + 2 || q->slots < 0 || q->l1[0] < 0 || q->l1[1] < 0 ||
	    q->l1[2] < 0 || q->l1[3] < 0)
		return;
	/* a pair of 255 slots: 102 retiring, 51 each of the other three */
	c.c[q->slots] = 255;
	for (unsigned i = 0; i < TMA_NLEVEL1; i++)
		c.c[q->l1[i]] = i ? 51 : 102;
	q->on = !counts_to_tma(rs, &c, level, &d) && !(d.flags & TD_FLAGS_INVALID);
}
