/*
 * t/0921-plot-draw.c - what the pictures draw (bench/output/plot.h), from
 * their trace (every text with its ink box, every part's box), against
 * hand-picked data: a segment's height is its share of the axis (a share
 * of 0.40 is 40 % of the plot's height, worked from the data, not read
 * back from the drawing code), a level-2 child stands on its parent's
 * base, the whiskers are +/- the bound at each inner edge; every label is
 * drawn (the nodes' legends, the kernels, the axis), inside the canvas
 * (nothing clipped), no two texts overlap (readable), and the legend
 * covers no bar; the picture is at least 1000 x 600.  The format by
 * extension, the series' checks, and that a written picture leaves no
 * temporary file.  With T_PLOT_KEEP=DIR the PNGs are kept there (the
 * samples of doc/plots.md).  Skipped when built without cairo.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/output/plot.h"
#include "t/tap.h"

struct item {
	char what[32], node[64], *text;
	struct plot_box b;
};

struct trace {
	size_t n;
	struct item it[4096];
};

static struct trace tr;

static void on_text(void *arg, const char *text, const struct plot_box *ink)
{
	struct trace *t = arg;

	if (t->n < sizeof(t->it) / sizeof(t->it[0])) {
		struct item *i = &t->it[t->n++];

		snprintf(i->what, sizeof(i->what), "text");
		i->node[0] = '\0';
		i->text = strdup(text);
		i->b = *ink;
	}
}

static void on_box(void *arg, const char *what, const char *node, const struct plot_box *b)
{
	struct trace *t = arg;

	if (t->n < sizeof(t->it) / sizeof(t->it[0])) {
		struct item *i = &t->it[t->n++];

		snprintf(i->what, sizeof(i->what), "%s", what);
		snprintf(i->node, sizeof(i->node), "%s", node ? node : "");
		i->text = NULL;
		i->b = *b;
	}
}

static const struct plot_trace hook = { on_text, on_box, &tr };

static void trace_reset(void)
{
	for (size_t i = 0; i < tr.n; i++)
		free(tr.it[i].text);
	tr.n = 0;
}

/* The @k-th box traced as @what (and @node, when not NULL), or NULL. */
static const struct plot_box *box(const char *what, const char *node, int k)
{
	for (size_t i = 0; i < tr.n; i++)
		if (!strcmp(tr.it[i].what, what) && (!node || !strcmp(tr.it[i].node, node)) && !k--)
			return &tr.it[i].b;
	return NULL;
}

static int count(const char *what)
{
	int n = 0;

	for (size_t i = 0; i < tr.n; i++)
		n += !strcmp(tr.it[i].what, what);
	return n;
}

static bool has_text(const char *s)
{
	for (size_t i = 0; i < tr.n; i++)
		if (tr.it[i].text && !strcmp(tr.it[i].text, s))
			return true;
	return false;
}

static bool overlap(const struct plot_box *a, const struct plot_box *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

/* Every text inside the canvas, no two overlapping, the legend over no
 * box of @what (bars, the plot area). */
static void readable(const char *pic, const char *const *clear_of)
{
	const struct plot_box *c = box("canvas", NULL, 0), *lg = box("legend", NULL, 0);
	int outside = 0, crossed = 0, covered = 0;

	ok(c && c->x1 >= 1000 && c->y1 >= 600, "%s: at least 1000 x 600 (%.0f x %.0f)", pic,
	   c ? c->x1 : 0, c ? c->y1 : 0);
	for (size_t i = 0; c && i < tr.n; i++) {
		const struct plot_box *b = &tr.it[i].b;

		if (!tr.it[i].text)
			continue;
		if (b->x0 < c->x0 || b->y0 < c->y0 || b->x1 > c->x1 || b->y1 > c->y1) {
			outside++;
			printf("#   clipped: '%s'\n", tr.it[i].text);
		}
		for (size_t j = i + 1; j < tr.n; j++)
			if (tr.it[j].text && overlap(b, &tr.it[j].b)) {
				crossed++;
				printf("#   '%s' over '%s'\n", tr.it[i].text, tr.it[j].text);
			}
	}
	ok(!outside, "%s: every text inside the canvas", pic);
	ok(!crossed, "%s: no two texts overlap", pic);
	for (size_t i = 0; lg && i < tr.n; i++)
		for (const char *const *w = clear_of; *w; w++)
			if (!strcmp(tr.it[i].what, *w) && overlap(lg, &tr.it[i].b))
				covered++;
	ok(lg && !covered, "%s: a legend, over no bar and outside the plot", pic);
}

/* The temporary directory holds exactly @name (no temporary file left). */
static void only_file(const char *dir, const char *name)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0, found = 0;

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			n++;
			found |= !strcmp(e->d_name, name);
		}
	if (d)
		closedir(d);
	ok(n == 1 && found, "%s written, nothing else left beside it (%d entries)", name, n);
}

