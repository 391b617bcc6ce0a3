/*
 * bench/output/plot_report.c - a fleet (bench/study/report.h) as one strip
 * of points per group and figure (doc/plots.md, "The pictures"): one point per
 * host at its distance from the group's median in units of the figure's
 * cut (max(k x 1.4826 x MAD, floor)), so that every figure shares one axis
 * and the limit is at -1 and +1; a point beyond is an outlier, drawn as a
 * vermillion diamond with the host's name; a point past the axis' end at
 * the end, as a triangle.  The groups' points in Okabe and Ito's colours
 * (plot_common.c's table), a group of fewer than REPORT_MIN_HOSTS hosts
 * hollow (not judged: its axis unit is the floor).  At most ROWS_MAX rows:
 * those with an outlier first, the subtitle saying how many were left out.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/output/output.h"
#include "bench/output/plot.h"

#ifndef HAVE_CAIRO

int plot_report_write(const char *path, const struct report *r, const struct plot_run *run,
		      const struct plot_trace *t)
{
	return -ENOTSUP;
}

#else

#include "bench/output/output_report.h"
#include "bench/output/plot_int.h"

#define ROWS_MAX 160
#define ROW 18.0
#define HEAD 24.0     /* a group's heading */
#define XMAX 4.0      /* the axis: -XMAX..XMAX cuts */
#define LABEL_W 300.0
#define RIGHT_W 170.0
#define BOTTOM 60.0

struct row {
	unsigned group;
	const struct report_figure_group *fg;
};

struct pr {
	const struct report *r;
	struct row *rows;
	size_t n;
	double top;
	struct plot_head head;
};

/* Okabe and Ito's colours for the groups, vermillion kept for outliers. */
static const struct plot_node_style group_colours[] = {
	{ NULL, NULL, NULL, 0 / 255.0, 114 / 255.0, 178 / 255.0 },   /* blue */
	{ NULL, NULL, NULL, 230 / 255.0, 159 / 255.0, 0 / 255.0 },   /* orange */
	{ NULL, NULL, NULL, 0 / 255.0, 158 / 255.0, 115 / 255.0 },   /* bluish green */
	{ NULL, NULL, NULL, 204 / 255.0, 121 / 255.0, 167 / 255.0 }, /* reddish purple */
	{ NULL, NULL, NULL, 86 / 255.0, 180 / 255.0, 233 / 255.0 },  /* sky blue */
	{ NULL, NULL, NULL, 0, 0, 0 },                               /* black */
};
static const struct plot_node_style outlier_colour = { NULL, NULL, NULL, 213 / 255.0,
						       94 / 255.0, 0 };

static const struct plot_node_style *colour(unsigned group)
{
	return &group_colours[group % (sizeof(group_colours) / sizeof(group_colours[0]))];
}

static void row_label(const struct report *r, const struct report_figure_group *fg, char *buf,
		      size_t n)
{
	const struct report_figure *f = &r->figs[fg->fig];

	if (f->section == REPORT_SEC_TOPDOWN)
		snprintf(buf, n, "%.40s %s", f->subject, f->item);
	else
		snprintf(buf, n, "%s %s (%s)", f->subject, f->item, f->unit);
}

static void group_label(const struct report_group *g, char *buf, size_t n)
{
	char cpu[96];

	snprintf(buf, n, "%s%s%.60s (%u host%s)", report_cpu_label(cpu, sizeof(cpu), g),
		 g->brand ? ": " : "", g->brand ? g->brand : "", g->nhosts,
		 g->nhosts == 1 ? "" : "s");
}

