/*
 * bench/output/plot_head.c - a picture's header (plot_int.h struct
 * plot_head): the title, the subtitle and the run that made it drawn at
 * the top, and the same words as text for the file, where cairo draws
 * every glyph as an outline (an SVG's <title> and <desc>, a PDF's Title and
 * Subject): a reader finds the command and the dry run's mark in the file
 * as on the picture, and a screen reader reads the SVG's title.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/output/plot_int.h"
#include "cpu/text.h"

#define MARK "DRY RUN"
#define MARK_PAD 5.0

static bool given(const char *s)
{
	return s && *s;
}

double plot_header_height(const struct plot_run *run)
{
	return PLOT_TOP + (run && given(run->dry_run) ? PLOT_LINE : 0) +
	       (run && given(run->command) ? PLOT_LINE : 0);
}

/* "DRY RUN" white on a dark box, then @why, on the baseline @y: a mark no
 * reader misses, in greys that no node's colour has. */
static void dry_mark(struct plot_ctx *c, const char *why, double y, double room)
{
	struct plot_font bf = PLOT_BOLD(PLOT_FONT_SMALL);
	const struct plot_font f = PLOT_TEXT(PLOT_FONT_SUB);
	double w = plot_text_width(c, MARK, &bf), x = PLOT_MARGIN + w + 2 * MARK_PAD + 8;
	char *t;

	cairo_set_source_rgb(c->cr, 0.2, 0.2, 0.2);
	cairo_rectangle(c->cr, PLOT_MARGIN, y - bf.size - 1, w + 2 * MARK_PAD, bf.size + 5);
	cairo_fill(c->cr);
	plot_trace_box(c, "dry-run", NULL, PLOT_MARGIN, y - bf.size - 1,
		       PLOT_MARGIN + w + 2 * MARK_PAD, y + 4);
	bf.r = bf.g = bf.b = 1;
	plot_text(c, MARK, PLOT_MARGIN + MARK_PAD, y, PLOT_LEFT, PLOT_BASELINE, &bf, NULL);
	if ((t = plot_text_fit(c, why, room - (x - PLOT_MARGIN), &f)))
		plot_text(c, t, x, y, PLOT_LEFT, PLOT_BASELINE, &f, NULL);
	free(t);
}

void plot_header(struct plot_ctx *c, const struct plot_head *h)
{
	const struct plot_font tf = PLOT_BOLD(PLOT_FONT_TITLE), sf = PLOT_TEXT(PLOT_FONT_SUB);
	const struct plot_run *run = h->run;
	double room = c->w - 2 * PLOT_MARGIN, y = 52;
	char *t = plot_text_fit(c, h->title ? h->title : "", room, &tf);
	char *s = plot_text_fit(c, h->subtitle ? h->subtitle : "", room, &sf);
	char *cmd = NULL;

	if (t)
		plot_text(c, t, PLOT_MARGIN, 30, PLOT_LEFT, PLOT_BASELINE, &tf, NULL);
	if (s)
		plot_text(c, s, PLOT_MARGIN, y, PLOT_LEFT, PLOT_BASELINE, &sf, NULL);
	free(t);
	free(s);
	if (run && given(run->dry_run))
		dry_mark(c, run->dry_run, y += PLOT_LINE, room);
	if (run && given(run->command) && !text_setf(&cmd, "command: %s", run->command)) {
		/* a command longer than the picture is cut, its start kept */
		if ((t = plot_text_fit(c, cmd, room, &sf)))
			plot_text(c, t, PLOT_MARGIN, y += PLOT_LINE, PLOT_LEFT, PLOT_BASELINE, &sf, NULL);
		free(t);
	}
	free(cmd);
}

/* The header's words, each after @sep: the subtitle, "command: ...", "DRY
 * RUN: ...", "panel: ..." (NULL: no memory). */
static char *head_lines(const struct plot_head *h, const char *sep)
{
	const struct plot_run *run = h->run;
	char *s = NULL;
	int rc = text_setf(&s, "%s", h->subtitle ? h->subtitle : "");

	if (!rc && run && given(run->command))
		rc = text_appendf(&s, sep, "command: %s", run->command);
	if (!rc && run && given(run->dry_run))
		rc = text_appendf(&s, sep, MARK ": %s", run->dry_run);
	for (unsigned i = 0; !rc && i < h->npanels && i < PLOT_PANELS_MAX; i++)
		if (given(h->panel[i]))
			rc = text_appendf(&s, sep, "panel: %s", h->panel[i]);
	if (rc) {
		free(s);
		return NULL;
	}
	return s;
}

/* @s as XML character data appended to *@out: &, < and > as entities, a
 * byte outside printable ASCII (and not a newline) as '?', as the picture
 * draws it.  0 or -ENOMEM. */
static int xml_append(char **out, const char *s)
{
	size_t n = strlen(*out), m = 0;
	char *p;

	for (const char *q = s; *q; q++)
		m += *q == '&' ? 5 : *q == '<' || *q == '>' ? 4 : 1;
	if (!(p = realloc(*out, n + m + 1)))
		return -ENOMEM;
	*out = p;
	for (p += n; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		const char *e = ch == '&' ? "&amp;" : ch == '<' ? "&lt;" : ch == '>' ? "&gt;" : NULL;

		if (e) {
			memcpy(p, e, strlen(e));
			p += strlen(e);
		} else {
			*p++ = ch == '\n' || (ch >= 0x20 && ch <= 0x7e) ? (char)ch : '?';
		}
	}
	*p = '\0';
	return 0;
}

char *plot_head_svg(const struct plot_head *h)
{
	char *lines = head_lines(h, "\n"), *out = strdup("\n<title>");
	int rc = lines && out ? 0 : -ENOMEM;

	if (!rc)
		rc = xml_append(&out, h->title ? h->title : "");
	if (!rc)
		rc = text_appendf(&out, NULL, "</title>\n<desc>");
	if (!rc)
		rc = xml_append(&out, lines);
	if (!rc)
		rc = text_appendf(&out, NULL, "</desc>");
	free(lines);
	if (rc) {
		free(out);
		return NULL;
	}
	return out;
}

char *plot_head_subject(const struct plot_head *h)
{
	char *s = head_lines(h, "; "), *p;

	for (p = s; p && *p; p++) /* cairo takes UTF-8: printable ASCII only */
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
			*p = '?';
	return s;
}
