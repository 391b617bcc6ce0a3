/*
 * msr/recipe/recipe_passes.c - the split of a recipe's events into passes for a
 * core's counters (recipe_passes, recipe_passes_base, msr/recipe/recipe.h):
 * first fit over the passes, level 1 first; within a pass the GP counters
 * a matching of all its events under their constraints for the SMT state
 * (recipe_event_counters), found by backtracking over the few events of a
 * pass, the most constrained first.
 */
#include <errno.h>

#include "msr/recipe/recipe.h"
#include "msr/recipe/recipe_int.h"

/* The GP counters of @gp_mask event @ev may take with SMT @smt. */
static uint32_t allowed(const struct recipe_event *ev, bool smt, uint32_t gp_mask)
{
	uint32_t c = recipe_event_counters(ev, smt);

	return (c ? c : ~0u) & gp_mask;
}

/*
 * Counters for the @n GP events whose allowed sets are @al (in the order
 * to try them), none on a counter of @busy, into @ctr: backtracking.
 */
static bool assign(const uint32_t *al, unsigned n, uint32_t busy, int8_t *ctr)
{
	if (n == 0)
		return true;
	for (int k = 0; k < 32; k++) {
		if (!(al[0] & (1u << k)) || (busy & (1u << k)))
			continue;
		ctr[0] = (int8_t)k;
		if (assign(al + 1, n - 1, busy | (1u << k), ctr + 1))
			return true;
	}
	return false;
}

/*
 * A matching of the @n GP events @ev on @gp_mask under SMT @smt into
 * @ctr (ctr[i] for ev[i]): the most constrained tried first, so that a
 * failure is found at once (two events pinned to one counter) and more
 * events than counters fail before any search.
 */
static bool match(const struct recipe *r, const uint8_t *ev, unsigned n, bool smt,
		  uint32_t gp_mask, int8_t *ctr)
{
	uint32_t al[RECIPE_EVENTS_MAX] = { 0 };
	uint8_t order[RECIPE_EVENTS_MAX];
	int8_t got[RECIPE_EVENTS_MAX];

	if (n > (unsigned)__builtin_popcount(gp_mask))
		return false;
	for (unsigned i = 0; i < n; i++) {
		unsigned j = i;
		uint32_t a = allowed(&r->events[ev[i]], smt, gp_mask);

		/* insertion by the number of counters allowed (stable) */
		while (j > 0 && __builtin_popcount(al[j - 1]) > __builtin_popcount(a)) {
			al[j] = al[j - 1];
			order[j] = order[j - 1];
			j--;
		}
		al[j] = a;
		order[j] = (uint8_t)i;
	}
	if (!assign(al, n, 0, got))
		return false;
	for (unsigned j = 0; j < n; j++)
		ctr[order[j]] = got[j];
	return true;
}

/* Can event @e join pass @p?  If so, it does (counters reassigned). */
static bool pass_add(const struct recipe *r, bool smt, struct recipe_pass *p, unsigned e,
		     uint32_t gp_mask)
{
	const struct recipe_event *ev = &r->events[e];
	uint8_t gp[RECIPE_EVENTS_MAX];
	int8_t ctr[RECIPE_EVENTS_MAX];
	unsigned ngp = 0;

	if (p->n >= RECIPE_EVENTS_MAX)
		return false;
	for (unsigned k = 0; k < p->n; k++) {
		const struct recipe_event *o = &r->events[p->event[k]];

		if (ev->ctr == RECIPE_CTR_FIXED && o->ctr == RECIPE_CTR_FIXED && o->fixed == ev->fixed)
			return false;
		if (o->ctr == RECIPE_CTR_GP)
			gp[ngp++] = p->event[k];
	}
	if (ev->ctr == RECIPE_CTR_GP) {
		gp[ngp++] = (uint8_t)e;
		if (!match(r, gp, ngp, smt, gp_mask, ctr))
			return false;
		for (unsigned k = 0, g = 0; k < p->n; k++)
			if (r->events[p->event[k]].ctr == RECIPE_CTR_GP)
				p->counter[k] = ctr[g++];
		p->counter[p->n] = ctr[ngp - 1];
	} else {
		p->counter[p->n] = (int8_t)ev->fixed;
	}
	p->event[p->n++] = (uint8_t)e;
	return true;
}

/* The pass holding fixed counter 3 (TOPDOWN.SLOTS), else 0. */
static unsigned metrics_pass(const struct recipe *r, const struct recipe_pass *passes, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		for (unsigned k = 0; k < passes[i].n; k++)
			if (r->events[passes[i].event[k]].ctr == RECIPE_CTR_FIXED &&
			    r->events[passes[i].event[k]].fixed == 3)
				return i;
	return 0;
}

