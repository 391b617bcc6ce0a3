/*
 * t/1112-plot-run-panels.c - what a picture says of the run that made it,
 * and a hybrid part's core kinds apart (issue 29, the newcomer's "Plots"
 * item; bench/output/plot.h struct plot_run, struct plot_timeline), read
 * from the pictures' trace (every text drawn, every part's box):
 *   - each kind of picture (bars, timeline, pairs) given a run draws its
 *     command line ("command: baretma ...") and, a dry run, the mark "DRY
 *     RUN" and what makes it one, inside the canvas, over no other text;
 *     given none, neither;
 *   - stat -I's samples of two core kinds (plot_stat_add) make two panels,
 *     each the shares of its own kind (worked by hand: P-cores 40/10/20/30,
 *     E-cores 20/10/30/40 of their slots, never mixed), each a "plot" box of
 *     its own, each area inside its panel at its share's height; a kind's
 *     CPUs weighted by their slots (two E-core CPUs of 100 and 300 slots at
 *     0.2 and 0.4 retiring: 0.35); headed, on the Alder Lake-S dump
 *     (examples/dumps/README: P-cores 0-15, Gracemont E-cores 16-23), with
 *     each kind, its microarchitecture and its CPUs (plot_stat_title);
 *   - the timeline's legend top down in the order of its stack top down.
 * Before: one series for the machine (the kinds weighted together), no
 * command, no mark.  Skipped without cairo.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/output/plot.h"
#include "bench/stat.h"
#include "cpu/cpu.h"
#include "t/fixture.h"
#include "t/tap.h"

struct item {
	char what[16], node[64], *text;
	struct plot_box b;
};

static struct item items[4096];
static size_t nitems;

static void on_text(void *arg, const char *text, const struct plot_box *ink)
{
	(void)arg;
	if (nitems < sizeof(items) / sizeof(items[0])) {
		snprintf(items[nitems].what, sizeof(items[nitems].what), "text");
		items[nitems].node[0] = '\0';
		items[nitems].text = strdup(text);
		items[nitems++].b = *ink;
	}
}

static void on_box(void *arg, const char *what, const char *node, const struct plot_box *b)
{
	(void)arg;
	if (nitems < sizeof(items) / sizeof(items[0])) {
		snprintf(items[nitems].what, sizeof(items[nitems].what), "%s", what);
		snprintf(items[nitems].node, sizeof(items[nitems].node), "%s", node ? node : "");
		items[nitems].text = NULL;
		items[nitems++].b = *b;
	}
}

static const struct plot_trace hook = { on_text, on_box, NULL };

static void reset(void)
{
	for (size_t i = 0; i < nitems; i++)
		free(items[i].text);
	nitems = 0;
}

static const struct plot_box *text_box(const char *s)
{
	for (size_t i = 0; i < nitems; i++)
		if (items[i].text && !strcmp(items[i].text, s))
			return &items[i].b;
	return NULL;
}

/* The @k-th box of @what (and @node unless NULL). */
static const struct plot_box *box(const char *what, const char *node, int k)
{
	for (size_t i = 0; i < nitems; i++)
		if (!items[i].text && !strcmp(items[i].what, what) &&
		    (!node || !strcmp(items[i].node, node)) && !k--)
			return &items[i].b;
	return NULL;
}

