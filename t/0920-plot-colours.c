/*
 * t/0920-plot-colours.c - one colour per Top-down node, the same in every
 * picture (bench/output/plot.h, plot_node_style): the table the code has
 * is the one doc/plots.md gives users (colour, legend, parent, row by
 * row, and no row more or less), and it keeps the doc's promise in words:
 * each level-2 child a shade of its parent (its hue within 20 degrees, a
 * lightness of its own), no two nodes alike.  Which colours they are, and
 * that colour-blind readers tell them apart, is t/1110's (Okabe and Ito's
 * palette).  Runs with or without cairo (the table needs none).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/output/plot.h"
#include "t/tap.h"

/* A test's name, used at once (no allocation to leak). */
static __attribute__((format(printf, 1, 2))) const char *nm(const char *fmt, ...)
{
	static char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return buf;
}

/* HSL of an RGB colour (0..1): hue in degrees, lightness 0..1. */
static void hsl(const struct plot_node_style *s, double *h, double *l)
{
	double mx = fmax(s->r, fmax(s->g, s->b)), mn = fmin(s->r, fmin(s->g, s->b)), d = mx - mn;

	*l = (mx + mn) / 2;
	if (d == 0)
		*h = 0;
	else if (mx == s->r)
		*h = fmod(60 * (s->g - s->b) / d + 360, 360);
	else if (mx == s->g)
		*h = 60 * (s->b - s->r) / d + 120;
	else
		*h = 60 * (s->r - s->g) / d + 240;
}

static double hue_gap(double a, double b)
{
	double d = fabs(a - b);

	return d > 180 ? 360 - d : d;
}

/* One row of doc/plots.md's table: | `node` | label | #RRGGBB | `parent` or - | */
static int doc_row(const char *line, char *node, char *label, unsigned *rgb, char *parent)
{
	return sscanf(line, "| `%63[^`]` | %63[^|]| #%6x | %63[^|]|", node, label, rgb, parent) == 4;
}

static void trim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '`'))
		s[--n] = '\0';
	if (s[0] == '`')
		memmove(s, s + 1, n);
}

static void doc_matches_code(void)
{
	char *path = t_strf("%s/doc/plots.md", BARETMA_SRCDIR), line[512];
	FILE *f = fopen(path, "r");
	size_t n, rows = 0;
	const struct plot_node_style *t = plot_node_styles(&n);

	ok(f != NULL, "doc/plots.md can be read");
	while (f && fgets(line, sizeof(line), f)) {
		char node[64], label[64], parent[64];
		unsigned rgb;
		const struct plot_node_style *s;

		if (!doc_row(line, node, label, &rgb, parent))
			continue;
		trim(label);
		trim(parent);
		rows++;
		s = plot_node_style(node);
		check_str(s->node, node, nm("%s: in the code's table", node));
		check_str(s->label ? s->label : "", label, nm("%s: legend '%s'", node, label));
		check_u64((unsigned)lround(s->r * 255) << 16 | (unsigned)lround(s->g * 255) << 8 |
			  (unsigned)lround(s->b * 255), ==, rgb, nm("%s: colour #%06X", node, rgb));
		check_str(s->parent ? s->parent : "-", parent, nm("%s: parent %s", node, parent));
	}
	if (f)
		fclose(f);
	check_u64(rows, ==, n, "the doc has a row for each node of the code's table, no more");
	free(path);
	(void)t;
}

static void hues(void)
{
	size_t n;
	const struct plot_node_style *t = plot_node_styles(&n);

	for (size_t i = 0; i < n; i++) {
		double h, l, ph, pl;

		if (!t[i].parent)
			continue;
		hsl(&t[i], &h, &l);
		hsl(plot_node_style(t[i].parent), &ph, &pl);
		ok(hue_gap(h, ph) <= 20 && fabs(l - pl) >= 0.08,
		   "%s is a shade of %s (hue %.0f vs %.0f, lightness %.2f vs %.2f)", t[i].node,
		   t[i].parent, h, ph, l, pl);
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			double d = fabs(t[i].r - t[j].r) + fabs(t[i].g - t[j].g) + fabs(t[i].b - t[j].b);

			if (d < 0.15)
				ok(0, "%s and %s are too alike (%.2f)", t[i].node, t[j].node, d);
		}
	ok(1, "no two nodes alike (each pair apart by 0.15 in R+G+B at least)");
	check_str(plot_node_style("tma_no_such_node")->node ? "named" : "unnamed", "unnamed",
		  "a node outside the table has a style of its own, no name");
}

int main(void)
{
	doc_matches_code();
	hues();
	return done_testing();
}
