/*
 * t/1111-plot-legend-order.c - a legend lists the nodes in the order they
 * are drawn (issue 29: "legend in stacking order"; doc/plots.md): in the
 * stacked bars, from the top of the stack down, the legend's rows top
 * first in the order of the segments top first (level 1 as the level-1
 * bar has them, each node's children under it as the level-2 bar stacks
 * them); in the paired bars, whose rows are not stacked, in the order of
 * the rows.  Both orders are read off the picture's trace (the swatches'
 * and the segments' boxes), not from the drawing code's tables.  Before,
 * the bars' legend began with retiring, the bottom of the stack.  Skipped
 * without cairo.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/output/plot.h"
#include "t/tap.h"

struct item {
	char what[16], node[64];
	struct plot_box b;
};

static struct item items[4096];
static size_t nitems;

static void on_box(void *arg, const char *what, const char *node, const struct plot_box *b)
{
	(void)arg;
	if (nitems < sizeof(items) / sizeof(items[0]) && node) {
		snprintf(items[nitems].what, sizeof(items[nitems].what), "%s", what);
		snprintf(items[nitems].node, sizeof(items[nitems].node), "%s", node);
		items[nitems++].b = *b;
	}
}

static const struct plot_trace hook = { NULL, on_box, NULL };

/* The nodes of the boxes of @what whose left edge is within [@x0, @x1),
 * first occurrence each, top first, joined by " " into @out. */
static void order(const char *what, double x0, double x1, char *out, size_t n)
{
	const struct item *sel[256];
	size_t k = 0;

	for (size_t i = 0; i < nitems && k < 256; i++) {
		bool dup = false;

		if (strcmp(items[i].what, what) || items[i].b.x0 < x0 || items[i].b.x0 >= x1)
			continue;
		for (size_t j = 0; j < k; j++)
			dup |= !strcmp(sel[j]->node, items[i].node);
		if (!dup)
			sel[k++] = &items[i];
	}
	for (size_t i = 1; i < k; i++) /* insertion sort by the top edge */
		for (size_t j = i; j > 0 && sel[j]->b.y0 < sel[j - 1]->b.y0; j--) {
			const struct item *t = sel[j];

			sel[j] = sel[j - 1];
			sel[j - 1] = t;
		}
	out[0] = '\0';
	for (size_t i = 0; i < k; i++)
		snprintf(out + strlen(out), n - strlen(out), "%s%s", i ? " " : "", sel[i]->node);
}

static const char *const l1[] = { "tma_retiring", "tma_bad_speculation", "tma_frontend_bound",
				  "tma_backend_bound" };
static const char *const l2[] = { "tma_heavy_operations", "tma_light_operations",
	"tma_branch_mispredicts", "tma_machine_clears", "tma_fetch_latency",
	"tma_fetch_bandwidth", "tma_memory_bound", "tma_core_bound" };

static char *dir;

