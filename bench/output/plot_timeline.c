/*
 * bench/output/plot_timeline.c - a series of intervals (stat -I) as
 * stacked areas: x in seconds since the start, y in percent of slots,
 * each interval a step from the end of the one before to its own end
 * (the numbers are the interval's, not a point's), the nodes stacked in
 * the series' order from the bottom; an interval without a number is a gap.
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

struct tl {
	const struct plot_series *s;
	size_t nrows;
	struct plot_legend_row rows[PLOT_NODES_MAX + 1];
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

static void time_axis(struct plot_ctx *c, const struct plot_box *b, double t0, double t1)
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
		plot_text(c, lab, x, b->y1 + 20, PLOT_CENTRE, PLOT_BASELINE, &f, NULL);
	}
	plot_text(c, "time since the start (s); each step one interval", (b->x0 + b->x1) / 2,
		  c->h - 18, PLOT_CENTRE, PLOT_BASELINE, &f, NULL);
}

/* Where the first interval starts: one interval's length before its end. */
static double start_of(const struct plot_series *s)
{
	double t0 = s->samples[0].t;

	if (s->n > 1)
		return fmax(0, t0 - (s->samples[1].t - t0));
	return t0 > 0 ? 0 : t0 - 1;
}

static void areas(struct plot_ctx *c, const struct plot_box *b, const struct plot_series *s,
		  double t0, double t1)
{
	double xs = (b->x1 - b->x0) / (t1 - t0), ys = b->y1 - b->y0;

	for (unsigned j = 0; j < s->nnodes; j++) {
		const struct plot_node_style *st = plot_node_style(s->nodes[j]);

		for (size_t i = 0; i < s->n; i++) {
			const struct plot_sample *x = &s->samples[i];
			double from = i ? s->samples[i - 1].t : t0, base = 0, v = x->value[j];

			for (unsigned k = 0; k < j; k++)
				base += isfinite(x->value[k]) && x->value[k] > 0 ? x->value[k] : 0;
			if (!isfinite(v) || v <= 0)
				continue;
			v = fmin(v, fmax(0, 1 - base));
			cairo_rectangle(c->cr, b->x0 + (from - t0) * xs, b->y1 - (base + v) * ys,
					(x->t - from) * xs, v * ys);
		}
		/* one path per node: no seams between its intervals */
		cairo_set_source_rgb(c->cr, st->r, st->g, st->b);
		cairo_fill(c->cr);
		plot_trace_box(c, "area", s->nodes[j], b->x0, b->y0, b->x1, b->y1);
	}
}

static void draw(struct plot_ctx *c, const void *data)
{
	const struct tl *l = data;
	const struct plot_series *s = l->s;
	double lx = c->w - PLOT_MARGIN - plot_legend_width(c, l->rows, l->nrows);
	struct plot_box b = { LEFT, PLOT_TOP + 8, lx - GAP, c->h - BOTTOM };
	double t0 = start_of(s), t1 = s->samples[s->n - 1].t;

	if (t1 <= t0)
		t1 = t0 + 1;
	plot_header(c, s->title, s->subtitle);
	plot_trace_box(c, "plot", NULL, b.x0, b.y0, b.x1, b.y1);
	areas(c, &b, s, t0, t1);
	/* the grid over the areas, faint, so that a share can be read off */
	plot_grid(c, &b, 100, 10, true, "percent of slots", 0.9);
	time_axis(c, &b, t0, t1);
	plot_legend(c, l->rows, l->nrows, lx, b.y0);
}

int plot_timeline_write(const char *path, const struct plot_series *s,
			const struct plot_trace *t)
{
	struct tl l = { .s = s };
	int rc = plot_check_path(path);

	if (rc)
		return rc;
	if (!s->n || !s->nnodes)
		return -EDOM;
	l.nrows = plot_legend_nodes(s->nodes, s->nnodes, l.rows);
	return plot_render(path, PLOT_W, PLOT_H, draw, &l, t);
}