static char *tmpdir;

/* @draw into DIR/@name (cleared first) and, with T_PLOT_KEEP, a PNG there. */
static int write_pic(const char *name, int (*draw)(const char *, const void *), const void *arg)
{
	char *p = t_strf("%s/%s", tmpdir, name), *keep = getenv("T_PLOT_KEEP");
	int rc;

	if (keep) {
		char *k = t_strf("%s/%.*s.png", keep, (int)(strrchr(name, '.') - name), name);

		draw(k, arg);
		free(k);
	}
	trace_reset();
	rc = draw(p, arg);
	only_file(tmpdir, name);
	unlink(p);
	free(p);
	return rc;
}

/* ------------------------------------------------------------ the bars */

static const char *const children[] = { "tma_heavy_operations", "tma_light_operations",
	"tma_branch_mispredicts", "tma_machine_clears", "tma_fetch_latency",
	"tma_fetch_bandwidth", "tma_memory_bound", "tma_core_bound" };
static const char *const parents[] = { "tma_retiring", "tma_bad_speculation",
	"tma_frontend_bound", "tma_backend_bound" };

static struct plot_bar bar(const char *label, const double *v1, const double *v2, double bound)
{
	struct plot_bar b = { .label = label, .n1 = 4, .n2 = 8, .bound = bound };

	for (unsigned i = 0; i < 4; i++)
		b.l1[i] = (struct plot_value){ parents[i], v1[i] };
	for (unsigned i = 0; i < 8; i++)
		b.l2[i] = (struct plot_value){ children[i], v2[i] };
	return b;
}

static int draw_bars(const char *path, const void *arg)
{
	return plot_bars_write(path, arg, &hook);
}

