/*
 * bench/output/plot.c - the file and its cairo surface (SVG, PNG or PDF by
 * the extension), written atomically, and the drawing helpers the kinds of
 * picture share (bench/output/plot_int.h).  Without cairo the writers say
 * -ENOTSUP (plot.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/output/output.h"
#include "bench/output/plot.h"

#ifndef HAVE_CAIRO

bool plot_available(void)
{
	return false;
}

int plot_bars_write(const char *path, const struct plot_bars *p, const struct plot_trace *t)
{
	return -ENOTSUP;
}

int plot_timeline_write(const char *path, const struct plot_timeline *tl,
			const struct plot_trace *t)
{
	return -ENOTSUP;
}

int plot_pairs_write(const char *path, const struct plot_pairs *p, const struct plot_trace *t)
{
	return -ENOTSUP;
}

#else

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <fontconfig/fontconfig.h>

#include "bench/output/plot_int.h"

bool plot_available(void)
{
	return true;
}

/* ------------------------------------------------------------- the file */

struct sink {
	int fd;
	int err;          /* the first write's errno */
	const char *meta; /* an SVG's <title> and <desc>, written once after the
			   * <svg ...> tag cairo opens the document with; NULL:
			   * none, or written */
	unsigned seen;    /* how much of "<svg" the stream has shown */
};

static void sink_raw(struct sink *s, const unsigned char *data, size_t len)
{
	while (len && !s->err) {
		ssize_t n = write(s->fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			s->err = n < 0 ? errno : EIO;
		else {
			data += n;
			len -= (size_t)n;
		}
	}
}

/* Where in @data the "<svg ...>" tag ends (the offset past its '>'), or
 * @len + 1 when not in this piece of the stream: cairo writes the XML
 * declaration, then that tag, whose attribute values hold no '>'. */
static size_t svg_tag_end(struct sink *s, const unsigned char *data, size_t len)
{
	static const char tag[] = "<svg";

	for (size_t i = 0; i < len; i++) {
		if (s->seen < sizeof(tag) - 1)
			s->seen = data[i] == (unsigned char)tag[s->seen] ? s->seen + 1 : data[i] == '<';
		else if (data[i] == '>')
			return i + 1;
	}
	return len + 1;
}

static cairo_status_t sink_write(void *closure, const unsigned char *data, unsigned int len)
{
	struct sink *s = closure;
	size_t k = s->meta ? svg_tag_end(s, data, len) : (size_t)len + 1;

	if (k <= len) {
		sink_raw(s, data, k);
		sink_raw(s, (const unsigned char *)s->meta, strlen(s->meta));
		s->meta = NULL;
		data += k;
		len -= (unsigned)k;
	}
	sink_raw(s, data, len);
	return s->err ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

static int cairo_errno(cairo_status_t st, const struct sink *s)
{
	if (s->err)
		return -s->err;
	return st == CAIRO_STATUS_SUCCESS ? 0 : st == CAIRO_STATUS_NO_MEMORY ? -ENOMEM : -EIO;
}

static cairo_surface_t *surface_new(enum plot_format f, double w, double h, struct sink *s)
{
	cairo_surface_t *sf;

	switch (f) {
	case PLOT_SVG:
		sf = cairo_svg_surface_create_for_stream(sink_write, s, w, h);
		cairo_svg_surface_set_document_unit(sf, CAIRO_SVG_UNIT_PX);
		return sf;
	case PLOT_PDF:
		sf = cairo_pdf_surface_create_for_stream(sink_write, s, w, h);
		cairo_pdf_surface_set_metadata(sf, CAIRO_PDF_METADATA_CREATOR, "baretma");
		return sf;
	case PLOT_PNG:
		break;
	}
	return cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)ceil(w), (int)ceil(h));
}

/* The header's words in the document: a PDF's Title and Subject (an SVG's
 * go in through the sink, plot_head_svg).  0 or -ENOMEM. */
static int pdf_meta(cairo_surface_t *sf, const struct plot_head *head)
{
	char *title = plot_printable(head->title), *subject = plot_head_subject(head);
	int rc = title && subject ? 0 : -ENOMEM;

	if (!rc) {
		cairo_pdf_surface_set_metadata(sf, CAIRO_PDF_METADATA_TITLE, title);
		cairo_pdf_surface_set_metadata(sf, CAIRO_PDF_METADATA_SUBJECT, subject);
	}
	free(title);
	free(subject);
	return rc;
}

