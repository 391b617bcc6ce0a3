/*
 * bench/output/plot_stat.c - `stat -I --plot FILE`: each interval's
 * samples (bench/stat.h) as one point of a timeline of level 1
 * (bench/output/plot.h struct plot_series): the shares of all the CPUs
 * counted, each group's level-1 fractions weighted by its slots (a node's
 * slots summed over the groups, over their slots summed), so that a
 * hybrid part's P- and E-cores, each with its own recipe, make one
 * picture of the machine.  An interval with no group counted is a gap.
 * The title names the CPU (plot_stat_title), as bench's pictures do.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/output/plot.h"
#include "bench/stat.h"
#include "cpu/cpu.h"
#include "cpu/text.h"

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

/* " 0-3,6" of the @n ascending @cpus of kind @k among @cpus, appended to
 * @t; 0 or -ENOMEM. */
static int kind_cpus(char **t, const struct cpu_info *ci, const struct cpu_kind *k,
		     const unsigned *cpus, unsigned n)
{
	const char *sep = " ";
	int rc = 0;

	for (unsigned i = 0; i < n && !rc; i++) {
		unsigned j = i;

		if (cpu_info_kind_of(ci, cpus[i]) != k)
			continue;
		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1 && cpu_info_kind_of(ci, cpus[j + 1]) == k)
			j++;
		rc = j > i ? text_appendf(t, NULL, "%s%u-%u", sep, cpus[i], cpus[j])
			   : text_appendf(t, NULL, "%s%u", sep, cpus[i]);
		sep = ",";
		i = j;
	}
	return rc;
}

int plot_stat_title(char **title, char **subtitle, const struct cpu_info *ci,
		    const unsigned *cpus, unsigned n)
{
	const struct cpu_kind *seen[CPU_MAX_KINDS];
	unsigned nseen = 0;
	char *brand = plot_brand(ci);
	int rc;

	*title = *subtitle = NULL;
	if (!brand)
		return -ENOMEM;
	rc = text_setf(title, "Top-down level 1 over time: %s", brand);
	free(brand);
	/* the core kinds of the CPUs counted, where there are several */
	for (unsigned i = 0; ci && i < n && nseen < CPU_MAX_KINDS; i++) {
		const struct cpu_kind *k = cpu_info_kind_of(ci, cpus[i]);
		unsigned j = 0;

		while (j < nseen && seen[j] != k)
			j++;
		if (k && j == nseen)
			seen[nseen++] = k;
	}
	for (unsigned j = 0; !rc && nseen > 1 && j < nseen; j++) {
		rc = text_appendf(subtitle, j ? " + " : NULL, "%s cores (%s), cpus", seen[j]->kind,
				  seen[j]->uarch ? seen[j]->uarch : "unknown");
		if (!rc)
			rc = kind_cpus(subtitle, ci, seen[j], cpus, n);
	}
	if (!rc)
		rc = text_appendf(subtitle, ": ", "%s", nseen > 1 ?
				  "each kind's shares weighted by its slots; baretma stat" :
				  "baretma stat, all the CPUs counted");
	if (rc) {
		free(*title);
		free(*subtitle);
		*title = *subtitle = NULL;
	}
	return rc;
}
