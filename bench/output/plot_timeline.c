/*
 * bench/output/plot_timeline.c - a timeline (stat -I) as stacked areas,
 * one panel per series (a core kind: a hybrid part's P- and E-cores each
 * their own, never weighted together), the panels one above the other
 * over one time axis: x in seconds since the start, y in percent of
 * slots in each panel, each interval a step from the end of the one
 * before to its own end (the numbers are the interval's, not a point's),
 * the nodes stacked in the series' order from the bottom; an interval
 * without a number is a gap.  One legend for all, the top of the stack
 * first.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/output/plot_int.h"

#define LEFT 82.0
#define BOTTOM 66.0
#define GAP 24.0
#define HEADING 22.0     /* a panel's heading above it */
#define PANEL_GAP 30.0   /* between a panel and the next one's heading */
#define PANEL_MIN 220.0  /* the least height of a panel's plot */

struct tl {
	const struct plot_timeline *tl;
	struct plot_head head;
	size_t nrows;
	struct plot_legend_row rows[PLOT_NODES_MAX * PLOT_PANELS_MAX + 1];
};

/* A step of 1, 2 or 5 times a power of ten giving at most 10 ticks. */
static double nice_step(double range)
{
	double p = pow(10, floor(log10(range > 0 ? range : 1))), steps[] = { 0.1, 0.2, 0.5, 1, 2, 5, 10 };

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (range / (steps[i] * p) <= 10)
			return steps[i] * p;
	return 10 * p;
}

/* The ticks under a panel; with @labels, their seconds and the axis title. */
static void time_axis(struct plot_ctx *c, const struct plot_box *b, double t0, double t1,
		      bool labels)
{
	const struct plot_font f = PLOT_TEXT(PLOT_FONT);
	double step = nice_step(t1 - t0);
	char lab[48];

	cairo_set_line_width(c->cr, 1);
	for (double v = ceil(t0 / step - 1e-9) * step; v <= t1 + 1e-9 * step; v += step) {
		double x = b->x0 + (b->x1 - b->x0) * (v - t0) / (t1 - t0);

		cairo_set_source_rgb(c->cr, 0.3, 0.3, 0.3);
		cairo_move_to(c->cr, round(x) + 0.5, b->y1);
		cairo_line_to(c->cr, round(x) + 0.5, b->y1 + 5);
		cairo_stroke(c->cr);
		snprintf(lab, sizeof(lab), "%g", fabs(v) < step * 1e-6 ? 0 : v);
		if (labels)
			plot_text(c, lab, x, b->y1 + 20, PLOT_CENTRE, PLOT_BASELINE, &f, NULL);
	}
	if (labels)
		plot_text(c, "time since the start (s); each step one interval", (b->x0 + b->x1) / 2,
			  c->h - 18, PLOT_CENTRE, PLOT_BASELINE, &f, NULL);
}

/* The time the panels span: from one interval's length before the first
 * end (of any panel) to the last end. */
static void span(const struct plot_timeline *tl, double *t0, double *t1)
{
	double first = INFINITY, second = INFINITY, last = -INFINITY;

	for (unsigned p = 0; p < tl->npanels; p++) {
		const struct plot_series *s = &tl->panel[p];

		if (!s->n)
			continue;
		if (s->samples[0].t < first) {
			second = s->n > 1 ? s->samples[1].t : INFINITY;
			first = s->samples[0].t;
		}
		last = fmax(last, s->samples[s->n - 1].t);
	}
	if (isfinite(second))
		*t0 = fmax(0, first - (second - first));
	else
		*t0 = first > 0 ? 0 : first - 1;
	*t1 = last > *t0 ? last : *t0 + 1;
}

/* Where @s's first interval starts: one interval's length before its end
 * (its own, where a panel began late), never before @t0. */
static double start_of(const struct plot_series *s, double t0)
{
	double t = s->samples[0].t;

	if (s->n > 1)
		return fmax(t0, t - (s->samples[1].t - t));
	return t0;
}