/* Draw into @fd: the surface, the picture, the end of the stream. */
static int draw_into(int fd, enum plot_format f, double w, double h, plot_draw_fn draw,
		     const void *data, const struct plot_head *head,
		     const struct plot_trace *trace)
{
	char *meta = f == PLOT_SVG ? plot_head_svg(head) : NULL;
	struct sink s = { fd, 0, meta, 0 };
	cairo_surface_t *sf;
	cairo_t *cr;
	cairo_status_t st;

	if (f == PLOT_SVG && !meta)
		return -ENOMEM;
	sf = surface_new(f, w, h, &s);
	if (f == PLOT_PDF && cairo_surface_status(sf) == CAIRO_STATUS_SUCCESS &&
	    pdf_meta(sf, head)) {
		cairo_surface_destroy(sf);
		return -ENOMEM;
	}
	cr = cairo_create(sf);
	st = cairo_status(cr);
	if (st == CAIRO_STATUS_SUCCESS) {
		struct plot_ctx c = { cr, w, h, trace };

		cairo_set_source_rgb(cr, 1, 1, 1);
		cairo_paint(cr);
		plot_trace_box(&c, "canvas", NULL, 0, 0, w, h);
		draw(&c, data);
		st = cairo_status(cr);
	}
	cairo_destroy(cr);
	if (st == CAIRO_STATUS_SUCCESS && f == PLOT_PNG)
		st = cairo_surface_write_to_png_stream(sf, sink_write, &s);
	cairo_surface_finish(sf); /* SVG and PDF: the rest of the document */
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(sf);
	cairo_surface_destroy(sf);
	free(meta);
	return cairo_errno(st, &s);
}

int plot_render(const char *path, double w, double h, plot_draw_fn draw, const void *data,
		const struct plot_head *head, const struct plot_trace *trace)
{
	struct output_file *of;
	enum plot_format f;
	const char *why;
	int rc = plot_check_path(path);

	if (rc || (rc = plot_format_of(path, &f)))
		return rc;
	/* the one writer of every file a command writes (output.h) */
	if ((rc = output_file_open_atomic(path, &of, &why)))
		return rc == -EINVAL ? -EEXIST : rc;
	rc = draw_into(output_file_fd(of), f, w, h, draw, data, head, trace);
	if (rc) {
		output_file_abort(of);
	} else {
		rc = output_file_commit(of, &why);
		rc = rc == -EINVAL ? -EEXIST : rc; /* swapped for a FIFO, a device */
	}
	/* cairo's font caches and fontconfig's configuration live as long as
	 * the process unless let go; a command draws one picture, so they are
	 * let go after each (every cairo object is destroyed by now): a leak
	 * checker (--enable-sanitizers) sees nothing left, and the next
	 * picture loads them again */
	cairo_debug_reset_static_data();
	FcFini();
	return rc;
}

/* ------------------------------------------------------------- drawing */

void plot_trace_box(struct plot_ctx *c, const char *what, const char *node, double x0,
		    double y0, double x1, double y1)
{
	struct plot_box b = { fmin(x0, x1), fmin(y0, y1), fmax(x0, x1), fmax(y0, y1) };

	if (c->trace && c->trace->box)
		c->trace->box(c->trace->arg, what, node, &b);
}

/* @s with every byte outside printable ASCII as '?': cairo's toy text takes
 * UTF-8 only, and a string from CPUID or a file is not ours to trust. */
char *plot_printable(const char *s)
{
	char *p = strdup(s ? s : "");

	for (char *q = p; q && *q; q++)
		if ((unsigned char)*q < 0x20 || (unsigned char)*q > 0x7e)
			*q = '?';
	return p;
}

