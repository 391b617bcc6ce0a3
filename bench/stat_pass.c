/*
 * bench/stat_pass.c - `baretma stat` over a recipe whose level needs
 * passes (bench/stat_int.h): each read of a CPU counts one pass of its
 * recipe's events (bench/source/source_events.c), the next pass is
 * programmed for the next read, and an interval is as many reads as the
 * CPUs' passes need (their least common multiple), each pass counted in
 * an equal part of it, in turn, as perf multiplexes event groups in time.
 *
 * Combining an interval's (or the run's) passes, per group: S_p the
 * "SLOTS" node of pass p's counts (bench/tma.h tma_slots: the base, the
 * events every pass counts), S their sum over the passes counted; an
 * event every such pass counts (the base) is the sum of its passes'
 * counts, any other event of pass p its count x S / S_p - scaled to the
 * whole interval by slots, as perf scales a multiplexed event by
 * time_enabled / time_running (linux tools/perf/util/stat.c
 * perf_counts_values__scale); each pass's quantisation error scaled
 * alike.  A pass not counted (no slots: the interval ended before its
 * turn, every CPU overflowed in it) leaves its events not measured (NAN):
 * the formulas that need them are not computed (stat.c then reports the
 * level below).  What differs between the parts of the interval - a
 * workload that changes within it - is not seen: the passes' bound.
 */
#include <math.h>
#include <string.h>

#include "bench/stat_int.h"
#include "bench/tma.h"

void stat_pass_note(struct stat_group *g, unsigned p, const struct read_set *rs)
{
	if (p >= SOURCE_PASSES_MAX || g->have[p])
		return;
	g->rsp[p] = *rs;
	g->have[p] = true;
}

/* g->all: every count of the passes seen, once, in pass order, with pass
 * 0's recipe, environment and bound, as one read set (npasses 1). */
static void pass_union(struct stat_group *g)
{
	read_set_init(&g->all, g->rsp[0].what);
	for (unsigned p = 0; p < g->npasses; p++)
		for (unsigned k = 0; g->have[p] && k < g->rsp[p].ncounts; k++)
			if (read_set_count_index(&g->all, g->rsp[p].count[k]) < 0)
				(void)read_set_add_count(&g->all, g->rsp[p].count[k]);
	g->all.recipe = g->rsp[0].recipe;
	g->all.env = g->rsp[0].env;
	g->all.bound = g->rsp[0].bound;
	g->all.npasses = 1;
}

/* Is count @name in every pass counted (@live)? */
static bool in_every(const struct stat_group *g, const bool *live, const char *name)
{
	for (unsigned p = 0; p < g->npasses; p++)
		if (live[p] && read_set_count_index(&g->rsp[p], name) < 0)
			return false;
	return true;
}

void stat_pass_combine(struct stat_group *g, const struct counts *per,
		       const unsigned *counted_p, struct counts *out, unsigned *counted)
{
	double sp[SOURCE_PASSES_MAX] = { 0 }, s = 0;
	bool live[SOURCE_PASSES_MAX] = { false };
	unsigned fewest = 0;
	bool any = false;

	if (g->npasses <= 1) {
		*out = per[0];
		if (counted)
			*counted = counted_p ? counted_p[0] : 0;
		return;
	}
	pass_union(g);
	g->rs = &g->all;
	for (unsigned p = 0; p < g->npasses; p++) {
		live[p] = g->have[p] && !tma_slots(&g->rsp[p], &per[p], &sp[p]) && sp[p] > 0;
		if (!live[p])
			continue;
		s += sp[p];
		if (counted_p && (!any || counted_p[p] < fewest))
			fewest = counted_p[p];
		any = true;
	}
	memset(out, 0, sizeof(*out));
	for (unsigned k = 0; k < g->all.ncounts; k++)
		out->c[k] = NAN;
	for (unsigned p = 0; p < g->npasses; p++) {
		if (!live[p])
			continue;
		out->err += per[p].err * s / sp[p];
		out->flags |= per[p].flags;
		for (unsigned k = 0; k < g->rsp[p].ncounts; k++) {
			const char *name = g->rsp[p].count[k];
			int j = read_set_count_index(&g->all, name);
			bool base = in_every(g, live, name);
			double v = base ? per[p].c[k] : per[p].c[k] * s / sp[p];

			if (j < 0)
				continue;
			out->c[j] = base && !isnan(out->c[j]) ? out->c[j] + v : v;
		}
	}
	if (counted)
		*counted = any ? fewest : 0;
}