static bool overlap(const struct plot_box *a, const struct plot_box *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

/* Every text inside the canvas, none over another. */
static void readable(const char *pic)
{
	const struct plot_box *c = box("canvas", NULL, 0);
	int bad = 0;

	for (size_t i = 0; c && i < nitems; i++) {
		const struct plot_box *b = &items[i].b;

		if (!items[i].text)
			continue;
		if (b->x0 < c->x0 || b->y0 < c->y0 || b->x1 > c->x1 || b->y1 > c->y1)
			bad++, printf("#   outside: '%s'\n", items[i].text);
		for (size_t j = i + 1; j < nitems; j++)
			if (items[j].text && overlap(b, &items[j].b))
				bad++, printf("#   '%s' over '%s'\n", items[i].text, items[j].text);
	}
	ok(c && !bad, "%s: every text inside the canvas, none over another", pic);
}

static const char *const l1[] = { "tma_retiring", "tma_bad_speculation", "tma_frontend_bound",
				  "tma_backend_bound" };
static const struct plot_run dry = { "baretma stat -a -I 100 -- make",
				     "simulated PMU, CPUID dump: not this machine's counters" };
static char dir[PATH_MAX];

/* The run's texts drawn (@want) or not. */
static void says_run(const char *pic, bool want)
{
	const char *cmd = "command: baretma stat -a -I 100 -- make";

	if (want) {
		ok(text_box(cmd) != NULL, "%s: the command line drawn", pic);
		ok(text_box("DRY RUN") && text_box(dry.dry_run), "%s: the dry run's mark drawn", pic);
		ok(text_box("DRY RUN") && text_box(dry.dry_run) &&
		   text_box("DRY RUN")->x1 < text_box(dry.dry_run)->x0,
		   "%s: the mark, then what makes it a dry run", pic);
		readable(pic);
	} else {
		ok(!text_box(cmd) && !text_box("DRY RUN"), "%s: no run given, neither drawn", pic);
	}
}

static int pic(const char *name, int (*draw)(const char *, const void *), const void *arg)
{
	char path[PATH_MAX];
	int rc;

	t_path(path, "%s/%s", dir, name);
	reset();
	rc = draw(path, arg);
	unlink(path);
	return rc;
}

static int draw_bars(const char *path, const void *arg)
{
	return plot_bars_write(path, arg, &hook);
}

static int draw_pairs(const char *path, const void *arg)
{
	return plot_pairs_write(path, arg, &hook);
}

static int draw_timeline(const char *path, const void *arg)
{
	return plot_timeline_write(path, arg, &hook);
}

static void run_marks(void)
{
	struct plot_bar b = { .label = "kernel-a", .n1 = 4 };
	struct plot_bars bars = { .title = "Top-down level 1 per kernel: a test",
				  .subtitle = "a subtitle", .level = 1, .nbars = 1, .bars = &b };
	struct plot_pair x[4];
	struct plot_pairs pairs = { .title = "pairs", .subtitle = "", .a_name = "a",
				    .b_name = "b", .n = 4, .pairs = x };

	for (unsigned i = 0; i < 4; i++) {
		b.l1[i] = (struct plot_value){ l1[i], 0.25 };
		x[i] = (struct plot_pair){ "kernel-a", l1[i], 0.25, 0.25, 0, 0, "agree", false };
	}
	check_int(pic("bars.svg", draw_bars, &bars), ==, 0, "bars without a run: drawn");
	says_run("bars", false);
	bars.run = &dry;
	check_int(pic("bars.svg", draw_bars, &bars), ==, 0, "bars of a dry run: drawn");
	says_run("bars", true);
	check_int(pic("pairs.png", draw_pairs, &pairs), ==, 0, "pairs without a run: drawn");
	says_run("pairs", false);
	pairs.run = &dry;
	check_int(pic("pairs.png", draw_pairs, &pairs), ==, 0, "pairs of a dry run: drawn");
	says_run("pairs", true);
	/* a run that is no dry run: its command, no mark */
	bars.run = &(struct plot_run){ "baretma stat -a -I 100 -- make", NULL };
	check_int(pic("bars.pdf", draw_bars, &bars), ==, 0, "bars of a run on the machine: drawn");
	ok(text_box("command: baretma stat -a -I 100 -- make") && !text_box("DRY RUN"),
	   "bars of a run on the machine: the command, no dry-run mark");
}

/* ------------------------------------------------------------ panels */

static struct stat_sample sample(double t, const char *kind, int cpu, double slots,
				 const double *frac)
{
	struct stat_sample s = { .time = t, .length = 0.1, .cpu = cpu, .ncpus = 1, .kind = kind,
				 .level = 1, .slots = slots, .nnodes = 4, .valid = true };

	for (unsigned i = 0; i < 4; i++)
		s.node[i] = (struct stat_node){ l1[i], NULL, 1, frac[i], frac[i] * slots };
	return s;
}

static void identify(const char *path, struct cpu_info *ci)
{
	struct cpu_source *src = cpu_source_dump(path);

	if (!src || cpu_info_identify(src, NULL, ci)) {
		printf("Bail out! cannot identify %s\n", path);
		exit(1);
	}
	cpu_source_free(src);
}

/* The nodes of @what boxes inside [@y0, @y1], top first, once each. */
static void top_down(const char *what, double y0, double y1, char *out, size_t n)
{
	const struct item *sel[64];
	size_t k = 0;

	for (size_t i = 0; i < nitems && k < 64; i++) {
		bool dup = false;

		if (items[i].text || strcmp(items[i].what, what) || !items[i].node[0] ||
		    items[i].b.y0 < y0 || items[i].b.y1 > y1)
			continue;
		for (size_t j = 0; j < k; j++)
			dup |= !strcmp(sel[j]->node, items[i].node);
		if (!dup)
			sel[k++] = &items[i];
	}
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && sel[j]->b.y0 < sel[j - 1]->b.y0; j--) {
			const struct item *t = sel[j];

			sel[j] = sel[j - 1];
			sel[j - 1] = t;
		}
	out[0] = '\0';
	for (size_t i = 0; i < k; i++)
		snprintf(out + strlen(out), n - strlen(out), "%s%s", i ? " " : "", sel[i]->node);
}