static void point(struct plot_ctx *c, double x, double y, int kind, const struct plot_node_style *st,
		  bool hollow)
{
	cairo_t *cr = c->cr;

	cairo_new_path(cr);
	if (kind == 1) { /* an outlier: a diamond */
		cairo_move_to(cr, x, y - 6);
		cairo_line_to(cr, x + 6, y);
		cairo_line_to(cr, x, y + 6);
		cairo_line_to(cr, x - 6, y);
		cairo_close_path(cr);
	} else if (kind == 2) { /* past the axis' end: a triangle pointing out */
		double d = x > c->w / 2 ? 1 : -1;

		cairo_move_to(cr, x + 6 * d, y);
		cairo_line_to(cr, x - 2 * d, y - 5);
		cairo_line_to(cr, x - 2 * d, y + 5);
		cairo_close_path(cr);
	} else {
		cairo_arc(cr, x, y, 3.5, 0, 2 * M_PI);
	}
	cairo_set_source_rgba(cr, st->r, st->g, st->b, 0.85);
	cairo_set_line_width(cr, 1.4);
	if (hollow)
		cairo_stroke(cr);
	else
		cairo_fill(cr);
	plot_trace_box(c, kind == 1 ? "outlier" : "point", NULL, x - 6, y - 6, x + 6, y + 6);
}

static void axis(struct plot_ctx *c, const struct plot_box *b)
{
	const struct plot_font f = PLOT_TEXT(PLOT_FONT_SMALL);
	double xs = (b->x1 - b->x0) / (2 * XMAX);
	char t[16];

	for (int i = (int)-XMAX; i <= (int)XMAX; i++) {
		double x = b->x0 + (i + XMAX) * xs;

		cairo_set_source_rgb(c->cr, i == 0 ? 0.35 : 0.85, i == 0 ? 0.35 : 0.85,
				     i == 0 ? 0.35 : 0.85);
		if (i == -1 || i == 1) /* the limit */
			cairo_set_source_rgb(c->cr, outlier_colour.r, outlier_colour.g,
					     outlier_colour.b);
		cairo_set_line_width(c->cr, i == 0 || i == -1 || i == 1 ? 1.2 : 0.6);
		cairo_move_to(c->cr, x, b->y0);
		cairo_line_to(c->cr, x, b->y1);
		cairo_stroke(c->cr);
		snprintf(t, sizeof(t), "%+d", i);
		plot_text(c, i ? t : "median", x, b->y1 + 14, PLOT_CENTRE, PLOT_BASELINE, &f, NULL);
	}
	plot_text(c, "distance from the group's median (its value at the right), in cuts: "
		  "max(k x 1.4826 x MAD, floor)",
		  (b->x0 + b->x1) / 2, b->y1 + 32, PLOT_CENTRE, PLOT_BASELINE, &f, NULL);
	plot_trace_box(c, "plot", NULL, b->x0, b->y0, b->x1, b->y1);
}

static void one_row(struct plot_ctx *c, const struct pr *p, const struct row *w,
		    const struct plot_box *b, double y)
{
	const struct report *r = p->r;
	const struct report_figure_group *fg = w->fg;
	const struct report_figure *f = &r->figs[fg->fig];
	const struct plot_font tf = PLOT_TEXT(PLOT_FONT_SMALL);
	double unit = fg->r.judged ? fg->r.cut : fg->r.floor, xs = (b->x1 - b->x0) / (2 * XMAX);
	char l[160], m[64], med[24];

	row_label(r, fg, l, sizeof(l));
	plot_text(c, l, PLOT_MARGIN + 12, y, PLOT_LEFT, PLOT_MIDDLE, &tf, NULL);
	/* as the text prints it: 2.8e-15 pp (a float's residue) is 0.00 */
	snprintf(m, sizeof(m), "%s %s%s", report_number(med, sizeof(med), fg->r.st.median, f->unit),
		 f->section == REPORT_SEC_TOPDOWN ? "%" : f->unit, fg->r.judged ? "" : " (n<3)");
	plot_text(c, m, b->x1 + 10, y, PLOT_LEFT, PLOT_MIDDLE, &tf, NULL);
	for (size_t i = 0; i < fg->n; i++) {
		double z = unit > 0 ? (fg->values[i] - fg->r.st.median) / unit : 0;
		double jitter = ((double)(i % 5) - 2) * 1.6; /* hosts alike stay visible */
		int kind = fg->dir[i] ? 1 : 0;
		double x;

		if (fabs(z) > XMAX) {
			z = z > 0 ? XMAX : -XMAX;
			kind = fg->dir[i] ? 1 : 2;
		}
		x = b->x0 + (z + XMAX) * xs;
		point(c, x, y + jitter, kind, fg->dir[i] ? &outlier_colour : colour(w->group),
		      !fg->r.judged);
		if (fg->dir[i]) {
			struct plot_font of = PLOT_BOLD(PLOT_FONT_SMALL);

			of.r = outlier_colour.r, of.g = outlier_colour.g, of.b = outlier_colour.b;
			plot_text(c, r->hosts[fg->hosts[i]].name, x + (z > 0 ? -9 : 9), y - 7,
				  z > 0 ? PLOT_RIGHT : PLOT_LEFT, PLOT_BASELINE, &of, NULL);
		}
	}
}

