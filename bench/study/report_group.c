/*
 * bench/study/report_group.c - what `baretma report` finds in a fleet
 * (report.h): the hosts named and grouped by CPU, and per group the
 * settings that differ, the checks' counts, and each figure judged by the
 * robust limit (report_robust, on bench/stats.h's median, type-7 quartiles
 * and MAD).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/study/report_int.h"
#include "cpu/array.h"

int report_robust(const double *v, size_t n, double k, double floor, struct report_robust *out,
		  signed char *dir)
{
	int rc;

	memset(out, 0, sizeof(*out));
	if (!n || !v || !(k > 0) || !isfinite(k) || !(floor >= 0) || !isfinite(floor))
		return -EINVAL;
	if ((rc = bench_stats_compute(v, n, &out->st)))
		return rc;
	out->scale = REPORT_MAD_SCALE * out->st.mad;
	out->floor = floor;
	/* a cut past DBL_MAX (a huge k over a wide spread) judges nothing: not
	 * judged, rather than "judged" with no cut */
	out->judged = n >= REPORT_MIN_HOSTS && isfinite(k * out->scale);
	out->limit = out->judged ? k * out->scale : NAN;
	out->cut = out->judged ? fmax(out->limit, floor) : NAN;
	for (size_t i = 0; dir && i < n; i++)
		dir[i] = !out->judged ? 0 : v[i] - out->st.median > out->cut ? 1
			 : out->st.median - v[i] > out->cut ? -1 : 0;
	return 0;
}

/* ------------------------------------------------------------ the hosts */

static int cmp_hosts(const void *a, const void *b)
{
	const struct report_host *x = a, *y = b;
	int c = strcmp(x->hostname, y->hostname);

	if (c)
		return c;
	if (!x->machine_id || !y->machine_id)
		return !!x->machine_id - !!y->machine_id;
	return strcmp(x->machine_id, y->machine_id);
}

/* Each host's name: its hostname, and where another host has it too, the
 * first 8 digits of its machine-id ("null" without one) in brackets; the
 * whole machine-id where those 8 are not enough. */
static int name_hosts(struct report *r)
{
	if (r->nhosts > 1) /* none: r->hosts may be NULL, which qsort may not take */
		qsort(r->hosts, r->nhosts, sizeof(*r->hosts), cmp_hosts);
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < r->nhosts; i++) {
			struct report_host *h = &r->hosts[i];
			bool twin = (i && !strcmp(h->hostname, h[-1].hostname)) ||
				    (i + 1 < r->nhosts && !strcmp(h->hostname, h[1].hostname));
			bool same = pass && h->name && ((i && !strcmp(h->name, h[-1].name)) ||
				    (i + 1 < r->nhosts && !strcmp(h->name, h[1].name)));
			const char *id = h->machine_id ? h->machine_id : "null";
			size_t n = strlen(h->hostname) + strlen(id) + 3;

			if (pass && !same)
				continue;
			free(h->name);
			if (!(h->name = malloc(n)))
				return -ENOMEM;
			if (twin)
				snprintf(h->name, n, "%s[%.*s]", h->hostname, pass ? 64 : 8, id);
			else
				snprintf(h->name, n, "%s", h->hostname);
		}
	return 0;
}

/* CPUs in order, a field not named (-1) after every named one. */
static int cmp_field(int a, int b)
{
	unsigned x = a < 0 ? UINT_MAX : (unsigned)a, y = b < 0 ? UINT_MAX : (unsigned)b;

	return (x > y) - (x < y);
}

static int cmp_cpu(const struct report_cpu *a, const struct report_cpu *b)
{
	int c = strcmp(a->vendor[0] ? a->vendor : "\x7f", b->vendor[0] ? b->vendor : "\x7f");

	if (!c)
		c = cmp_field(a->family, b->family);
	if (!c)
		c = cmp_field(a->model, b->model);
	return c ? c : cmp_field(a->stepping, b->stepping);
}

static const struct report *sort_r; /* qsort has no argument: the fleet sorted */

static int cmp_by_cpu(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	int c = cmp_cpu(&sort_r->hosts[x].cpu, &sort_r->hosts[y].cpu);

	return c ? c : (x > y) - (x < y);
}

