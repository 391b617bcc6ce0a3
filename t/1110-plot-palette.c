/*
 * t/1110-plot-palette.c - the pictures' colours are readable by
 * colour-blind readers (issue 29: "a palette readable by colour-blind
 * readers (no red beside green)"), checked against values from outside the
 * code:
 *   - each level-1 node's colour is one of the eight of Okabe and Ito,
 *     "Color Universal Design (CUD): how to make figures and presentations
 *     that are friendly to colorblind people" (2008,
 *     https://jfly.uni-koeln.de/color/), the sRGB triples as the paper
 *     gives them; each level-2 child its parent's mixed with white (half)
 *     or black (40 %, or 20 % for a third child), as doc/plots.md says;
 *   - no red beside green: no two level-1 nodes next to each other in the
 *     stack (bottom first, the recipes' order: retiring, bad speculation,
 *     frontend bound, backend bound, AMD's smt_contention) are one red
 *     (hue within 30 degrees of 0) and one green (hue 75-170 degrees);
 *   - next to each other in a stack (level 1, and the level-2 bar's
 *     children in their order), two colours stay at least 30 apart in CIE
 *     L*a*b* (CIE76 Delta E) as a protanope, a deuteranope and a tritanope
 *     see them: Machado, Oliveira and Fernandes, "A Physiologically-based
 *     Model for Simulation of Color Vision Deficiency", IEEE TVCG 15(6),
 *     2009, the matrices of severity 1.0 on linear RGB; sRGB and CIELAB
 *     (D65) by IEC 61966-2-1 and CIE 15.
 * The colours before (green, red, purple, orange) failed each of these.
 * Runs with or without cairo (the table needs none).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/output/plot.h"
#include "t/tap.h"

/* Okabe and Ito (2008), their eight colours, 0-255 each. */
static const struct { const char *name; int r, g, b; } cud[] = {
	{ "black", 0, 0, 0 },          { "orange", 230, 159, 0 },
	{ "sky blue", 86, 180, 233 },  { "bluish green", 0, 158, 115 },
	{ "yellow", 240, 228, 66 },    { "blue", 0, 114, 178 },
	{ "vermillion", 213, 94, 0 },  { "reddish purple", 204, 121, 167 },
};

static const char *const stack1[] = { "tma_retiring", "tma_bad_speculation",
	"tma_frontend_bound", "tma_backend_bound", "smt_contention" };
static const char *const stack2[] = { "tma_heavy_operations", "tma_light_operations",
	"tma_branch_mispredicts", "tma_machine_clears", "tma_fetch_latency",
	"tma_fetch_bandwidth", "tma_memory_bound", "tma_core_bound" };

static int byte(double v)
{
	return (int)lround(v * 255);
}

/* The CUD colour @st is (exactly, in 8 bits), or -1. */
static int cud_of(const struct plot_node_style *st)
{
	for (size_t i = 0; i < sizeof(cud) / sizeof(cud[0]); i++)
		if (byte(st->r) == cud[i].r && byte(st->g) == cud[i].g && byte(st->b) == cud[i].b)
			return (int)i;
	return -1;
}

/* @c (0-255) mixed with white (@w) or black by @f: within 1 of @st a channel. */
static bool mixed(const struct plot_node_style *st, const int *c, bool w, double f)
{
	double v[3] = { byte(st->r), byte(st->g), byte(st->b) };

	for (int k = 0; k < 3; k++) {
		double want = w ? c[k] + f * (255 - c[k]) : c[k] * (1 - f);

		if (fabs(v[k] - want) > 1)
			return false;
	}
	return true;
}

static void level1_is_cud(void)
{
	for (size_t i = 0; i < sizeof(stack1) / sizeof(stack1[0]); i++) {
		const struct plot_node_style *st = plot_node_style(stack1[i]);
		int k = cud_of(st);

		ok(k >= 0, "%s is one of Okabe and Ito's colours (%s; #%02X%02X%02X)", stack1[i],
		   k >= 0 ? cud[k].name : "none", byte(st->r), byte(st->g), byte(st->b));
	}
}

static void children_are_tints(void)
{
	size_t n;
	const struct plot_node_style *t = plot_node_styles(&n);

	for (size_t i = 0; i < n; i++) {
		const struct plot_node_style *par;
		int k, c[3];

		if (!t[i].parent)
			continue;
		par = plot_node_style(t[i].parent);
		k = cud_of(par);
		if (k < 0) {
			ok(0, "%s: its parent %s is not a CUD colour", t[i].node, t[i].parent);
			continue;
		}
		c[0] = cud[k].r, c[1] = cud[k].g, c[2] = cud[k].b;
		ok(mixed(&t[i], c, true, 0.5) || mixed(&t[i], c, false, 0.4) ||
		   mixed(&t[i], c, false, 0.2),
		   "%s (#%02X%02X%02X) is %s (%s) with half white, 40%% or 20%% black", t[i].node,
		   byte(t[i].r), byte(t[i].g), byte(t[i].b), t[i].parent, cud[k].name);
	}
}