static void panels(void)
{
	static const double p[] = { .40, .10, .20, .30 }, e1[] = { .20, .10, .30, .40 },
			    e2a[] = { .20, .10, .30, .40 }, e2b[] = { .40, .10, .20, .30 };
	static struct cpu_info ci;
	static unsigned cpus[24];
	static struct plot_timeline tl;
	char adl[PATH_MAX], *title = NULL, *sub = NULL, want[512], leg[512];
	const struct plot_box *pa, *pb, *ar;
	int rc = 0;

	for (unsigned i = 0; i < 24; i++)
		cpus[i] = i;
	/* intervals 1-10: a P-core group and an E-core group (stat's groups);
	 * 11: the E-cores as two CPUs of their own (stat -A) */
	for (int i = 1; i <= 10 && !rc; i++) {
		struct stat_sample s[2] = { sample(i * 0.1, "performance", -1, 3000, p),
					    sample(i * 0.1, "efficiency", -1, 1000, e1) };

		rc = plot_stat_add(&tl, s, 2);
	}
	{
		struct stat_sample s[3] = { sample(1.1, "performance", -1, 3000, p),
					    sample(1.1, "efficiency", 16, 100, e2a),
					    sample(1.1, "efficiency", 17, 300, e2b) };

		rc = rc ? rc : plot_stat_add(&tl, s, 3);
	}
	check_int(rc, ==, 0, "eleven intervals of two kinds added");
	check_int(tl.npanels, ==, 2, "two kinds: two panels");
	check_str(tl.panel[0].kind, "performance", "panel 1: the P-cores (the samples' order)");
	check_str(tl.panel[1].kind, "efficiency", "panel 2: the E-cores");
	check_u64(tl.panel[0].n, ==, 11, "panel 1: eleven intervals");
	check_dbl(tl.panel[0].samples[0].value[0], 0.40, 1e-12, "panel 1: the P-cores' retiring, 0.40");
	check_dbl(tl.panel[1].samples[0].value[0], 0.20, 1e-12,
		  "panel 2: the E-cores' retiring, 0.20, not mixed with the P-cores'");
	check_dbl(tl.panel[1].samples[0].value[3], 0.40, 1e-12, "panel 2: the E-cores' backend, 0.40");
	check_dbl(tl.panel[1].samples[10].value[0], (100 * 0.2 + 300 * 0.4) / 400, 1e-12,
		  "panel 2, two E-core CPUs: retiring weighted by their slots, 0.35");

	t_path(adl, "%s/examples/dumps/alder-lake-s-core-i9.test", BARETMA_SRCDIR);
	identify(adl, &ci);
	check_int(plot_stat_title(&title, &sub, &tl, &ci, cpus, 24), ==, 0, "Alder Lake-S: a title");
	check_str(title, "Top-down level 1 over time: 12th Gen Intel(R) Core(TM) i9-12900K",
		  "the title: the dump's brand");
	check_str(tl.panel[0].heading, "performance cores (Golden Cove), cpus 0-15",
		  "panel 1's heading: the P-cores, CPUs 0-15");
	check_str(tl.panel[1].heading, "efficiency cores (Gracemont), cpus 16-23",
		  "panel 2's heading: the E-cores, CPUs 16-23");
	tl.title = title;
	tl.subtitle = sub;
	tl.run = &dry;
	check_int(pic("timeline.svg", draw_timeline, &tl), ==, 0, "the two panels drawn");
	says_run("timeline", true);
	ok(text_box(tl.panel[0].heading) && text_box(tl.panel[1].heading), "both headings drawn");
	pa = box("plot", NULL, 0);
	pb = box("plot", NULL, 1);
	ok(pa && pb && pa->y1 < pb->y0 && !box("plot", NULL, 2), "two plot boxes, one above the other");
	ok(pa && pb && text_box(tl.panel[0].heading)->y1 < pa->y0 &&
	   text_box(tl.panel[1].heading)->y1 < pb->y0 && text_box(tl.panel[1].heading)->y0 > pa->y1,
	   "each heading above its panel");
	ar = box("area", "tma_retiring", 0);
	ok(pa && ar && fabs(ar->y1 - pa->y1) < 1e-6 && fabs((ar->y1 - ar->y0) / (pa->y1 - pa->y0) -
	   0.40) < 1e-6, "panel 1: retiring from its foot, 40 %% of its height");
	ar = box("area", "tma_retiring", 1);
	/* the E-cores' retiring: 0.20 ten intervals, 0.35 the last: its box
	 * as tall as the highest */
	ok(pb && ar && fabs(ar->y1 - pb->y1) < 1e-6 && fabs((ar->y1 - ar->y0) / (pb->y1 - pb->y0) -
	   0.35) < 1e-6, "panel 2: retiring from its foot, up to 35 %% of its height");
	ar = box("area", "tma_backend_bound", 1);
	ok(pb && ar && ar->y0 >= pb->y0 - 1e-6 && ar->y1 <= pb->y1 + 1e-6, "panel 2: backend inside it");
	top_down("area", pa ? pa->y0 - 1e-6 : 0, pa ? pa->y1 + 1e-6 : 0, want, sizeof(want));
	check_str(want, "tma_backend_bound tma_frontend_bound tma_bad_speculation tma_retiring",
		  "panel 1 stacked retiring at the foot");
	top_down("swatch", 0, INFINITY, leg, sizeof(leg));
	check_str(leg, want, "the legend top down is the stack top down");
	free(title);
	free(sub);
	plot_timeline_free(&tl);
	check_int(tl.npanels, ==, 0, "plot_timeline_free: no panel left");
}

int main(void)
{
	if (!plot_available())
		skip_all("built without cairo");
	t_scratch(dir, "1112");
	run_marks();
	panels();
	reset();
	t_rm_rf(dir);
	return done_testing();
}