/* One panel's areas; each node's traced as the box of what it covers. */
static void areas(struct plot_ctx *c, const struct plot_box *b, const struct plot_series *s,
		  double t0, double t1)
{
	double xs = (b->x1 - b->x0) / (t1 - t0), ys = b->y1 - b->y0;

	for (unsigned j = 0; j < s->nnodes; j++) {
		const struct plot_node_style *st = plot_node_style(s->nodes[j]);
		double top = INFINITY, foot = -INFINITY;

		for (size_t i = 0; i < s->n; i++) {
			const struct plot_sample *x = &s->samples[i];
			double from = i ? s->samples[i - 1].t : start_of(s, t0), base = 0;
			double v = x->value[j];

			for (unsigned k = 0; k < j; k++)
				base += isfinite(x->value[k]) && x->value[k] > 0 ? x->value[k] : 0;
			if (!isfinite(v) || v <= 0)
				continue;
			v = fmin(v, fmax(0, 1 - base));
			cairo_rectangle(c->cr, b->x0 + (from - t0) * xs, b->y1 - (base + v) * ys,
					(x->t - from) * xs, v * ys);
			top = fmin(top, b->y1 - (base + v) * ys);
			foot = fmax(foot, b->y1 - base * ys);
		}
		/* one path per node: no seams between its intervals */
		cairo_set_source_rgb(c->cr, st->r, st->g, st->b);
		cairo_fill(c->cr);
		if (isfinite(top))
			plot_trace_box(c, "area", s->nodes[j], b->x0, top, b->x1, foot);
	}
}

static void draw(struct plot_ctx *c, const void *data)
{
	const struct tl *l = data;
	const struct plot_timeline *tl = l->tl;
	const struct plot_font hf = PLOT_BOLD(PLOT_FONT);
	double lx = c->w - PLOT_MARGIN - plot_legend_width(c, l->rows, l->nrows);
	double top = plot_header_height(tl->run) + 8, t0, t1, h, y;
	unsigned np = tl->npanels, nh = 0;

	for (unsigned p = 0; p < np; p++)
		nh += tl->panel[p].heading[0] != '\0';
	h = (c->h - BOTTOM - top - nh * HEADING - (np - 1) * PANEL_GAP) / np;
	span(tl, &t0, &t1);
	plot_header(c, &l->head);
	y = top;
	for (unsigned p = 0; p < np; p++) {
		const struct plot_series *s = &tl->panel[p];
		struct plot_box b;
		char *head;

		if (s->heading[0]) {
			if ((head = plot_text_fit(c, s->heading, lx - GAP - LEFT, &hf)))
				plot_text(c, head, LEFT, y + HEADING - 7, PLOT_LEFT, PLOT_BASELINE, &hf,
					  NULL);
			free(head);
			y += HEADING;
		}
		b = (struct plot_box){ LEFT, y, lx - GAP, y + h };
		plot_trace_box(c, "plot", s->kind[0] ? s->kind : NULL, b.x0, b.y0, b.x1, b.y1);
		areas(c, &b, s, t0, t1);
		/* the grid over the areas, faint, so that a share can be read off */
		plot_grid(c, &b, 100, h < 300 ? 20 : 10, true, "percent of slots", 0.9);
		time_axis(c, &b, t0, t1, p + 1 == np);
		y += h + PANEL_GAP;
	}
	plot_legend(c, l->rows, l->nrows, lx, top);
}

/* Every panel's nodes, once each, in the first panel's order (the stacks'
 * order), into @l's legend, the top of the stack first. */
static void legend(struct tl *l)
{
	const char *nodes[PLOT_NODES_MAX * PLOT_PANELS_MAX];
	size_t n = 0;

	for (unsigned p = 0; p < l->tl->npanels; p++)
		for (unsigned j = 0; j < l->tl->panel[p].nnodes; j++) {
			const char *node = l->tl->panel[p].nodes[j];
			size_t k = 0;

			while (k < n && strcmp(nodes[k], node))
				k++;
			if (k == n)
				nodes[n++] = node;
		}
	l->nrows = plot_legend_nodes(nodes, n, l->rows, true);
}

int plot_timeline_write(const char *path, const struct plot_timeline *tl,
			const struct plot_trace *t)
{
	struct tl l = { .tl = tl, .head = { tl->title, tl->subtitle, tl->run, tl->npanels, { NULL } } };
	double top = plot_header_height(tl->run) + 8, h;
	size_t samples = 0;
	unsigned nh = 0;
	int rc = plot_check_path(path);

	if (rc)
		return rc;
	if (tl->npanels > PLOT_PANELS_MAX)
		return -EINVAL;
	for (unsigned p = 0; p < tl->npanels; p++) {
		samples += tl->panel[p].nnodes ? tl->panel[p].n : 0;
		nh += tl->panel[p].heading[0] != '\0';
		l.head.panel[p] = tl->panel[p].heading;
	}
	if (!samples)
		return -EDOM;
	legend(&l);
	h = fmax(PLOT_H, top + nh * HEADING + tl->npanels * PANEL_MIN +
			 (tl->npanels - 1) * PANEL_GAP + BOTTOM);
	return plot_render(path, PLOT_W, ceil(h), draw, &l, &l.head, t);
}