/* ------------------------------------------------------------ settings */

static int cmp_text(const char *a, const char *b)
{
	if (!a || !b)
		return !!a - !!b;
	return strcmp(a, b);
}

/* The distinct values of setting @s over @g's hosts that record it: most
 * hosts first, then by value (null first). */
static int settings_of(const struct report *r, struct report_group *g, enum report_setting s)
{
	struct report_setting_group *sg = &g->set[s];

	sg->v = calloc(g->nhosts ? g->nhosts : 1, sizeof(*sg->v));
	if (!sg->v)
		return -ENOMEM;
	for (unsigned i = 0; i < g->nhosts; i++) {
		const struct report_host *h = &r->hosts[g->hosts[i]];
		const char *val = h->setting[s];
		unsigned j = 0;

		if (s == REPORT_SET_BRAND ? !val : !h->has_env)
			continue;
		while (j < sg->nvalues && cmp_text(sg->v[j].value, val))
			j++;
		if (j == sg->nvalues) {
			sg->v[j] = (struct report_setting_value){ val, 0, calloc(g->nhosts,
										sizeof(unsigned)) };
			if (!sg->v[j].hosts)
				return -ENOMEM;
			sg->nvalues++;
		}
		sg->v[j].hosts[sg->v[j].n++] = g->hosts[i];
	}
	for (unsigned i = 1; i < sg->nvalues; i++) /* few values: an insertion sort */
		for (unsigned j = i; j > 0; j--) {
			struct report_setting_value *a = &sg->v[j - 1], *b = &sg->v[j], t;

			if (a->n > b->n || (a->n == b->n && cmp_text(a->value, b->value) <= 0))
				break;
			t = *a;
			*a = *b;
			*b = t;
		}
	return 0;
}

/* ------------------------------------------------------------ checks */

/* Each check's counts over @g's hosts; a host whose every check is SKIP is
 * unchecked: a check that could not be made is no pass. */
