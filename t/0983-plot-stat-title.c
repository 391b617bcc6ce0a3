/*
 * t/0983-plot-stat-title - the title of `stat -I --plot`'s timeline names
 * the CPU (bench/output/plot_stat.c plot_stat_title), as bench's pictures
 * do: the brand string of the CPUID dump ($SHARED_CPUID/INDEX.tsv column
 * cpu_name), escaped as every string from CPUID is (cpu/escape.h: a
 * control byte as \xHH), and on a part with several core kinds each kind's
 * panel headed with its microarchitecture and CPUs: the Lunar Lake dump's
 * (Core Ultra 9 288V) leaf 0x1A gives core type 0x40 (Lion Cove, the
 * dump's own annotation) to logical CPUs 0-3 and 0x20 (Skymont) to 4-7.
 * What is drawn is read back from the picture's trace (every text drawn,
 * as t/0921): the title whole, not cut, inside the canvas.  Skipped
 * without cairo or without the dumps.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/output/plot.h"
#include "cpu/cpu.h"
#include "t/tap.h"
#include "t/fixture.h"

static char *texts[4096];
static size_t ntexts;
static double canvas_w;
static int outside;

static void on_text(void *arg, const char *text, const struct plot_box *ink)
{
	(void)arg;
	if (ntexts < sizeof(texts) / sizeof(texts[0]))
		texts[ntexts++] = strdup(text);
	if (ink->x0 < 0 || (canvas_w > 0 && ink->x1 > canvas_w))
		outside++;
}

static void on_box(void *arg, const char *what, const char *node, const struct plot_box *b)
{
	(void)arg;
	(void)node;
	if (!strcmp(what, "canvas"))
		canvas_w = b->x1;
}

static const struct plot_trace hook = { on_text, on_box, NULL };

static bool drawn(const char *s)
{
	for (size_t i = 0; i < ntexts; i++)
		if (!strcmp(texts[i], s))
			return true;
	return false;
}

static void reset(void)
{
	for (size_t i = 0; i < ntexts; i++)
		free(texts[i]);
	ntexts = 0;
	outside = 0;
}

/* The timeline of @title drawn into @dir/@name, its trace kept. */
static int draw(const char *dir, const char *name, const char *title, const char *sub)
{
	static const char *const nodes[] = { "tma_retiring", "tma_bad_speculation",
					     "tma_frontend_bound", "tma_backend_bound" };
	const double v[4] = { 0.4, 0.1, 0.2, 0.3 };
	static struct plot_timeline tl;
	char path[PATH_MAX];
	int rc;

	memset(&tl, 0, sizeof(tl));
	if (plot_series_init(&tl.panel[0], 4, nodes))
		return -1;
	tl.npanels = 1;
	for (int i = 1; i <= 20; i++)
		if (plot_series_add(&tl.panel[0], i * 0.1, v))
			return -1;
	tl.title = title;
	tl.subtitle = sub;
	t_path(path, "%s/%s", dir, name);
	reset();
	rc = plot_timeline_write(path, &tl, &hook);
	plot_timeline_free(&tl);
	return rc;
}

/* @tl: two empty panels, the P-cores' and the E-cores' (as plot_stat_add
 * makes them), no heading yet. */
