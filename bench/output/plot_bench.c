/*
 * bench/output/plot_bench.c - a bench result as stacked bars (plot.h): one
 * bar per kernel, its medians of the nodes the run reports (those of its
 * level that its recipe defines, and the recipe's own), whiskers of its
 * bound; the title names the CPU, the subtitle what measured it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/output/output.h"
#include "bench/output/plot.h"
#include "msr/recipe/recipe.h"

static void add(struct plot_bar *b, int level, const char *node, double v)
{
	if (level == 1 && b->n1 < PLOT_NODES_MAX)
		b->l1[b->n1++] = (struct plot_value){ node, v };
	else if (level == 2 && b->n2 < PLOT_NODES_MAX)
		b->l2[b->n2++] = (struct plot_value){ node, v };
}

static void bar_of(const struct bench_result *res, const struct bench_kernel_result *k,
		   const struct bench_kernel_result *x, struct plot_bar *b)
{
	*b = (struct plot_bar){ .label = k->kernel->name, .bound = k->bound };
	if (!k->slots.n) {
		b->missing = "no valid repetition";
		return;
	}
	for (int lvl = 1; lvl <= res->level && lvl <= 2; lvl++) {
		for (unsigned m = 0; m < TMA_NMETRICS; m++)
			if (td_metric_level(m) == lvl && bench_node_shown(res, m))
				add(b, lvl, td_metric_name(m), k->tma[m].median);
		for (unsigned j = 0; x && j < x->nextra; j++)
			if (x->extra_level[j] == lvl)
				add(b, lvl, x->extra_name[j], j < k->nextra ? k->extra[j].median : NAN);
	}
}

int plot_bench_write(const char *path, const struct bench_result *res,
		     const struct plot_run *run, const struct plot_trace *t)
{
	const struct cpu_kind *kind = cpu_info_kind_of(&res->cpu, res->cpu_used);
	const struct bench_kernel_result *x = bench_extras_of(res);
	struct plot_bar *bars;
	char title[512], sub[1024], how[256], *brand;
	int rc;

	if (!res->level || !res->nkernels)
		return -EDOM;
	if (!(bars = calloc(res->nkernels, sizeof(*bars))))
		return -ENOMEM;
	if (!(brand = plot_brand(&res->cpu))) {
		free(bars);
		return -ENOMEM;
	}
	for (size_t i = 0; i < res->nkernels; i++)
		bar_of(res, &res->kernels[i], x, &bars[i]);
	if (res->recipe)
		snprintf(how, sizeof(how), "recipe %s:%s, %u pass%s", res->recipe->name,
			 res->recipe->variant, res->passes, res->passes == 1 ? "" : "es");
	else
		snprintf(how, sizeof(how), "%s", res->reads ? res->reads : "?");
	/* the brand escaped (plot_brand) is 257 bytes at most: the title fits */
	snprintf(title, sizeof(title), "Top-down level %d per kernel: %s", res->level, brand);
	snprintf(sub, sizeof(sub), "cpu %u (%s core), backend %s, %s; medians; whiskers: +/- the bound (%s)",
		 res->cpu_used, kind ? kind->kind : "unknown", bench_backend_name(res->backend),
		 how, res->bound_text ? res->bound_text : "the bound");
	rc = plot_bars_write(path, &(struct plot_bars){ .title = title, .subtitle = sub,
				 .level = res->level, .nbars = res->nkernels, .bars = bars,
				 .run = run }, t);
	free(bars);
	free(brand);
	return rc;
}