static void bars(void)
{
	/* level 1 40/10/20/30; level 2 heavy 10 light 30, mispredicts 6 clears 4,
	 * latency 12 bandwidth 8, memory 18 core 12 */
	static const double a1[] = { .40, .10, .20, .30 },
		a2[] = { .10, .30, .06, .04, .12, .08, .18, .12 },
		b1[] = { .25, .25, .25, .25 }, b2[] = { .05, .20, .20, .05, .05, .20, .20, .05 };
	struct plot_bar bs[3] = { bar("kernel-a", a1, a2, 0.01), bar("kernel-b", b1, b2, 0),
				  { .label = "kernel-c", .missing = "no valid repetition" } };
	struct plot_bars p = { "Top-down level 2: a test", "hand-picked shares", 2, 3, bs };
	static const char *const clear[] = { "bar", "plot", NULL };
	const struct plot_box *pl, *seg;
	double h;

	check_int(write_pic("bars.svg", draw_bars, &p), ==, 0, "bars: written");
	readable("bars", clear);
	for (unsigned i = 0; i < 4; i++)
		ok(has_text(plot_node_style(parents[i])->label), "bars: legend '%s'",
		   plot_node_style(parents[i])->label);
	for (unsigned i = 0; i < 8; i++)
		ok(has_text(plot_node_style(children[i])->label), "bars: legend '%s'",
		   plot_node_style(children[i])->label);
	ok(has_text("kernel-a") && has_text("kernel-b") && has_text("kernel-c") &&
	   has_text("n/a"), "bars: the kernels' labels, n/a for the one without numbers");
	ok(has_text("0%") && has_text("50%") && has_text("100%") && has_text("percent of slots"),
	   "bars: the axis in percent of slots");
	ok(has_text("Top-down level 2: a test") && has_text("40.0") && has_text("18.0"),
	   "bars: the title, the shares written in their segments");
	pl = box("plot", NULL, 0);
	h = pl ? pl->y1 - pl->y0 : NAN;
	seg = box("segment", "tma_retiring", 0);
	ok(seg && fabs((seg->y1 - seg->y0) / h - 0.40) < 1e-9 && fabs(seg->y1 - pl->y1) < 1e-9,
	   "bars: retiring 0.40 is 40 %% of the axis, from its foot");
	seg = box("segment", "tma_backend_bound", 0);
	ok(seg && fabs((seg->y1 - seg->y0) / h - 0.30) < 1e-9 && fabs(seg->y0 - pl->y0) < 1e-9,
	   "bars: backend 0.30 on top, up to 100 %%");
	seg = box("segment", "tma_memory_bound", 0);
	ok(seg && fabs((seg->y1 - seg->y0) / h - 0.18) < 1e-9 &&
	   fabs((pl->y1 - seg->y1) / h - 0.70) < 1e-9,
	   "bars: memory bound 0.18 stands on backend's base (0.40 + 0.10 + 0.20)");
	seg = box("segment", "tma_heavy_operations", 0);
	ok(seg && fabs(seg->y1 - pl->y1) < 1e-9 && seg->x0 >= box("segment", "tma_retiring", 0)->x1,
	   "bars: heavy operations from the foot, right of its parent");
	seg = box("segment", "tma_retiring", 1);
	ok(seg && fabs((seg->y1 - seg->y0) / h - 0.25) < 1e-9, "bars: kernel-b's retiring 0.25");
	/* kernel-a: 3 inner level-1 edges, 7 inner level-2 edges (backend's
	 * core bound ends at 100 %); kernel-b: bound 0, none */
	check_int(count("whisker"), ==, 10, "bars: whiskers at the 10 inner edges of kernel-a");
	seg = box("whisker", NULL, 0);
	ok(seg && fabs((seg->y1 - seg->y0) / h - 0.02) < 1e-9, "bars: a whisker is +/- 0.01");
	trace_reset();
}

/* Twenty kernels with long names: the picture widens, nothing overlaps. */
static void many_bars(void)
{
	static const double a1[] = { .40, .10, .20, .30 },
		a2[] = { .10, .30, .06, .04, .12, .08, .18, .12 };
	struct plot_bar bs[20];
	char names[20][40];
	struct plot_bars p = { "many", "", 2, 20, bs };
	static const char *const clear[] = { "bar", "plot", NULL };

	for (int i = 0; i < 20; i++) {
		snprintf(names[i], sizeof(names[i]), "a-rather-long-kernel-%02d", i);
		bs[i] = bar(names[i], a1, a2, 0.005);
	}
	check_int(write_pic("many.png", draw_bars, &p), ==, 0, "many bars: written");
	readable("many bars", clear);
	ok(box("canvas", NULL, 0)->x1 > 1000, "many bars: wider than 1000 to fit the labels");
	trace_reset();
}

/* ------------------------------------------------------------ timeline */

static int draw_timeline(const char *path, const void *arg)
{
	return plot_timeline_write(path, arg, &hook);
}

static void timeline(void)
{
	static struct plot_timeline tl;
	struct plot_series *s = &tl.panel[0];
	static const char *const clear[] = { "plot", NULL };
	double v[4];

	check_int(plot_series_init(s, 4, parents), ==, 0, "series: 4 nodes");
	tl.npanels = 1;
	tl.title = "Top-down level 1 over time: a synthetic series";
	tl.subtitle = "intervals of 100 ms; a phase change at 2 s";
	for (int i = 1; i <= 50; i++) {
		double t = i * 0.1, x = t <= 2 ? 0.15 : 0.02, w = 0.06 * sin(3 * t);

		v[0] = 0.40 - x + w, v[1] = 0.04 + x, v[2] = 0.22 - w / 2, v[3] = 0.34 - w / 2;
		if (plot_series_add(s, t, v))
			break;
	}
	check_u64(s->n, ==, 50, "series: 50 intervals added");
	check_int(plot_series_add(s, 4.9, v), ==, -EINVAL, "series: a time before the last: -EINVAL");
	check_int(plot_series_add(s, NAN, v), ==, -EINVAL, "series: a time not finite: -EINVAL");
	check_int(write_pic("timeline.pdf", draw_timeline, &tl), ==, 0, "timeline: written");
	readable("timeline", clear);
	ok(has_text("Retiring") && has_text("Backend bound") && has_text("percent of slots") &&
	   has_text("5") && has_text("time since the start (s); each step one interval"),
	   "timeline: legend, percent axis, seconds axis");
	check_int(count("area"), ==, 4, "timeline: one area per node");
	plot_timeline_free(&tl);
	trace_reset();
}