static void draw(struct plot_ctx *c, const void *data)
{
	const struct pr *p = data;
	const struct plot_font g = PLOT_BOLD(PLOT_FONT);
	struct plot_box b = { LABEL_W, p->top, c->w - RIGHT_W, c->h - BOTTOM };
	double y = p->top + 6;
	int last = -1;

	plot_header(c, &p->head);
	axis(c, &b);
	for (size_t i = 0; i < p->n; i++) {
		char l[192];

		if ((int)p->rows[i].group != last) {
			last = (int)p->rows[i].group;
			group_label(&p->r->groups[last], l, sizeof(l));
			plot_fill(c, "swatch", colour(p->rows[i].group), 1, PLOT_MARGIN, y + 6,
				  PLOT_MARGIN + 10, y + 16);
			plot_text(c, l, PLOT_MARGIN + 14, y + HEAD / 2 + 2, PLOT_LEFT, PLOT_MIDDLE, &g,
				  NULL);
			y += HEAD;
		}
		one_row(c, p, &p->rows[i], &b, y + ROW / 2);
		y += ROW;
	}
}

/* The rows drawn: every (group, figure) up to ROWS_MAX, those with an
 * outlier first; kept in the report's order. */
static size_t pick_rows(const struct report *r, struct row *rows, size_t *all)
{
	size_t n = 0;

	*all = 0;
	for (int pass = 0; pass < 2; pass++)
		for (unsigned gi = 0; gi < r->ngroups; gi++)
			for (unsigned f = 0; f < r->groups[gi].nfigs; f++) {
				const struct report_figure_group *fg = &r->groups[gi].figs[f];

				*all += !pass;
				if ((pass == 0) != (fg->noutliers > 0) || n >= ROWS_MAX)
					continue;
				rows[n++] = (struct row){ gi, fg };
			}
	for (size_t i = 1; i < n; i++) /* back in order: by group, then figure */
		for (size_t j = i; j > 0 && (rows[j - 1].group > rows[j].group ||
			(rows[j - 1].group == rows[j].group && rows[j - 1].fg > rows[j].fg)); j--) {
			struct row t = rows[j - 1];

			rows[j - 1] = rows[j];
			rows[j] = t;
		}
	return n;
}

int plot_report_write(const char *path, const struct report *r, const struct plot_run *run,
		      const struct plot_trace *t)
{
	struct row rows[ROWS_MAX];
	struct pr p = { .r = r, .rows = rows };
	char title[96], sub[320];
	size_t all;
	unsigned groups = 0;
	double h;
	int rc = plot_check_path(path);

	if (rc)
		return rc;
	p.n = pick_rows(r, rows, &all);
	if (!p.n)
		return -EDOM;
	for (size_t i = 0; i < p.n; i++)
		groups += !i || rows[i].group != rows[i - 1].group;
	snprintf(title, sizeof(title), "baretma report: %zu hosts, %u CPU groups, %u outliers",
		 r->nhosts, r->ngroups, r->outliers);
	snprintf(sub, sizeof(sub), "one point per host and figure; outliers (vermillion "
		 "diamonds) lie beyond k = %g x 1.4826 x MAD of the group's median%s", r->k,
		 all > p.n ? "; rows without an outlier left out past 160" : "");
	p.head = (struct plot_head){ title, sub, run, 0, { NULL } };
	p.top = plot_header_height(run) + 8;
	h = fmax(PLOT_H, p.top + 6 + groups * HEAD + p.n * ROW + BOTTOM + 8);
	return plot_render(path, PLOT_W + 100, h, draw, &p, &p.head, t);
}

#endif /* HAVE_CAIRO */