static void font_set(struct plot_ctx *c, const struct plot_font *f)
{
	cairo_select_font_face(c->cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       f->bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(c->cr, f->size);
}

double plot_text_width(struct plot_ctx *c, const char *s, const struct plot_font *f)
{
	cairo_text_extents_t e;
	char *p = plot_printable(s);

	if (!p)
		return 0;
	font_set(c, f);
	cairo_text_extents(c->cr, p, &e);
	free(p);
	return e.x_advance;
}

void plot_text(struct plot_ctx *c, const char *s, double x, double y, enum plot_ha ha,
	       enum plot_va va, const struct plot_font *f, struct plot_box *ink)
{
	cairo_text_extents_t e;
	char *p = plot_printable(s);
	struct plot_box b;

	if (!p)
		return;
	font_set(c, f);
	cairo_text_extents(c->cr, p, &e);
	x -= ha == PLOT_LEFT ? 0 : ha == PLOT_CENTRE ? e.x_advance / 2 : e.x_advance;
	if (va == PLOT_MIDDLE)
		y += 0.36 * f->size; /* half the capitals' height, about 0.72 em */
	cairo_move_to(c->cr, x, y);
	if (f->halo) {
		cairo_text_path(c->cr, p);
		cairo_set_source_rgb(c->cr, f->hr, f->hg, f->hb);
		cairo_set_line_width(c->cr, 3);
		cairo_set_line_join(c->cr, CAIRO_LINE_JOIN_ROUND);
		cairo_stroke(c->cr);
		cairo_move_to(c->cr, x, y);
	}
	cairo_set_source_rgb(c->cr, f->r, f->g, f->b);
	cairo_show_text(c->cr, p);
	b = (struct plot_box){ x + e.x_bearing, y + e.y_bearing, x + e.x_bearing + e.width,
			       y + e.y_bearing + e.height };
	if (ink)
		*ink = b;
	if (c->trace && c->trace->text)
		c->trace->text(c->trace->arg, p, &b);
	free(p);
}

char *plot_text_fit(struct plot_ctx *c, const char *s, double width, const struct plot_font *f)
{
	size_t n = strlen(s);
	char *p = malloc(n + 4);

	if (!p)
		return NULL;
	strcpy(p, s);
	while (n && plot_text_width(c, p, f) > width)
		strcpy(p + --n, "...");
	return p;
}

void plot_fill(struct plot_ctx *c, const char *what, const struct plot_node_style *st,
	       double alpha, double x0, double y0, double x1, double y1)
{
	cairo_set_source_rgba(c->cr, st->r, st->g, st->b, alpha);
	cairo_rectangle(c->cr, fmin(x0, x1), fmin(y0, y1), fabs(x1 - x0), fabs(y1 - y0));
	cairo_fill(c->cr);
	plot_trace_box(c, what, st->node, x0, y0, x1, y1);
}

void plot_whisker(struct plot_ctx *c, bool vertical, double at, double a, double b, double cap)
{
	cairo_t *cr = c->cr;

	cairo_set_source_rgb(cr, 0.13, 0.13, 0.13);
	cairo_set_line_width(cr, 1.2);
	if (vertical) {
		cairo_move_to(cr, at, a);
		cairo_line_to(cr, at, b);
		cairo_move_to(cr, at - cap / 2, a);
		cairo_line_to(cr, at + cap / 2, a);
		cairo_move_to(cr, at - cap / 2, b);
		cairo_line_to(cr, at + cap / 2, b);
		plot_trace_box(c, "whisker", NULL, at - cap / 2, a, at + cap / 2, b);
	} else {
		cairo_move_to(cr, a, at);
		cairo_line_to(cr, b, at);
		cairo_move_to(cr, a, at - cap / 2);
		cairo_line_to(cr, a, at + cap / 2);
		cairo_move_to(cr, b, at - cap / 2);
		cairo_line_to(cr, b, at + cap / 2);
		plot_trace_box(c, "whisker", NULL, a, at - cap / 2, b, at + cap / 2);
	}
	cairo_stroke(cr);
}

/* ------------------------------------------------------------- legends */

#define SWATCH 13.0
#define ROW 19.0
#define PAD 9.0
#define INDENT 16.0

static const char *row_label(const struct plot_legend_row *r)
{
	return r->label ? r->label : "?";
}

double plot_legend_width(struct plot_ctx *c, const struct plot_legend_row *rows, size_t n)
{
	const struct plot_font f = PLOT_TEXT(PLOT_FONT);
	double w = 0;

	for (size_t i = 0; i < n; i++)
		w = fmax(w, (rows[i].indent ? INDENT : 0) + (rows[i].st ? SWATCH + 6 : 0) +
			    plot_text_width(c, row_label(&rows[i]), &f));
	return w + 2 * PAD;
}

double plot_legend(struct plot_ctx *c, const struct plot_legend_row *rows, size_t n, double x,
		   double y)
{
	const struct plot_font f = PLOT_TEXT(PLOT_FONT);
	double w = plot_legend_width(c, rows, n), h = n * ROW + 2 * PAD - (ROW - SWATCH);

	cairo_set_source_rgb(c->cr, 0.6, 0.6, 0.6);
	cairo_set_line_width(c->cr, 0.8);
	cairo_rectangle(c->cr, x + 0.5, y + 0.5, w - 1, h - 1);
	cairo_stroke(c->cr);
	plot_trace_box(c, "legend", NULL, x, y, x + w, y + h);
	for (size_t i = 0; i < n; i++) {
		double rx = x + PAD + (rows[i].indent ? INDENT : 0), ry = y + PAD + i * ROW;

		if (rows[i].st) {
			plot_fill(c, "swatch", rows[i].st, rows[i].alpha, rx, ry, rx + SWATCH,
				  ry + SWATCH);
			rx += SWATCH + 6;
		}
		plot_text(c, row_label(&rows[i]), rx, ry + SWATCH / 2, PLOT_LEFT, PLOT_MIDDLE, &f,
			  NULL);
	}
	return h;
}

/* The node at @i of @n, read bottom up when @stacked (top of the stack first). */
static const char *nth(const char *const *nodes, size_t n, size_t i, bool stacked)
{
	return nodes[stacked ? n - 1 - i : i];
}

size_t plot_legend_nodes(const char *const *nodes, size_t n, struct plot_legend_row *rows,
			 bool stacked)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		const struct plot_node_style *st = plot_node_style(nth(nodes, n, i, stacked));

		if (st->parent)
			continue; /* under its parent, below */
		rows[k++] = (struct plot_legend_row){ st->label ? st->label : nth(nodes, n, i, stacked),
						      st, 1, false };
		for (size_t j = 0; j < n; j++) {
			const struct plot_node_style *ch = plot_node_style(nth(nodes, n, j, stacked));

			if (ch->parent && st->node && !strcmp(ch->parent, st->node))
				rows[k++] = (struct plot_legend_row){ ch->label, ch, 1, true };
		}
	}
	/* children whose parent is not among @nodes: at the end, as they are */
	for (size_t j = 0; j < n; j++) {
		const struct plot_node_style *ch = plot_node_style(nth(nodes, n, j, stacked));
		bool found = false;

		for (size_t i = 0; ch->parent && i < n; i++)
			found |= !strcmp(nodes[i], ch->parent);
		if (ch->parent && !found)
			rows[k++] = (struct plot_legend_row){ ch->label, ch, 1, false };
	}
	return k;
}

