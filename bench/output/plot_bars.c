/*
 * bench/output/plot_bars.c - stacked bars of level 1 per label (a
 * kernel), in percent of slots: the four level-1 nodes stacked from the
 * bottom in the table's order (retiring first); at level 2 a narrower bar
 * beside each, its children stacked on their parent's base, so a child
 * stands level with its parent; whiskers of +/- the bound at each node's
 * top edge; the legend right of the bars, never over them, the top of the
 * stack first (as the bars read from the top).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/output/plot_int.h"

#define LEFT 82.0     /* the percent labels and the axis title */
#define BOTTOM 66.0   /* the labels under the bars */
#define GAP 24.0      /* between the bars and the legend */

struct layout {
	const struct plot_bars *p;
	struct plot_box b;   /* inside the axes */
	double slot;         /* width per label */
	double top;          /* the axis' end, fraction of slots: 1, or above
			      * where medians sum to more (each node's median
			      * is its own: they need not sum to 100 %) */
	double legend_x;
	size_t nrows;
	struct plot_legend_row rows[2 * PLOT_NODES_MAX + 2];
};

/* Every node any bar has, level 1 first, once each. */
static size_t nodes_of(const struct plot_bars *p, const char **nodes)
{
	size_t n = 0;

	for (int lvl = 1; lvl <= 2; lvl++)
		for (size_t i = 0; i < p->nbars; i++) {
			const struct plot_bar *b = &p->bars[i];
			unsigned m = lvl == 1 ? b->n1 : p->level >= 2 ? b->n2 : 0;

			for (unsigned j = 0; j < m && j < PLOT_NODES_MAX; j++) {
				const char *node = (lvl == 1 ? b->l1 : b->l2)[j].node;
				size_t k = 0;

				while (k < n && strcmp(nodes[k], node))
					k++;
				if (k == n && n < 2 * PLOT_NODES_MAX)
					nodes[n++] = node;
			}
		}
	return n;
}

static double y_of(const struct layout *l, double frac)
{
	return l->b.y1 - (l->b.y1 - l->b.y0) * frac / l->top;
}

/* The share as a drawn height: a negative child (never clamped in the
 * numbers) or a node not measured draws nothing. */
static double drawn(double v)
{
	return isfinite(v) && v > 0 ? fmin(v, 1) : 0;
}

/* "39.8" inside a segment tall and wide enough, white on a dark colour. */
static void segment_label(struct plot_ctx *c, const struct plot_node_style *st, double v,
			  double x0, double x1, double ya, double yb)
{
	double lum = 0.299 * st->r + 0.587 * st->g + 0.114 * st->b;
	struct plot_font f = PLOT_TEXT(PLOT_FONT_SMALL);
	char s[32];

	snprintf(s, sizeof(s), "%.1f", 100 * v);
	if (fabs(yb - ya) < f.size + 4 || plot_text_width(c, s, &f) > x1 - x0 - 4)
		return;
	if (lum < 0.55)
		f.r = f.g = f.b = 1;
	f.halo = true; /* the segment's colour around the glyphs: a whisker under
			* a number is cut, never drawn through it */
	f.hr = st->r, f.hg = st->g, f.hb = st->b;
	plot_text(c, s, (x0 + x1) / 2, (ya + yb) / 2, PLOT_CENTRE, PLOT_MIDDLE, &f, NULL);
}

/* One stack of @vals from @base upwards, their tops into @tops; with
 * @numbers, only the numbers (drawn after the whiskers, over them). */
static void stack(struct plot_ctx *c, const struct layout *l, const struct plot_value *vals,
		  unsigned n, double x0, double x1, double base, double *tops, bool numbers)
{
	for (unsigned j = 0; j < n; j++) {
		const struct plot_node_style *st = plot_node_style(vals[j].node);
		double top = base + drawn(vals[j].value);

		if (top > base && !numbers)
			plot_fill(c, "segment", st, 1, x0, y_of(l, base), x1, y_of(l, top));
		if (top > base && numbers)
			segment_label(c, st, vals[j].value, x0, x1, y_of(l, base), y_of(l, top));
		tops[j] = top;
		base = top;
	}
}

/* At each top edge below @end (the stack's top, the level-1 sum: 100 %
 * in every repetition, no error there), at @x. */
