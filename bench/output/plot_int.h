/*
 * bench/output/plot_int.h - what the drawing files (plot_bars.c,
 * plot_timeline.c, plot_pairs.c) share: the file and its surface
 * (plot_render), text, boxes, the header (title, subtitle, the run), the
 * legend, the axis.  Only
 * built with cairo (HAVE_CAIRO).  Units: the picture's (pixels of a PNG;
 * points of SVG and PDF, the same numbers), y downwards.
 */
#ifndef BARETMA_PLOT_INT_H
#define BARETMA_PLOT_INT_H

#include <cairo.h>

#include "bench/output/plot.h"

/* The sizes every picture uses: at least 1000 x 600, text in points. */
#define PLOT_W 1000.0
#define PLOT_H 600.0
#define PLOT_FONT_TITLE 17.0
#define PLOT_FONT_SUB 12.0
#define PLOT_FONT 12.0
#define PLOT_FONT_SMALL 10.5
#define PLOT_TOP 78.0        /* below the title and subtitle (plot_header_height) */
#define PLOT_LINE 20.0       /* each line of the run below them */
#define PLOT_MARGIN 16.0

struct plot_ctx {
	cairo_t *cr;
	double w, h;
	const struct plot_trace *trace;
};

typedef void (*plot_draw_fn)(struct plot_ctx *c, const void *data);

/* A picture's header: what plot_header draws at its top, and what an SVG
 * (<title>, <desc>) and a PDF (Title, Subject) carry as text; the panels'
 * headings too (NULL or "": none). */
struct plot_head {
	const char *title, *subtitle;
	const struct plot_run *run;
	unsigned npanels;
	const char *panel[PLOT_PANELS_MAX];
};

/*
 * plot_render - a @w x @h picture drawn by @draw(@data) into @path, in its
 * extension's format, atomically (plot.h), @head's text in the file where
 * the format has room for it.  Returns 0 or -errno.
 */
int plot_render(const char *path, double w, double h, plot_draw_fn draw, const void *data,
		const struct plot_head *head, const struct plot_trace *trace);

/* Text anchors: horizontal (left, centre, right of @x); vertical (@y the
 * baseline, or the middle of the capitals). */
enum plot_ha { PLOT_LEFT, PLOT_CENTRE, PLOT_RIGHT };
enum plot_va { PLOT_BASELINE, PLOT_MIDDLE };

struct plot_font {
	double size;
	bool bold;
	double r, g, b;
	bool halo;           /* a 3-unit outline of colour hr, hg, hb first */
	double hr, hg, hb;
};

#define PLOT_TEXT(sz) ((struct plot_font){ (sz), false, 0.15, 0.15, 0.15, false, 0, 0, 0 })
#define PLOT_BOLD(sz) ((struct plot_font){ (sz), true, 0.1, 0.1, 0.1, false, 0, 0, 0 })

/* plot_text - @s (bytes outside printable ASCII drawn as '?') at @x, @y;
 * its ink box into @ink (may be NULL), traced.  plot_text_width - its
 * advance. */
void plot_text(struct plot_ctx *c, const char *s, double x, double y, enum plot_ha ha,
	       enum plot_va va, const struct plot_font *f, struct plot_box *ink);
double plot_text_width(struct plot_ctx *c, const char *s, const struct plot_font *f);

/* plot_printable - @s (NULL: "") with every byte outside printable ASCII
 * as '?', in new memory (NULL: none): what is drawn, and what a file's
 * text says. */
char *plot_printable(const char *s);

/* plot_text_fit - @s shortened with "..." to at most @width (new memory in
 * *@out, freed by the caller; NULL on ENOMEM: draw nothing). */
char *plot_text_fit(struct plot_ctx *c, const char *s, double width, const struct plot_font *f);

/* plot_fill - the box filled with @st's colour (@alpha), traced as @what. */
void plot_fill(struct plot_ctx *c, const char *what, const struct plot_node_style *st,
	       double alpha, double x0, double y0, double x1, double y1);

/* plot_whisker - a vertical (or horizontal) error bar from @a to @b at @at,
 * caps @cap wide, in dark grey; traced as "whisker". */
void plot_whisker(struct plot_ctx *c, bool vertical, double at, double a, double b, double cap);

/* plot_header - the title (bold) and the subtitle, top left; under them,
 * from @head->run, the dry run's mark ("DRY RUN" in a dark box, then what
 * makes it one) and the command line ("command: baretma ..."), a line each.
 * plot_header_height - where the plot may start below them: PLOT_TOP, and
 * PLOT_LINE for each line of the run. */
void plot_header(struct plot_ctx *c, const struct plot_head *head);
double plot_header_height(const struct plot_run *run);

/* plot_head_svg - @head as an SVG's "<title>TITLE</title><desc>LINES</desc>"
 * (each line of the subtitle, "command: ...", "DRY RUN: ...", "panel: ...";
 * XML-escaped, bytes outside printable ASCII as '?'); plot_head_subject -
 * those lines joined by "; " (a PDF's Subject).  New memory; NULL: none. */
char *plot_head_svg(const struct plot_head *head);
char *plot_head_subject(const struct plot_head *head);

/* One legend row: a node's swatch and label (@indent: a level-2 child), or
 * with @node NULL a label of its own with a swatch @st (may be NULL: none). */
struct plot_legend_row {
	const char *label;
	const struct plot_node_style *st;
	double alpha;
	bool indent;
};

/* plot_legend_width - the width the rows need; plot_legend - draws them in
 * a box from (@x, @y), traced as "legend"; returns its height. */
double plot_legend_width(struct plot_ctx *c, const struct plot_legend_row *rows, size_t n);
double plot_legend(struct plot_ctx *c, const struct plot_legend_row *rows, size_t n, double x,
		   double y);

/* plot_legend_nodes - rows for @nodes (level-1 nodes in order, each
 * followed by its children among @nodes, indented) into @rows; returns
 * their number (at most @n + 1 headings).  @stacked: @nodes are stacked
 * bottom first (the order of the level-1 nodes, and of each one's children
 * on their parent's base): the rows the other way round, the top of the
 * stack first, each node followed by its children from the top, so that
 * the legend reads as the stack does. */
size_t plot_legend_nodes(const char *const *nodes, size_t n, struct plot_legend_row *rows,
			 bool stacked);

/* plot_grid - the percent axis of the plot box @b from 0 to @max percent:
 * grid lines and labels every @step percent, the axis title; @vertical:
 * percent upwards on the left, else rightwards along the bottom.
 * @alpha: its opacity (1: opaque; below 1: a grid over areas drawn
 * first, which show through it).  Each line is stroked with @alpha, and
 * the labels and title, in the margin on the white canvas, are drawn in
 * the colour @alpha gives there: the picture of the grid drawn into a
 * group painted with @alpha (the lines never cross one another; the 8-bit
 * rounding differs by at most 2/255 a channel), without
 * painting a group into the surface, which cairo 1.16's SVG surface leaks
 * (t/1011). */
void plot_grid(struct plot_ctx *c, const struct plot_box *b, double max, double step,
	       bool vertical, const char *title, double alpha);

/* plot_trace_box - tell the trace about a box drawn. */
void plot_trace_box(struct plot_ctx *c, const char *what, const char *node, double x0,
		    double y0, double x1, double y1);

#endif