/* ---------------------------------------------------------------- axes */

/* Grey @g at opacity @alpha over white: the grey that gives there. */
static double over_white(double g, double alpha)
{
	return 1 - alpha * (1 - g);
}

void plot_grid(struct plot_ctx *c, const struct plot_box *b, double max, double step,
	       bool vertical, const char *title, double alpha)
{
	struct plot_font f = PLOT_TEXT(PLOT_FONT);
	cairo_t *cr = c->cr;
	char lab[32];

	f.r = over_white(f.r, alpha);
	f.g = over_white(f.g, alpha);
	f.b = over_white(f.b, alpha);
	cairo_set_line_width(cr, 1);
	for (double v = 0; v <= max + 1e-9; v += step) {
		double p = vertical ? b->y1 - (b->y1 - b->y0) * v / max
				    : b->x0 + (b->x1 - b->x0) * v / max;
		double g = v ? 0.88 : 0.3;

		cairo_set_source_rgba(cr, g, g, g, alpha);
		if (vertical) {
			cairo_move_to(cr, b->x0 - 4, round(p) + 0.5);
			cairo_line_to(cr, b->x1, round(p) + 0.5);
		} else {
			cairo_move_to(cr, round(p) + 0.5, b->y0);
			cairo_line_to(cr, round(p) + 0.5, b->y1 + 4);
		}
		cairo_stroke(cr);
		snprintf(lab, sizeof(lab), "%g%%", v);
		if (vertical)
			plot_text(c, lab, b->x0 - 8, p, PLOT_RIGHT, PLOT_MIDDLE, &f, NULL);
		else
			plot_text(c, lab, p, b->y1 + 20, PLOT_CENTRE, PLOT_BASELINE, &f, NULL);
	}
	if (!vertical) {
		plot_text(c, title, (b->x0 + b->x1) / 2, b->y1 + 42, PLOT_CENTRE, PLOT_BASELINE,
			  &f, NULL);
		return;
	}
	cairo_save(cr);
	cairo_translate(cr, PLOT_MARGIN + 8, (b->y0 + b->y1) / 2);
	cairo_rotate(cr, -M_PI / 2);
	/* drawn rotated: traced by hand, the box the rotation gives */
	{
		double w = plot_text_width(c, title, &f);
		const struct plot_trace *t = c->trace;

		c->trace = NULL;
		plot_text(c, title, 0, 0, PLOT_CENTRE, PLOT_MIDDLE, &f, NULL);
		c->trace = t;
		if (t && t->text)
			t->text(t->arg, title, &(struct plot_box){
				PLOT_MARGIN + 8 - 0.36 * f.size - 0.3 * f.size,
				(b->y0 + b->y1) / 2 - w / 2,
				PLOT_MARGIN + 8 + 0.36 * f.size, (b->y0 + b->y1) / 2 + w / 2 });
	}
	cairo_restore(cr);
}

#endif /* HAVE_CAIRO */