static void whiskers(struct plot_ctx *c, const struct layout *l, const double *tops, unsigned n,
		     double end, double bound, double x, double cap)
{
	double h = (l->b.y1 - l->b.y0) * bound / l->top;

	if (!isfinite(bound) || bound <= 0)
		return;
	for (unsigned j = 0; j < n; j++)
		if (tops[j] < end - 1e-9 && tops[j] > 1e-9)
			plot_whisker(c, true, x, y_of(l, tops[j]) - h, y_of(l, tops[j]) + h, cap);
}

/* Level 2 beside level 1: each parent's children from the parent's base. */
static void children(struct plot_ctx *c, const struct layout *l, const struct plot_bar *bar,
		     const double *tops1, double x0, double x1, bool numbers)
{
	for (unsigned j = 0; j < bar->n1; j++) {
		double base = j ? tops1[j - 1] : 0, tops[PLOT_NODES_MAX];
		struct plot_value kids[PLOT_NODES_MAX];
		unsigned nk = 0;

		for (unsigned k = 0; k < bar->n2 && k < PLOT_NODES_MAX; k++) {
			const char *par = plot_node_style(bar->l2[k].node)->parent;

			if (par && !strcmp(par, bar->l1[j].node))
				kids[nk++] = bar->l2[k];
		}
		stack(c, l, kids, nk, x0, x1, base, tops, numbers);
		/* near the right edge: clear of most of the centred numbers */
		if (!numbers)
			whiskers(c, l, tops, nk, tops1[bar->n1 - 1], bar->bound, x1 - 6, 7);
	}
}

static void one_bar(struct plot_ctx *c, const struct layout *l, size_t i)
{
	const struct plot_bar *bar = &l->p->bars[i];
	const struct plot_font lf = PLOT_TEXT(PLOT_FONT), na = PLOT_TEXT(PLOT_FONT_SMALL);
	double cx = l->b.x0 + l->slot * (i + 0.5), tops[PLOT_NODES_MAX];
	double w1 = fmin(l->slot * (l->p->level >= 2 ? 0.42 : 0.6), l->p->level >= 2 ? 56 : 80);
	double w2 = fmin(l->slot * 0.3, 40), gap = 3, x0, x1;
	char *lab = plot_text_fit(c, bar->label ? bar->label : "", l->slot - 6, &lf);

	if (lab)
		plot_text(c, lab, cx, l->b.y1 + 20, PLOT_CENTRE, PLOT_BASELINE, &lf, NULL);
	free(lab);
	lab = NULL;
	if (bar->missing || !bar->n1) {
		plot_text(c, "n/a", cx, y_of(l, 0.5), PLOT_CENTRE, PLOT_MIDDLE, &na, NULL);
		if (bar->missing && (lab = plot_text_fit(c, bar->missing, l->slot - 6, &na)))
			plot_text(c, lab, cx, y_of(l, 0.5) + 1.5 * na.size, PLOT_CENTRE, PLOT_MIDDLE,
				  &na, NULL);
		free(lab);
		return;
	}
	x0 = l->p->level >= 2 ? cx - (w1 + gap + w2) / 2 : cx - w1 / 2;
	x1 = x0 + w1;
	/* a whisker longer than the axis is cut at its ends */
	cairo_save(c->cr);
	cairo_rectangle(c->cr, l->b.x0, l->b.y0, l->b.x1 - l->b.x0, l->b.y1 - l->b.y0);
	cairo_clip(c->cr);
	plot_trace_box(c, "bar", bar->label, x0, l->b.y0, x1, l->b.y1);
	stack(c, l, bar->l1, bar->n1, x0, x1, 0, tops, false);
	whiskers(c, l, tops, bar->n1, tops[bar->n1 - 1], bar->bound, x1 - 7, 8);
	if (l->p->level >= 2 && bar->n2) {
		plot_trace_box(c, "bar", bar->label, x1 + gap, l->b.y0, x1 + gap + w2, l->b.y1);
		children(c, l, bar, tops, x1 + gap, x1 + gap + w2, false);
		children(c, l, bar, tops, x1 + gap, x1 + gap + w2, true);
	}
	stack(c, l, bar->l1, bar->n1, x0, x1, 0, tops, true);
	cairo_restore(c->cr);
}