static void bars(void)
{
	static const double v1[] = { .40, .10, .20, .30 },
		v2[] = { .10, .30, .06, .04, .12, .08, .18, .12 };
	struct plot_bar b = { .label = "kernel-a", .n1 = 4, .n2 = 8 };
	struct plot_bars p = { .title = "legend order", .subtitle = "", .level = 2, .nbars = 1,
			       .bars = &b };
	char *path = t_strf("%s/bars.svg", dir), seg1[512], seg2[512], leg[1024], want[1024];
	double bar1 = INFINITY, bar2 = INFINITY, legx = INFINITY;

	for (unsigned i = 0; i < 4; i++)
		b.l1[i] = (struct plot_value){ l1[i], v1[i] };
	for (unsigned i = 0; i < 8; i++)
		b.l2[i] = (struct plot_value){ l2[i], v2[i] };
	nitems = 0;
	check_int(plot_bars_write(path, &p, &hook), ==, 0, "bars: drawn");
	unlink(path);
	free(path);
	for (size_t i = 0; i < nitems; i++) {
		if (!strcmp(items[i].what, "segment") && !strcmp(items[i].node, "tma_retiring"))
			bar1 = fmin(bar1, items[i].b.x0);
		if (!strcmp(items[i].what, "segment") && !strcmp(items[i].node, "tma_heavy_operations"))
			bar2 = fmin(bar2, items[i].b.x0);
		if (!strcmp(items[i].what, "swatch"))
			legx = fmin(legx, items[i].b.x0);
	}
	ok(bar1 < bar2 && bar2 < legx, "bars: the level-1 bar, the level-2 bar, the legend");
	order("segment", bar1, bar1 + 1, seg1, sizeof(seg1));
	order("segment", bar2, bar2 + 1, seg2, sizeof(seg2));
	check_str(seg1, "tma_backend_bound tma_frontend_bound tma_bad_speculation tma_retiring",
		  "bars: level 1 stacked retiring at the foot, backend on top (the data's order)");
	order("swatch", legx, INFINITY, leg, sizeof(leg));
	/* the legend the stack reads top down: each level-1 node as the
	 * level-1 bar has it, its children under it as the level-2 bar has
	 * them (backend's children are the top of the level-2 bar) */
	want[0] = '\0';
	for (char *p1 = seg1, *e1; *p1; p1 = *e1 ? e1 + 1 : e1) {
		char par[64];

		e1 = p1 + strcspn(p1, " ");
		snprintf(par, sizeof(par), "%.*s", (int)(e1 - p1), p1);
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%s", *want ? " " : "",
			 par);
		for (char *p2 = seg2, *e2; *p2; p2 = *e2 ? e2 + 1 : e2) {
			char ch[64];
			const char *cp;

			e2 = p2 + strcspn(p2, " ");
			snprintf(ch, sizeof(ch), "%.*s", (int)(e2 - p2), p2);
			cp = plot_node_style(ch)->parent;
			if (cp && !strcmp(cp, par))
				snprintf(want + strlen(want), sizeof(want) - strlen(want), " %s", ch);
		}
	}
	check_str(leg, want, "bars: the legend top first is the stack top first, children under "
		  "their parent");
}

static void pairs(void)
{
	struct plot_pair x[6];
	static const char *const nodes[] = { "tma_retiring", "tma_heavy_operations",
		"tma_light_operations", "tma_bad_speculation", "tma_frontend_bound",
		"tma_backend_bound" };
	struct plot_pairs p = { .title = "legend order", .subtitle = "", .a_name = "a",
				.b_name = "b", .n = 6, .pairs = x };
	char *path = t_strf("%s/pairs.svg", dir), rows[512], leg[512];
	double legx = INFINITY, segx = INFINITY;

	for (int i = 0; i < 6; i++)
		x[i] = (struct plot_pair){ "kernel-a", nodes[i], 0.2, 0.2, 0, 0, "agree", false };
	nitems = 0;
	check_int(plot_pairs_write(path, &p, &hook), ==, 0, "pairs: drawn");
	unlink(path);
	free(path);
	for (size_t i = 0; i < nitems; i++) {
		if (!strcmp(items[i].what, "swatch") && strncmp(items[i].node, "tma_", 4) == 0)
			legx = fmin(legx, items[i].b.x0);
		if (!strcmp(items[i].what, "segment"))
			segx = fmin(segx, items[i].b.x0);
	}
	order("segment", segx, segx + 1, rows, sizeof(rows));
	check_str(rows, "tma_retiring tma_heavy_operations tma_light_operations "
		  "tma_bad_speculation tma_frontend_bound tma_backend_bound",
		  "pairs: the rows in the data's order");
	order("swatch", legx, INFINITY, leg, sizeof(leg));
	check_str(leg, rows, "pairs: the legend in the rows' order");
}

int main(void)
{
	char tmpl[] = "/tmp/baretma-1111.XXXXXX";

	if (!plot_available())
		skip_all("built without cairo");
	if (!(dir = mkdtemp(tmpl)))
		skip_all("cannot make a temporary directory");
	bars();
	pairs();
	rmdir(dir);
	return done_testing();
}
