/*
 * bench/output/plot_stat.c - `stat -I --plot FILE`: each interval's
 * samples (bench/stat.h) as one point of each panel of a timeline of
 * level 1 (bench/output/plot.h struct plot_timeline): a panel per core
 * kind, so that a hybrid part's P- and E-cores, each with its own recipe,
 * are read apart and never averaged into a machine no core is; in a panel
 * the shares of its kind's CPUs counted, each group's (or CPU's) level-1
 * fractions weighted by its slots (a node's slots summed over them, over
 * their slots summed).  An interval with no group of a kind counted is a
 * gap in its panel.  The title names the CPU, each panel's heading its
 * kind and CPUs (plot_stat_title), as bench's pictures do.
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

/* a panel for every kind a machine has: -ENOSPC never comes from stat */
_Static_assert(PLOT_PANELS_MAX >= CPU_MAX_KINDS, "a timeline panel per core kind");

static const char *kind_of(const struct stat_sample *s)
{
	return s->kind ? s->kind : "";
}

/* The level-1 nodes in the samples of @kind, in their order, once (AMD's
 * fifth, smt_contention, where a group has it). */
static unsigned level1_nodes(const struct stat_sample *s, unsigned n, const char *kind,
			     const char **out)
{
	unsigned k = 0;

	for (unsigned g = 0; g < n; g++)
		for (unsigned i = 0; strcmp(kind_of(&s[g]), kind) == 0 && i < s[g].nnodes &&
				     k < PLOT_NODES_MAX; i++) {
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

/* The panel of @kind in @tl, made (with the kind's level-1 nodes in @s)
 * if it is new; NULL when none yet (nothing counted) or on error (*@rc). */
static struct plot_series *panel_of(struct plot_timeline *tl, const struct stat_sample *s,
				    unsigned n, const char *kind, int *rc)
{
	const char *nodes[PLOT_NODES_MAX];
	struct plot_series *ps;
	unsigned k;

	for (unsigned p = 0; p < tl->npanels; p++)
		if (!strcmp(tl->panel[p].kind, kind))
			return &tl->panel[p];
	if (!(k = level1_nodes(s, n, kind, nodes)))
		return NULL; /* nothing counted yet: the panel starts later */
	if (tl->npanels == PLOT_PANELS_MAX) {
		*rc = -ENOSPC;
		return NULL;
	}
	ps = &tl->panel[tl->npanels];
	if ((*rc = plot_series_init(ps, k, nodes)))
		return NULL;
	snprintf(ps->kind, sizeof(ps->kind), "%s", kind);
	tl->npanels++;
	return ps;
}

/* @ps's point of this interval: the shares of @kind's groups in @s. */
static int panel_add(struct plot_series *ps, const struct stat_sample *s, unsigned n,
		     const char *kind)
{
	double v[PLOT_NODES_MAX], slots = 0;

	for (unsigned j = 0; j < ps->nnodes; j++)
		v[j] = 0;
	for (unsigned g = 0; g < n; g++) {
		if (strcmp(kind_of(&s[g]), kind) || !s[g].valid || !(s[g].slots > 0))
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
	return plot_series_add(ps, n ? s[0].time : 0, v);
}

int plot_stat_add(struct plot_timeline *tl, const struct stat_sample *s, unsigned n)
{
	int rc = 0;

	/* each kind the samples have, the first time it appears among them */
	for (unsigned g = 0; g < n && !rc; g++) {
		struct plot_series *ps;
		unsigned h = 0;

		while (h < g && strcmp(kind_of(&s[h]), kind_of(&s[g])))
			h++;
		if (h < g)
			continue;
		if ((ps = panel_of(tl, s, n, kind_of(&s[g]), &rc)))
			rc = panel_add(ps, s, n, kind_of(&s[g]));
	}
	/* a kind with no sample in this interval: a gap in its panel */
	for (unsigned p = 0; p < tl->npanels && !rc && n; p++) {
		struct plot_series *ps = &tl->panel[p];

		if (!ps->n || ps->samples[ps->n - 1].t < s[0].time)
			rc = panel_add(ps, s, n, ps->kind);
	}
	return rc;
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

/* Each panel of @tl its heading: its kind, microarchitecture and CPUs
 * among the @n @cpus ("efficiency cores (Gracemont), cpus 16-23"). */
static int headings(struct plot_timeline *tl, const struct cpu_info *ci, const unsigned *cpus,
		    unsigned n)
{
	int rc = 0;

	for (unsigned p = 0; tl && !rc && p < tl->npanels; p++) {
		struct plot_series *ps = &tl->panel[p];
		const struct cpu_kind *k = NULL;
		char *h = NULL;

		for (unsigned i = 0; i < ci->nkinds && !k; i++)
			if (!strcmp(ci->kinds[i].kind, ps->kind))
				k = &ci->kinds[i];
		rc = text_setf(&h, "%s cores", ps->kind);
		if (!rc && k) {
			rc = text_appendf(&h, NULL, " (%s), cpus", k->uarch ? k->uarch : "unknown");
			if (!rc)
				rc = kind_cpus(&h, ci, k, cpus, n);
		}
		if (!rc) /* cut where the buffer ends: the picture cuts it shorter */
			snprintf(ps->heading, sizeof(ps->heading), "%s", h);
		free(h);
	}
	return rc;
}

int plot_stat_title(char **title, char **subtitle, struct plot_timeline *tl,
		    const struct cpu_info *ci, const unsigned *cpus, unsigned n)
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
	/* the core kinds of the CPUs counted */
	for (unsigned i = 0; ci && i < n && nseen < CPU_MAX_KINDS; i++) {
		const struct cpu_kind *k = cpu_info_kind_of(ci, cpus[i]);
		unsigned j = 0;

		while (j < nseen && seen[j] != k)
			j++;
		if (k && j == nseen)
			seen[nseen++] = k;
	}
	if (!rc)
		rc = text_setf(subtitle, "%s", nseen > 1 ?
			       "one panel per core kind, each kind's shares weighted by its slots" :
			       "the shares of all the CPUs counted, weighted by their slots");
	/* a hybrid part's panels say which cores they are, one kind or more */
	if (!rc && ci && ci->nkinds > 1)
		rc = headings(tl, ci, cpus, n);
	if (rc) {
		free(*title);
		free(*subtitle);
		*title = *subtitle = NULL;
	}
	return rc;
}