/* The highest stack (level 1, or level 2 on its parents' bases). */
static double top_of(const struct plot_bars *p)
{
	double top = 1;

	for (size_t i = 0; i < p->nbars; i++) {
		const struct plot_bar *b = &p->bars[i];
		double s1 = 0;

		for (unsigned j = 0; j < b->n1 && j < PLOT_NODES_MAX; j++) {
			double s2 = s1;

			for (unsigned k = 0; p->level >= 2 && k < b->n2 && k < PLOT_NODES_MAX; k++) {
				const char *par = plot_node_style(b->l2[k].node)->parent;

				if (par && !strcmp(par, b->l1[j].node))
					s2 += drawn(b->l2[k].value);
			}
			s1 += drawn(b->l1[j].value);
			top = fmax(top, fmax(s1, s2));
		}
	}
	return fmin(2, ceil(top * 10 - 1e-9) / 10);
}

static void draw(struct plot_ctx *c, const void *data)
{
	struct layout l = *(const struct layout *)data;
	const struct plot_font lf = PLOT_TEXT(PLOT_FONT);
	const struct plot_head head = { l.p->title, l.p->subtitle, l.p->run, 0, { NULL } };

	plot_header(c, &head);
	/* the layout again, with this surface's font metrics */
	l.legend_x = c->w - PLOT_MARGIN - plot_legend_width(c, l.rows, l.nrows);
	l.b = (struct plot_box){ LEFT, plot_header_height(l.p->run) + 8, l.legend_x - GAP,
				 c->h - BOTTOM };
	l.slot = (l.b.x1 - l.b.x0) / (double)l.p->nbars;
	plot_trace_box(c, "plot", NULL, l.b.x0, l.b.y0, l.b.x1, l.b.y1);
	plot_grid(c, &l.b, 100 * l.top, 10, true, "percent of slots", 1);
	for (size_t i = 0; i < l.p->nbars; i++)
		one_bar(c, &l, i);
	plot_text(c, l.p->level >= 2 ? "kernel (left: level 1; right: level 2)" : "kernel",
		  (l.b.x0 + l.b.x1) / 2, c->h - 18, PLOT_CENTRE, PLOT_BASELINE, &lf, NULL);
	plot_legend(c, l.rows, l.nrows, l.legend_x, l.b.y0);
}

/* The width that gives every label its room: at least PLOT_W. */
static double width_for(const struct layout *l)
{
	cairo_surface_t *sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
	cairo_t *cr = cairo_create(sf);
	struct plot_ctx c = { cr, PLOT_W, PLOT_H, NULL };
	const struct plot_font lf = PLOT_TEXT(PLOT_FONT);
	double lw = plot_legend_width(&c, l->rows, l->nrows), slot = l->p->level >= 2 ? 96 : 64;
	double w;

	for (size_t i = 0; i < l->p->nbars; i++)
		slot = fmax(slot, plot_text_width(&c, l->p->bars[i].label ? l->p->bars[i].label
							     : "", &lf) + 14);
	w = LEFT + slot * (double)l->p->nbars + GAP + lw + PLOT_MARGIN;
	cairo_destroy(cr);
	cairo_surface_destroy(sf);
	return fmax(PLOT_W, ceil(w));
}

int plot_bars_write(const char *path, const struct plot_bars *p, const struct plot_trace *t)
{
	struct layout l = { .p = p };
	const char *nodes[2 * PLOT_NODES_MAX];
	size_t n;
	int rc = plot_check_path(path);

	if (rc)
		return rc;
	if (!p->nbars)
		return -EDOM;
	for (size_t i = 0; i < p->nbars; i++)
		if (p->bars[i].n1 > PLOT_NODES_MAX || p->bars[i].n2 > PLOT_NODES_MAX)
			return -EINVAL;
	n = nodes_of(p, nodes);
	l.nrows = plot_legend_nodes(nodes, n, l.rows, true);
	l.top = top_of(p);
	return plot_render(path, width_for(&l), PLOT_H, draw, &l,
			   &(struct plot_head){ p->title, p->subtitle, p->run, 0, { NULL } }, t);
}
