/*
 * bench/output/plot_stat.c - `stat -I --plot FILE`: each interval's
 * samples (bench/stat.h) as one point of a timeline of level 1
 * (bench/output/plot.h struct plot_series): the shares of all the CPUs
 * counted, each group's level-1 fractions weighted by its slots (a node's
 * slots summed over the groups, over their slots summed), so that a
 * hybrid part's P- and E-cores, each with its own recipe, make one
 * picture of the machine.  An interval with no group counted is a gap.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/output/plot.h"
#include "bench/stat.h"

/* The level-1 nodes in the samples, in their order, once (AMD's fifth,
 * smt_contention, where a group has it). */
static unsigned level1_nodes(const struct stat_sample *s, unsigned n, const char **out)
{
	unsigned k = 0;

	for (unsigned g = 0; g < n; g++)
		for (unsigned i = 0; i < s[g].nnodes && k < PLOT_NODES_MAX; i++) {
			unsigned j = 0;

			if (s[g].node[i].level != 1)
				continue;
			while (j < k && strcmp(out[j], s[g].node[i].metric))
				j++;
			if (j == k)
				out[k++] = s[g].node[i].metric;
		}
	return k;
}

int plot_stat_add(struct plot_series *ps, const struct stat_sample *s, unsigned n)
{
	double v[PLOT_NODES_MAX], slots = 0;
	double t = n ? s[0].time : 0;

	if (!ps->nnodes) {
		const char *nodes[PLOT_NODES_MAX];
		unsigned k = level1_nodes(s, n, nodes);
		int rc;

		if (!k)
			return 0; /* nothing counted yet: the series starts later */
		if ((rc = plot_series_init(ps, k, nodes)))
			return rc;
	}
	for (unsigned j = 0; j < ps->nnodes; j++)
		v[j] = 0;
	for (unsigned g = 0; g < n; g++) {
		if (!s[g].valid || !(s[g].slots > 0))
			continue;
		slots += s[g].slots;
		for (unsigned i = 0; i < s[g].nnodes; i++)
			for (unsigned j = 0; j < ps->nnodes; j++)
				if (s[g].node[i].level == 1 && !strcmp(ps->nodes[j], s[g].node[i].metric) &&
				    !isnan(s[g].node[i].frac))
					v[j] += s[g].node[i].frac * s[g].slots;
	}
	for (unsigned j = 0; j < ps->nnodes; j++)
		v[j] = slots > 0 ? v[j] / slots : NAN;
	return plot_series_add(ps, t, v);
}