/* Hue in degrees and saturation (HSV) of @st. */
static void hue(const struct plot_node_style *st, double *h, double *s)
{
	double mx = fmax(st->r, fmax(st->g, st->b)), mn = fmin(st->r, fmin(st->g, st->b));
	double d = mx - mn;

	*s = mx > 0 ? d / mx : 0;
	if (d == 0)
		*h = 0;
	else if (mx == st->r)
		*h = fmod(60 * (st->g - st->b) / d + 360, 360);
	else if (mx == st->g)
		*h = 60 * (st->b - st->r) / d + 120;
	else
		*h = 60 * (st->r - st->g) / d + 240;
}

static bool is_red(const struct plot_node_style *st)
{
	double h, s;

	hue(st, &h, &s);
	return s > 0.4 && (h <= 30 || h >= 330);
}

static bool is_green(const struct plot_node_style *st)
{
	double h, s;

	hue(st, &h, &s);
	return s > 0.4 && h >= 75 && h <= 170;
}

static void no_red_beside_green(void)
{
	for (size_t i = 0; i + 1 < sizeof(stack1) / sizeof(stack1[0]); i++) {
		const struct plot_node_style *a = plot_node_style(stack1[i]),
					     *b = plot_node_style(stack1[i + 1]);

		ok(!((is_red(a) && is_green(b)) || (is_green(a) && is_red(b))),
		   "no red beside green in the stack: %s and %s", stack1[i], stack1[i + 1]);
	}
}

/* ------------------------------------------ colour vision deficiency */

static const double machado[3][3][3] = {
	{ { 0.152286, 1.052583, -0.204868 }, { 0.114503, 0.786281, 0.099216 },
	  { -0.003882, -0.048116, 1.051998 } }, /* protanopia */
	{ { 0.367322, 0.860646, -0.227968 }, { 0.280085, 0.672501, 0.047413 },
	  { -0.011820, 0.042940, 0.968881 } },  /* deuteranopia */
	{ { 1.255528, -0.076749, -0.178779 }, { -0.078411, 0.930809, 0.147602 },
	  { 0.004733, 0.691367, 0.303900 } },   /* tritanopia */
};
static const char *const cvd_name[] = { "protanope", "deuteranope", "tritanope" };

static double linear(int c)
{
	double v = c / 255.0;

	return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

static double lab_f(double t)
{
	return t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116;
}

/* @st as reader @k (0-2; -1: normal vision) sees it, in CIE L*a*b*. */
static void seen(const struct plot_node_style *st, int k, double *lab)
{
	double c[3] = { linear(byte(st->r)), linear(byte(st->g)), linear(byte(st->b)) }, s[3];
	double x, y, z;

	for (int i = 0; i < 3; i++) {
		s[i] = k < 0 ? c[i] : machado[k][i][0] * c[0] + machado[k][i][1] * c[1] +
					      machado[k][i][2] * c[2];
		s[i] = fmin(1, fmax(0, s[i]));
	}
	/* IEC 61966-2-1: linear sRGB to XYZ (D65) */
	x = 0.4124 * s[0] + 0.3576 * s[1] + 0.1805 * s[2];
	y = 0.2126 * s[0] + 0.7152 * s[1] + 0.0722 * s[2];
	z = 0.0193 * s[0] + 0.1192 * s[1] + 0.9505 * s[2];
	x = lab_f(x / 0.95047), y = lab_f(y), z = lab_f(z / 1.08883);
	lab[0] = 116 * y - 16, lab[1] = 500 * (x - y), lab[2] = 200 * (y - z);
}

static double delta_e(const char *a, const char *b, int k)
{
	double p[3], q[3];

	seen(plot_node_style(a), k, p);
	seen(plot_node_style(b), k, q);
	return sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) +
		    (p[2] - q[2]) * (p[2] - q[2]));
}

static void neighbours_apart(const char *const *stack, size_t n, const char *what)
{
	for (int k = 0; k < 3; k++) {
		double worst = INFINITY;
		size_t at = 0;

		for (size_t i = 0; i + 1 < n; i++) {
			double d = delta_e(stack[i], stack[i + 1], k);

			if (d < worst)
				worst = d, at = i;
		}
		ok(worst >= 30, "%s: neighbours at least 30 apart to a %s (least %.1f: %s, %s)",
		   what, cvd_name[k], worst, stack[at], stack[at + 1]);
	}
}

int main(void)
{
	/* the simulation itself, against hand-worked values: pure sRGB red
	 * seen by a deuteranope is Machado's first column on (1, 0, 0) */
	{
		struct plot_node_style red = { NULL, NULL, NULL, 1, 0, 0 };
		double lab[3];

		seen(&red, -1, lab);
		ok(fabs(lab[0] - 53.24) < 0.05 && fabs(lab[1] - 80.09) < 0.1 &&
		   fabs(lab[2] - 67.20) < 0.1, "sRGB red is L*a*b* 53.24, 80.09, 67.20 (%.2f %.2f %.2f)",
		   lab[0], lab[1], lab[2]);
	}
	level1_is_cud();
	children_are_tints();
	no_red_beside_green();
	neighbours_apart(stack1, sizeof(stack1) / sizeof(stack1[0]), "level 1");
	neighbours_apart(stack2, sizeof(stack2) / sizeof(stack2[0]), "level 2");
	return done_testing();
}