static void panels2(struct plot_timeline *tl)
{
	memset(tl, 0, sizeof(*tl));
	tl->npanels = 2;
	snprintf(tl->panel[0].kind, sizeof(tl->panel[0].kind), "performance");
	snprintf(tl->panel[1].kind, sizeof(tl->panel[1].kind), "efficiency");
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

int main(void)
{
	const char *shared = t_shared_dumps();
	static char dir[PATH_MAX], lnl[PATH_MAX], icl[PATH_MAX];
	static struct cpu_info ci;
	static const unsigned eight[] = { 0, 1, 2, 3, 4, 5, 6, 7 }, some[] = { 1, 2, 5, 7 };
	const char *want, *wsub;
	char *title = NULL, *sub = NULL;
	static struct plot_timeline tl;

	if (!plot_available())
		skip_all("built without cairo");
	t_path(lnl, "%s/libcpuid/master-history/intel/x86-64/lion-cove/intel-core-ultra-9-288v.test",
	       shared);
	t_path(icl, "%s/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test", shared);
	t_scratch(dir, "0983");

	/* Lunar Lake: two kinds, every CPU counted: a panel each, headed */
	identify(lnl, &ci);
	panels2(&tl);
	check_int(plot_stat_title(&title, &sub, &tl, &ci, eight, 8), ==, 0, "Lunar Lake: a title");
	want = "Top-down level 1 over time: Intel(R) Core(TM) Ultra 9 288V";
	wsub = "one panel per core kind, each kind's shares weighted by its slots";
	check_str(title, want, "Lunar Lake: the title names the brand");
	check_str(sub, wsub, "Lunar Lake: the subtitle says a panel per kind");
	check_str(tl.panel[0].heading, "performance cores (Lion Cove), cpus 0-3",
		  "Lunar Lake: the P-cores' panel, its CPUs");
	check_str(tl.panel[1].heading, "efficiency cores (Skymont), cpus 4-7",
		  "Lunar Lake: the E-cores' panel, its CPUs");
	check_int(draw(dir, "lnl.pdf", title, sub), ==, 0, "Lunar Lake: the timeline is drawn");
	ok(drawn(want), "Lunar Lake: the title is drawn whole");
	ok(drawn(wsub), "Lunar Lake: the subtitle is drawn whole");
	ok(!outside, "Lunar Lake: every text inside the canvas");
	free(title);
	free(sub);

	/* some CPUs of each kind: their own lists */
	panels2(&tl);
	check_int(plot_stat_title(&title, &sub, &tl, &ci, some, 4), ==, 0,
		  "Lunar Lake, cpus 1,2,5,7: a title");
	check_str(tl.panel[0].heading, "performance cores (Lion Cove), cpus 1-2",
		  "Lunar Lake, cpus 1,2,5,7: the P-cores among those counted");
	check_str(tl.panel[1].heading, "efficiency cores (Skymont), cpus 5,7",
		  "Lunar Lake, cpus 1,2,5,7: the E-cores among those counted");
	free(title);
	free(sub);

	/* the P-cores alone: one kind, its panel still says which */
	panels2(&tl);
	tl.npanels = 1;
	check_int(plot_stat_title(&title, &sub, &tl, &ci, eight, 4), ==, 0,
		  "Lunar Lake P-cores: a title");
	check_str(title, "Top-down level 1 over time: Intel(R) Core(TM) Ultra 9 288V",
		  "Lunar Lake, cpus 0-3: the brand");
	check_str(sub, "the shares of all the CPUs counted, weighted by their slots",
		  "Lunar Lake, cpus 0-3: one kind");
	check_str(tl.panel[0].heading, "performance cores (Lion Cove), cpus 0-3",
		  "Lunar Lake, cpus 0-3: the panel says they are the P-cores");
	free(title);
	free(sub);

	/* Ice Lake: one kind, no heading */
	identify(icl, &ci);
	panels2(&tl);
	snprintf(tl.panel[0].kind, sizeof(tl.panel[0].kind), "general");
	tl.npanels = 1;
	check_int(plot_stat_title(&title, &sub, &tl, &ci, eight, 8), ==, 0, "Ice Lake: a title");
	want = "Top-down level 1 over time: Intel(R) Core(TM) i7-1065G7 CPU @ 1.30GHz";
	check_str(title, want, "Ice Lake: the brand");
	check_str(tl.panel[0].heading, "", "Ice Lake: one kind of core, no heading");
	check_int(draw(dir, "icl.pdf", title, sub), ==, 0, "Ice Lake: the timeline is drawn");
	ok(drawn(want), "Ice Lake: the title is drawn");
	free(title);
	free(sub);

	/* a brand that would set a terminal's title: escaped */
	snprintf(ci.brand, sizeof(ci.brand), "Evil\x1b]0;pwned\x07 CPU");
	check_int(plot_stat_title(&title, &sub, NULL, &ci, eight, 8), ==, 0,
		  "an escaping brand: a title");
	check_str(title, "Top-down level 1 over time: Evil\\x1b]0;pwned\\x07 CPU",
		  "ESC and BEL of the brand as \\x1b and \\x07");
	free(title);
	free(sub);

	/* every picture's title names the CPU through plot_brand: bench's
	 * bars too (its kernel has no valid repetition: the title is drawn
	 * all the same), and an empty brand is said, not left blank */
	{
		char *b = plot_brand(&ci);
		struct cpu_info none = { .brand = "" };
		struct bench_kernel kern = { .name = "retire-light" };
		struct bench_kernel_result kr = { .kernel = &kern };
		struct bench_result *br = calloc(1, sizeof(*br));
		char *path = NULL;

		check_str(b, "Evil\\x1b]0;pwned\\x07 CPU", "plot_brand escapes ESC and BEL");
		free(b);
		b = plot_brand(&none);
		check_str(b, "unknown CPU", "plot_brand of an empty brand: unknown CPU");
		free(b);
		b = plot_brand(NULL);
		check_str(b, "unknown CPU", "plot_brand of no CPU: unknown CPU");
		free(b);
		reset();
		br->cpu = ci;
		br->level = 1;
		br->nkernels = 1;
		br->kernels = &kr;
		if (asprintf(&path, "%s/bench.pdf", dir) < 0)
			path = NULL;
		check_int(path ? plot_bench_write(path, br, NULL, &hook) : -1, ==, 0,
			  "bench's bars with an escaping brand are drawn");
		ok(drawn("Top-down level 1 per kernel: Evil\\x1b]0;pwned\\x07 CPU"),
		   "bench's title: the brand escaped");
		free(path);
		free(br);
	}

	reset();
	t_rm_rf(dir);
	return done_testing();
}
