/*
 * bench/output/plot_pairs.c - two sides per metric (baretma against
 * perf_event), horizontal bars in percent of slots: one row per metric,
 * grouped under its kernel, side A solid and side B pale in the node's
 * colour, whiskers of each side's bound, and at the right of each row its
 * verdict with both values (a DISAGREE in bold vermillion, Okabe and Ito's
 * red); the legend's nodes in the rows' order.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/output/plot_int.h"

#define ROW 30.0     /* one metric */
#define HEAD 24.0    /* a kernel's name */
#define BAR 10.0     /* each side's bar */
#define BOTTOM 66.0
#define GAP 24.0
#define PALE 0.4     /* side B's alpha */

struct pl {
	const struct plot_pairs *p;
	size_t ngroups;
	double max;      /* percent at the axis' end */
	size_t nrows;
	struct plot_legend_row rows[PLOT_NODES_MAX + 4];
	char a[128], b[128]; /* the sides' rows ("A: baretma (msr)"; a name
			      * longer is a legend still) */
};

static const struct plot_node_style side_a = { NULL, NULL, NULL, 0.3, 0.3, 0.3 };

static bool new_group(const struct plot_pairs *p, size_t i)
{
	return !i || strcmp(p->pairs[i].group ? p->pairs[i].group : "",
			    p->pairs[i - 1].group ? p->pairs[i - 1].group : "");
}

static const char *label_of(const struct plot_pair *x)
{
	const struct plot_node_style *st = plot_node_style(x->node);

	return st->label ? st->label : x->node ? x->node : "?";
}

/* "agree: 39.84 / 39.80", or "n/a" */
static void verdict_text(const struct plot_pair *x, char *buf, size_t n)
{
	if (isfinite(x->a) && isfinite(x->b))
		snprintf(buf, n, "%s: %.2f / %.2f", x->verdict ? x->verdict : "?", 100 * x->a,
			 100 * x->b);
	else
		snprintf(buf, n, "%s", x->verdict ? x->verdict : "n/a");
}

static struct plot_font verdict_font(const struct plot_pair *x)
{
	struct plot_font f = x->alarm ? PLOT_BOLD(PLOT_FONT) : PLOT_TEXT(PLOT_FONT);

	if (x->alarm) /* vermillion (213, 94, 0), Okabe and Ito (2008) */
		f.r = 213 / 255.0, f.g = 94 / 255.0, f.b = 0;
	return f;
}

struct cols {
	double label_w, verdict_w, legend_w;
};

static struct cols columns(struct plot_ctx *c, const struct pl *l)
{
	const struct plot_font f = PLOT_TEXT(PLOT_FONT), g = PLOT_BOLD(PLOT_FONT);
	struct cols k = { 0, 0, plot_legend_width(c, l->rows, l->nrows) };
	char v[96];

	k.verdict_w = plot_text_width(c, "verdict: values in % (A / B)", &g);
	for (size_t i = 0; i < l->p->n; i++) {
		const struct plot_pair *x = &l->p->pairs[i];
		struct plot_font vf = verdict_font(x);

		verdict_text(x, v, sizeof(v));
		k.label_w = fmax(k.label_w, 30 + plot_text_width(c, label_of(x), &f));
		k.label_w = fmax(k.label_w, plot_text_width(c, x->group ? x->group : "", &g));
		k.verdict_w = fmax(k.verdict_w, plot_text_width(c, v, &vf));
	}
	return k;
}

static void one_side(struct plot_ctx *c, const struct plot_box *b, double max,
		     const struct plot_node_style *st, double alpha, double v, double bound,
		     double y)
{
	double xs = (b->x1 - b->x0) / max;

	if (!isfinite(v))
		return;
	plot_fill(c, "segment", st, alpha, b->x0, y, b->x0 + fmax(0, 100 * v) * xs, y + BAR);
	if (alpha < 1) { /* the pale side outlined, so that it reads on white */
		cairo_set_source_rgb(c->cr, st->r, st->g, st->b);
		cairo_set_line_width(c->cr, 1);
		cairo_rectangle(c->cr, b->x0, y + 0.5, fmax(0, 100 * v) * xs - 0.5, BAR - 1);
		cairo_stroke(c->cr);
	}
	if (isfinite(bound) && bound > 0)
		plot_whisker(c, false, y + BAR / 2, b->x0 + 100 * fmax(0, v - bound) * xs,
			     b->x0 + 100 * (v + bound) * xs, BAR * 0.8);
}