/* --------------------------------------------------------------- pairs */

static int draw_pairs(const char *path, const void *arg)
{
	return plot_pairs_write(path, arg, &hook);
}

static void pairs(void)
{
	struct plot_pair x[8];
	struct plot_pairs p = { "baretma against perf_event: a test", "", "baretma (msr)",
				"perf_event (perf)", 8, x };
	static const char *const clear[] = { "plot", "segment", NULL };
	const struct plot_box *pl, *a;

	for (int i = 0; i < 8; i++)
		x[i] = (struct plot_pair){ i < 4 ? "kernel-a" : "kernel-b", parents[i % 4],
					   0.4 - 0.1 * (i % 4), 0.395 - 0.1 * (i % 4), 0.004, 0.003,
					   "agree", false };
	x[3] = (struct plot_pair){ "kernel-a", "tma_backend_bound", 0.30, 0.35, 0.004, 0.003,
				   "DISAGREE", true };
	check_int(write_pic("pairs.png", draw_pairs, &p), ==, 0, "pairs: written");
	readable("pairs", clear);
	ok(has_text("DISAGREE: 30.00 / 35.00") && has_text("agree: 40.00 / 39.50"),
	   "pairs: each verdict with both values");
	ok(has_text("kernel-a") && has_text("kernel-b") && has_text("A: baretma (msr)") &&
	   has_text("B: perf_event (perf)") && has_text("Frontend bound"),
	   "pairs: the kernels, the sides and the nodes named");
	pl = box("plot", NULL, 0);
	a = box("segment", "tma_retiring", 0);
	/* the axis ends at the next 10 % above the largest value + bound: 40.4 -> 50 */
	ok(a && pl && fabs((a->x1 - a->x0) / (pl->x1 - pl->x0) - 40.0 / 50) < 1e-9,
	   "pairs: retiring 0.40 is 40/50 of the axis");
	trace_reset();
}

static void formats(void)
{
	static const struct { const char *path; int rc; enum plot_format f; } v[] = {
		{ "a.svg", 0, PLOT_SVG }, { "a.PNG", 0, PLOT_PNG }, { "x.tar.pdf", 0, PLOT_PDF },
		{ "dir/b.Svg", 0, PLOT_SVG }, { "a.gif", -EINVAL, 0 }, { "a", -EINVAL, 0 },
		{ "a.png/b", -EINVAL, 0 }, { "dir/.png", -EINVAL, 0 }, { "a.png.", -EINVAL, 0 },
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		enum plot_format f = 99;
		int rc = plot_format_of(v[i].path, &f);

		ok(rc == v[i].rc && (rc || f == v[i].f), "format of '%s': %d", v[i].path, rc);
	}
}

int main(void)
{
	char tmpl[] = "/tmp/baretma-plot.XXXXXX";

	formats();
	if (!plot_available()) {
		check_int(plot_bars_write("x.png", &(struct plot_bars){ 0 }, NULL), ==, -ENOTSUP,
			  "built without cairo: -ENOTSUP");
		return done_testing();
	}
	tmpdir = t_strf("%s/%s", getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
			"baretma-plot.XXXXXX");
	if (!mkdtemp(tmpdir) && !(tmpdir = mkdtemp(tmpl)))
		skip_all("cannot make a temporary directory");
	bars();
	many_bars();
	timeline();
	pairs();
	rmdir(tmpdir);
	if (tmpdir != tmpl)
		free(tmpdir);
	return done_testing();
}