/* Can the core count event @ev at all? */
static bool countable(const struct recipe_event *ev, bool smt, uint32_t gp_mask,
		      uint32_t fixed_mask)
{
	if (ev->ctr == RECIPE_CTR_FIXED)
		return ev->fixed < 32 && (fixed_mask & (1u << ev->fixed));
	if (ev->ctr == RECIPE_CTR_GP)
		return allowed(ev, smt, gp_mask) != 0;
	return true;
}

/* What one split shares. */
struct split {
	const struct recipe *r;
	bool smt;
	uint32_t base, gp_mask, fixed_mask;
	struct recipe_pass *passes;
	unsigned n, max;
};

/* A new pass holding the base events; 0, -ENOSPC or -ENODEV (they do not fit). */
static int open_pass(struct split *s)
{
	struct recipe_pass *p;

	if (s->n == s->max)
		return -ENOSPC;
	p = &s->passes[s->n++];
	*p = (struct recipe_pass){ 0 };
	for (unsigned e = 0; e < s->r->nevents; e++)
		if ((s->base & (1u << e)) && s->r->events[e].ctr != RECIPE_CTR_METRICS &&
		    !pass_add(s->r, s->smt, p, e, s->gp_mask))
			return -ENODEV;
	return 0;
}

/* Place event @e in the first pass that can take it, or a new one. */
static int place(struct split *s, unsigned e)
{
	int rc;

	if (!countable(&s->r->events[e], s->smt, s->gp_mask, s->fixed_mask))
		return -ENODEV;
	for (unsigned i = 0; i < s->n; i++)
		if (pass_add(s->r, s->smt, &s->passes[i], e, s->gp_mask))
			return 0;
	if ((rc = open_pass(s)))
		return rc;
	return pass_add(s->r, s->smt, &s->passes[s->n - 1], e, s->gp_mask) ? 0 : -ENODEV;
}

/* The PERF_METRICS fields of @mask with the pass of fixed counter 3. */
static int place_metrics(struct split *s, uint32_t mask)
{
	int rc;

	for (unsigned e = 0; e < s->r->nevents; e++) {
		if (!(mask & (1u << e)) || s->r->events[e].ctr != RECIPE_CTR_METRICS)
			continue;
		if (s->n == 0 && (rc = open_pass(s)))
			return rc;
		pass_add(s->r, s->smt, &s->passes[metrics_pass(s->r, s->passes, s->n)], e,
			 s->gp_mask);
	}
	return 0;
}

int recipe_passes_base(const struct recipe *r, const struct recipe_env *env, uint32_t mask,
		       uint32_t base, uint32_t gp_mask, uint32_t fixed_mask,
		       struct recipe_pass *passes, unsigned max)
{
	struct split s = { .r = r, .smt = env && env->smt_on, .base = base, .gp_mask = gp_mask,
			   .fixed_mask = fixed_mask, .passes = passes, .max = max };
	uint32_t l1 = 0, group[2];
	int rc;

	if (!recipe_ok(r) || !passes || (r->nevents < 32 && (mask >> r->nevents)) ||
	    (base & ~mask) || recipe_needed(r, env, 1, &l1))
		return -EINVAL;
	group[0] = mask & ~base & l1;
	group[1] = mask & ~base & ~l1;
	for (unsigned g = 0; g < 2; g++)
		for (unsigned e = 0; e < r->nevents; e++) {
			if (!(group[g] & (1u << e)) || r->events[e].ctr == RECIPE_CTR_METRICS)
				continue;
			if ((rc = place(&s, e)))
				return rc;
		}
	for (unsigned e = 0; e < r->nevents && s.n == 0; e++)
		if ((base & (1u << e)) && r->events[e].ctr != RECIPE_CTR_METRICS &&
		    (rc = open_pass(&s)))
			return rc;
	if ((rc = place_metrics(&s, mask)))
		return rc;
	return (int)s.n;
}

int recipe_passes(const struct recipe *r, const struct recipe_env *env, uint32_t mask,
		  uint32_t gp_mask, uint32_t fixed_mask, struct recipe_pass *passes, unsigned max)
{
	return recipe_passes_base(r, env, mask, 0, gp_mask, fixed_mask, passes, max);
}

int recipe_unplaceable(const struct recipe *r, const struct recipe_env *env, uint32_t mask,
		       uint32_t gp_mask, uint32_t fixed_mask)
{
	bool smt = env && env->smt_on;

	if (!recipe_ok(r))
		return -EINVAL;
	for (unsigned e = 0; e < r->nevents; e++)
		if ((mask & (1u << e)) && !countable(&r->events[e], smt, gp_mask, fixed_mask))
			return (int)e;
	return -ENOENT;
}
