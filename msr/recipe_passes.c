/*
 * msr/recipe_passes.c - the split of a recipe's events into passes for a
 * core's counters (recipe_passes, msr/recipe.h): first fit, level 1
 * first, GP constraints by backtracking over the few events of a pass.
 */
#include <errno.h>

#include "msr/recipe.h"
#include "msr/recipe_int.h"

/*
 * Counters for the @n GP events @ev (indices into r->events), none on a
 * counter of @busy, into @ctr: backtracking, the few events of one pass.
 */
static bool assign(const struct recipe *r, const uint8_t *ev, unsigned n, uint32_t gp_mask,
		   uint32_t busy, int8_t *ctr)
{
	if (n == 0)
		return true;
	uint32_t allowed = (r->events[ev[0]].counters ? r->events[ev[0]].counters : ~0u) & gp_mask;

	for (int k = 0; k < 32; k++) {
		if (!(allowed & (1u << k)) || (busy & (1u << k)))
			continue;
		ctr[0] = (int8_t)k;
		if (assign(r, ev + 1, n - 1, gp_mask, busy | (1u << k), ctr + 1))
			return true;
	}
	return false;
}

/* Can event @e join pass @p?  If so, it does (counters reassigned). */
static bool pass_add(const struct recipe *r, struct recipe_pass *p, unsigned e, uint32_t gp_mask)
{
	const struct recipe_event *ev = &r->events[e];
	uint8_t gp[RECIPE_EVENTS_MAX];
	int8_t ctr[RECIPE_EVENTS_MAX];
	unsigned ngp = 0;

	for (unsigned k = 0; k < p->n; k++) {
		const struct recipe_event *o = &r->events[p->event[k]];

		if (ev->ctr == RECIPE_CTR_FIXED && o->ctr == RECIPE_CTR_FIXED && o->fixed == ev->fixed)
			return false;
		if (o->ctr == RECIPE_CTR_GP)
			gp[ngp++] = p->event[k];
	}
	if (ev->ctr == RECIPE_CTR_GP) {
		gp[ngp++] = (uint8_t)e;
		if (!assign(r, gp, ngp, gp_mask, 0, ctr))
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

/* Can the core count event @e at all? */
static bool countable(const struct recipe_event *ev, uint32_t gp_mask, uint32_t fixed_mask)
{
	if (ev->ctr == RECIPE_CTR_FIXED)
		return ev->fixed < 32 && (fixed_mask & (1u << ev->fixed));
	if (ev->ctr == RECIPE_CTR_GP)
		return ((ev->counters ? ev->counters : ~0u) & gp_mask) != 0;
	return true;
}

/* Place event @e in the first pass that can take it, or a new one. */
static int place(const struct recipe *r, unsigned e, uint32_t gp_mask, uint32_t fixed_mask,
		 struct recipe_pass *passes, unsigned *n, unsigned max)
{
	if (!countable(&r->events[e], gp_mask, fixed_mask))
		return -ENODEV;
	for (unsigned i = 0; i < *n; i++)
		if (pass_add(r, &passes[i], e, gp_mask))
			return 0;
	if (*n == max)
		return -ENOSPC;
	passes[*n] = (struct recipe_pass){ 0 };
	return pass_add(r, &passes[(*n)++], e, gp_mask) ? 0 : -ENODEV;
}

int recipe_passes(const struct recipe *r, const struct recipe_env *env, uint32_t mask,
		  uint32_t gp_mask, uint32_t fixed_mask, struct recipe_pass *passes, unsigned max)
{
	uint32_t l1 = 0, group[2];
	unsigned n = 0;
	int rc;

	if (!recipe_ok(r) || !passes || (r->nevents < 32 && (mask >> r->nevents)) ||
	    recipe_needed(r, env, 1, &l1))
		return -EINVAL;
	group[0] = mask & l1;
	group[1] = mask & ~l1;
	for (unsigned g = 0; g < 2; g++)
		for (unsigned e = 0; e < r->nevents; e++) {
			if (!(group[g] & (1u << e)) || r->events[e].ctr == RECIPE_CTR_METRICS)
				continue;
			if ((rc = place(r, e, gp_mask, fixed_mask, passes, &n, max)))
				return rc;
		}
	for (unsigned e = 0; e < r->nevents; e++) {
		if (!(mask & (1u << e)) || r->events[e].ctr != RECIPE_CTR_METRICS)
			continue;
		if (n == 0) {
			if (max == 0)
				return -ENOSPC;
			passes[n++] = (struct recipe_pass){ 0 };
		}
		pass_add(r, &passes[metrics_pass(r, passes, n)], e, gp_mask);
	}
	return (int)n;
}