static void draw(struct plot_ctx *c, const void *data)
{
	const struct pl *l = data;
	const struct plot_pairs *p = l->p;
	const struct plot_font f = PLOT_TEXT(PLOT_FONT), g = PLOT_BOLD(PLOT_FONT);
	struct cols k = columns(c, l);
	const struct plot_head head = { p->title, p->subtitle, p->run, 0, { NULL } };
	double top = plot_header_height(p->run), lx = c->w - PLOT_MARGIN - k.legend_w, y = top + 8;
	struct plot_box b = { PLOT_MARGIN + k.label_w + 12, y, lx - GAP - k.verdict_w - 14,
			      c->h - BOTTOM };
	char v[96];

	plot_header(c, &head);
	plot_text(c, "verdict: values in % (A / B)", b.x1 + 14, top, PLOT_LEFT,
		  PLOT_BASELINE, &g, NULL);
	plot_trace_box(c, "plot", NULL, b.x0, b.y0, b.x1, b.y1);
	plot_grid(c, &b, l->max, l->max > 50 ? 10 : 5, false, "percent of slots", 1);
	for (size_t i = 0; i < p->n; i++) {
		const struct plot_pair *x = &p->pairs[i];
		const struct plot_node_style *st = plot_node_style(x->node);
		struct plot_font vf = verdict_font(x);

		if (new_group(p, i)) {
			plot_text(c, x->group ? x->group : "", PLOT_MARGIN, y + HEAD / 2 + 2,
				  PLOT_LEFT, PLOT_MIDDLE, &g, NULL);
			y += HEAD;
		}
		plot_text(c, label_of(x), PLOT_MARGIN + (st->parent ? 30 : 14), y + ROW / 2,
			  PLOT_LEFT, PLOT_MIDDLE, &f, NULL);
		one_side(c, &b, l->max, st, 1, x->a, x->a_bound, y + ROW / 2 - BAR - 1);
		one_side(c, &b, l->max, st, PALE, x->b, x->b_bound, y + ROW / 2 + 1);
		verdict_text(x, v, sizeof(v));
		plot_text(c, v, b.x1 + 14, y + ROW / 2, PLOT_LEFT, PLOT_MIDDLE, &vf, NULL);
		y += ROW;
	}
	plot_legend(c, l->rows, l->nrows, lx, b.y0);
}

int plot_pairs_write(const char *path, const struct plot_pairs *p, const struct plot_trace *t)
{
	struct pl l = { .p = p, .max = 10 };
	const char *nodes[PLOT_NODES_MAX];
	size_t n = 0;
	double h;
	int rc = plot_check_path(path);

	if (rc)
		return rc;
	if (!p->n)
		return -EDOM;
	for (size_t i = 0; i < p->n; i++) {
		const struct plot_pair *x = &p->pairs[i];
		size_t j = 0;

		l.ngroups += new_group(p, i);
		for (int s = 0; s < 2; s++) {
			double v = s ? x->b + x->b_bound : x->a + x->a_bound;

			if (isfinite(v))
				l.max = fmax(l.max, 100 * v);
		}
		while (j < n && strcmp(nodes[j], x->node))
			j++;
		if (j == n && n < PLOT_NODES_MAX)
			nodes[n++] = x->node;
	}
	l.max = fmin(100, ceil(l.max / 10) * 10);
	snprintf(l.a, sizeof(l.a), "A: %s", p->a_name ? p->a_name : "");
	snprintf(l.b, sizeof(l.b), "B: %s", p->b_name ? p->b_name : "");
	l.rows[0] = (struct plot_legend_row){ l.a, &side_a, 1, false };
	l.rows[1] = (struct plot_legend_row){ l.b, &side_a, PALE, false };
	l.nrows = 2 + plot_legend_nodes(nodes, n, l.rows + 2, false);
	h = fmax(PLOT_H, plot_header_height(p->run) + 8 + l.ngroups * HEAD + p->n * ROW + 8 + BOTTOM);
	return plot_render(path, PLOT_W, h, draw, &l,
			   &(struct plot_head){ p->title, p->subtitle, p->run, 0, { NULL } }, t);
}