static int checks_of(struct report *r, struct report_group *g, long *map)
{
	for (unsigned i = 0; i < g->nhosts; i++) {
		struct report_host *h = &r->hosts[g->hosts[i]];
		bool made = false;

		for (unsigned c = 0; c < h->nchecks; c++)
			made |= h->checks[c].status != REPORT_SKIP;
		h->unchecked = h->nchecks && !made;
		g->unchecked += h->unchecked;

		for (unsigned c = 0; c < h->nchecks; c++) {
			const struct report_check *hc = &h->checks[c];
			struct report_check_group *cg;

			if (map[hc->id] < 0) {
				map[hc->id] = g->nchecks;
				cg = &g->checks[g->nchecks++];
				*cg = (struct report_check_group){ .id = hc->id };
			}
			cg = &g->checks[map[hc->id]];
			cg->count[hc->status]++;
			if (hc->status != REPORT_FAIL)
				continue;
			if (!cg->fail_hosts) {
				cg->fail_hosts = calloc(g->nhosts, sizeof(*cg->fail_hosts));
				cg->fail_messages = calloc(g->nhosts, sizeof(*cg->fail_messages));
				if (!cg->fail_hosts || !cg->fail_messages)
					return -ENOMEM;
			}
			cg->fail_hosts[cg->nfail] = g->hosts[i];
			cg->fail_messages[cg->nfail++] = hc->message;
			g->fails++;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ figures */

static int source_of(const struct report_figure *f)
{
	return !strcmp(f->source, "calibration") ? REPORT_SRC_CALIBRATION
	       : !strcmp(f->source, "bench") ? REPORT_SRC_BENCH : REPORT_SRC_STAT;
}

/*
 * A figure's floor, the smallest cut.  A count (TSC ticks, slots, cycles):
 * 1 % of its median, at least 1 - a difference a lab does not act on, and
 * the step of a clock that advances in steps (a KVM guest's TSC reads in
 * steps of 26 ticks here), which makes hosts alike differ by one when more
 * than half of them agree (MAD 0).  Points (a calibration's noise floor):
 * 0.01, the printed precision.  A Top-down share: the median of its hosts'
 * own bound (bound_pp: PERF_METRICS's 8-bit quantisation), at least 0.01.
 */
static double floor_of(const struct report_figure *f, const double *values,
		       const double *bounds, size_t n)
{
	double *b, med = NAN;
	size_t m = 0;

	if (f->section != REPORT_SEC_TOPDOWN && strcmp(f->unit, "pp"))
		return fmax(1, 0.01 * fabs(bench_median(values, n)));
	if (f->section != REPORT_SEC_TOPDOWN && !strcmp(f->unit, "pp"))
		return 0.01;
	if (!(b = malloc((n ? n : 1) * sizeof(*b))))
		return NAN; /* report_robust refuses it: -EINVAL, as no memory */
	for (size_t i = 0; i < n; i++)
		if (isfinite(bounds[i]) && bounds[i] >= 0)
			b[m++] = bounds[i];
	if (m)
		med = bench_median(b, m);
	free(b);
	return m ? fmax(med, 0.01) : 0.01;
}

static int cmp_figs(const void *a, const void *b)
{
	const struct report_figure_group *x = a, *y = b;
	int sx = sort_r->figs[x->fig].section, sy = sort_r->figs[y->fig].section;

	if (sx != sy)
		return sx - sy;
	return (x->fig > y->fig) - (x->fig < y->fig);
}

static int figure_judge(const struct report *r, struct report_group *g,
			struct report_figure_group *fg)
{
	const struct report_figure *f = &r->figs[fg->fig];
	int src = source_of(f), rc;

	for (unsigned i = 0; i < g->nhosts; i++) {
		const struct report_host *h = &r->hosts[g->hosts[i]];
		bool has = false;

		for (unsigned v = 0; v < h->nvalues && !has; v++)
			if (h->values[v].fig == fg->fig) {
				fg->hosts[fg->n] = g->hosts[i];
				fg->bounds[fg->n] = h->values[v].bound;
				fg->values[fg->n++] = h->values[v].value;
				has = true;
			}
		if (!has && h->has_source[src])
			fg->missing[fg->nmissing++] = g->hosts[i];
		else if (!has)
			fg->absent[fg->nabsent++] = g->hosts[i];
	}
	rc = report_robust(fg->values, fg->n, r->k, floor_of(f, fg->values, fg->bounds, fg->n), &fg->r,
			   fg->dir);
	for (size_t i = 0; !rc && i < fg->n; i++)
		fg->noutliers += fg->dir[i] != 0;
	g->outliers += fg->noutliers;
	return rc;
}

static int figures_of(struct report *r, struct report_group *g, long *map)
{
	int rc = 0;

	for (unsigned i = 0; i < g->nhosts; i++) {
		const struct report_host *h = &r->hosts[g->hosts[i]];

		for (unsigned v = 0; v < h->nvalues; v++)
			if (map[h->values[v].fig] < 0) {
				map[h->values[v].fig] = g->nfigs;
				g->figs[g->nfigs++] = (struct report_figure_group){ .fig =
										    h->values[v].fig };
			}
	}
	sort_r = r;
	qsort(g->figs, g->nfigs, sizeof(*g->figs), cmp_figs);
	for (unsigned i = 0; !rc && i < g->nfigs; i++) {
		struct report_figure_group *fg = &g->figs[i];

		fg->hosts = calloc(g->nhosts, sizeof(*fg->hosts));
		fg->missing = calloc(g->nhosts, sizeof(*fg->missing));
		fg->absent = calloc(g->nhosts, sizeof(*fg->absent));
		fg->values = calloc(g->nhosts, sizeof(*fg->values));
		fg->bounds = calloc(g->nhosts, sizeof(*fg->bounds));
		fg->dir = calloc(g->nhosts, sizeof(*fg->dir));
		if (!fg->hosts || !fg->missing || !fg->absent || !fg->values || !fg->bounds || !fg->dir)
			return -ENOMEM;
		rc = figure_judge(r, g, fg);
	}
	return rc;
}

/* ------------------------------------------------------------ a group */

static int group_fill(struct report *r, struct report_group *g, long *cmap, long *fmap)
{
	const struct report_setting_group *brand = &g->set[REPORT_SET_BRAND];
	int rc = 0;

	for (unsigned s = 0; !rc && s < REPORT_NSETTINGS; s++)
		rc = settings_of(r, g, (enum report_setting)s);
	if (rc)
		return rc;
	g->brand = brand->nvalues ? brand->v[0].value : NULL;
	for (unsigned i = 0; i < g->nhosts; i++) {
		g->nenv += r->hosts[g->hosts[i]].has_env;
		if (!g->uarch)
			g->uarch = r->hosts[g->hosts[i]].uarch;
	}
	for (unsigned i = 0; i < r->nchecks_names; i++)
		cmap[i] = -1;
	for (unsigned i = 0; i < r->nfigs; i++)
		fmap[i] = -1;
	g->checks = calloc(r->nchecks_names ? r->nchecks_names : 1, sizeof(*g->checks));
	g->figs = calloc(r->nfigs ? r->nfigs : 1, sizeof(*g->figs));
	if (!g->checks || !g->figs)
		return -ENOMEM;
	if (!(rc = checks_of(r, g, cmap)))
		rc = figures_of(r, g, fmap);
	/* down to their elements (a group holds its own checks and figures,
	 * not room for every name of the fleet); one that fails stays larger */
	(void)array_resize(&g->checks, g->nchecks, sizeof(*g->checks));
	(void)array_resize(&g->figs, g->nfigs, sizeof(*g->figs));
	r->fails += g->fails;
	r->outliers += g->outliers;
	r->unchecked += g->unchecked;
	return rc;
}

int report_groups_build(struct report *r)
{
	unsigned *order = NULL;
	long *cmap = NULL, *fmap = NULL;
	int rc = -ENOMEM;

	if ((rc = name_hosts(r)))
		return rc;
	rc = -ENOMEM;
	order = calloc(r->nhosts ? r->nhosts : 1, sizeof(*order));
	cmap = calloc(r->nchecks_names ? r->nchecks_names : 1, sizeof(*cmap));
	fmap = calloc(r->nfigs ? r->nfigs : 1, sizeof(*fmap));
	r->groups = calloc(r->nhosts ? r->nhosts : 1, sizeof(*r->groups));
	if (!order || !cmap || !fmap || !r->groups)
		goto out;
	for (unsigned i = 0; i < r->nhosts; i++)
		order[i] = i;
	sort_r = r;
	qsort(order, r->nhosts, sizeof(*order), cmp_by_cpu);
	for (unsigned i = 0; i < r->nhosts; ) {
		struct report_group *g = &r->groups[r->ngroups++];
		unsigned j = i;

		while (j < r->nhosts && !cmp_cpu(&r->hosts[order[i]].cpu, &r->hosts[order[j]].cpu))
			j++;
		g->cpu = r->hosts[order[i]].cpu;
		g->nhosts = j - i;
		if (!(g->hosts = malloc(g->nhosts * sizeof(*g->hosts))))
			goto out;
		memcpy(g->hosts, order + i, g->nhosts * sizeof(*g->hosts));
		if ((rc = group_fill(r, g, cmap, fmap)))
			goto out;
		rc = -ENOMEM;
		i = j;
	}
	rc = 0;
out:
	free(order);
	free(cmap);
	free(fmap);
	return rc;
}

void report_groups_free(struct report *r)
{
	for (unsigned i = 0; i < r->ngroups; i++) {
		struct report_group *g = &r->groups[i];

		for (unsigned s = 0; s < REPORT_NSETTINGS; s++) {
			for (unsigned j = 0; j < g->set[s].nvalues; j++)
				free(g->set[s].v[j].hosts);
			free(g->set[s].v);
		}
		for (unsigned c = 0; g->checks && c < g->nchecks; c++) {
			free(g->checks[c].fail_hosts);
			free(g->checks[c].fail_messages);
		}
		for (unsigned f = 0; g->figs && f < g->nfigs; f++) {
			free(g->figs[f].hosts);
			free(g->figs[f].missing);
			free(g->figs[f].absent);
			free(g->figs[f].values);
			free(g->figs[f].bounds);
			free(g->figs[f].dir);
		}
		free(g->checks);
		free(g->figs);
		free(g->hosts);
	}
	free(r->groups);
	r->groups = NULL;
	r->ngroups = 0;
}
