/*
 * bench/output/plot.h - pictures of Top-down results (doc/plots.md): SVG,
 * PNG or PDF, chosen by the file's extension, drawn with cairo.  A generic
 * data API that knows no command: the commands' results are turned into
 * these structures by plot_bench.c and plot_compare.c (and by stat -I,
 * which fills a struct plot_series), each kind of picture drawn by one
 * file:
 *   plot_bars.c      stacked bars of level 1 per label (a kernel), level 2
 *                    beside each, whiskers of the bound;
 *   plot_timeline.c  the level-1 shares over time, stacked areas;
 *   plot_pairs.c     two sides per metric (baretma against perf_event),
 *                    the verdict at each.
 * Every Top-down node has one colour in every picture (plot_node_style,
 * plot_common.c): each level-1 node one of Okabe and Ito's eight colours
 * for colour-blind readers (retiring bluish green, bad speculation orange,
 * frontend bound blue, backend bound vermillion: no red beside green in
 * the stack), each level-2 child its parent mixed with white or black
 * (doc/plots.md).  Every legend lists the nodes as they are drawn: a
 * stack's legend the top of the stack first.  The y (or x) axis is in
 * percent of slots.
 *
 * Every picture's header says what made it (struct plot_run): the command
 * line, and on a dry run a mark that its numbers are not this machine's;
 * an SVG carries its title, subtitle, command, mark and panels' headings
 * as text too (<title>, <desc>), a PDF in its Title and Subject.
 *
 * A file is written atomically: drawn into a new temporary file beside it
 * (mkostemp: O_EXCL, never through a link planted there), synced, renamed
 * over it; an existing symbolic link (or anything but a regular file) at
 * the path is refused, never written through; on any error the temporary
 * file is removed and the path left as it was.  Library code: never
 * prints, returns 0 or -errno.  Built without cairo (configure found no
 * cairo.pc), the writers return -ENOTSUP and plot_available() is false.
 */
#ifndef BARETMA_PLOT_H
#define BARETMA_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "bench/bench.h"
#include "bench/study/compare.h"

/* The most nodes a bar, a sample or a legend has (the twelve tma_* and the
 * recipes' own: smt_contention, tma_resource_bound). */
#define PLOT_NODES_MAX 16

/* The most panels a timeline has: one per core kind (cpu/cpu.h
 * CPU_MAX_KINDS). */
#define PLOT_PANELS_MAX 4

/*
 * What made a picture, drawn in its header under the subtitle (NULL, or a
 * field NULL or "": not drawn).  @command: the command line ("baretma stat
 * -a -I 100 -- make"); @dry_run: on a dry run, what makes it one
 * ("simulated PMU, CPUID dump: not this machine's counters"), drawn after a
 * "DRY RUN" mark.
 */
struct plot_run {
	const char *command;
	const char *dry_run;
};

enum plot_format { PLOT_SVG, PLOT_PNG, PLOT_PDF };

/* plot_available - whether this build can draw (configure found cairo). */
bool plot_available(void);

/*
 * plot_format_of - the format @path's extension names: ".svg", ".png",
 * ".pdf" (any case).  Returns 0, or -EINVAL (no extension, or another).
 */
int plot_format_of(const char *path, enum plot_format *fmt);

/*
 * plot_check_path - what plot_*_write would refuse before drawing: -EINVAL
 * (extension), -ENOTSUP (no cairo), -ELOOP (@path is a symbolic link),
 * -EISDIR (a directory), -EEXIST (a FIFO, device or socket: renamed over,
 * it would be gone), the -errno of access(2) on its directory (-ENOENT,
 * -ENOTDIR, -EACCES, -EROFS); else 0.  For a command to refuse before it
 * measures.
 */
int plot_check_path(const char *path);

/* ------------------------------------------------------------- colours */

/* One node's look: its colour (0..1 each: an sRGB triple of Okabe and
 * Ito's, or one mixed from it, doc/plots.md), its parent (NULL at level 1),
 * its label in legends ("Retiring"). */
struct plot_node_style {
	const char *node;     /* "tma_retiring" */
	const char *parent;   /* "tma_retiring" for tma_heavy_operations */
	const char *label;    /* "Retiring", "Heavy operations" */
	double r, g, b;
};

/*
 * plot_node_style - the style of @node, never NULL; a node outside the
 * table (a recipe's future node) gets a light grey, and NULL as node,
 * parent and label (a legend writes its name).  plot_node_styles - the table (@n rows), for the tests.
 */
const struct plot_node_style *plot_node_style(const char *node);
const struct plot_node_style *plot_node_styles(size_t *n);

/* --------------------------------------------------------- test tracing */

/* A box drawn, in the picture's units (pixels; points for SVG and PDF). */
struct plot_box {
	double x0, y0, x1, y1;
};

/*
 * What a picture drew, for the tests (NULL: nothing): each text with its
 * ink box, and the boxes of the parts ("canvas", "plot" (the area inside
 * the axes), "legend", "bar", "segment" with the node, "whisker").
 */
struct plot_trace {
	void (*text)(void *arg, const char *text, const struct plot_box *ink);
	void (*box)(void *arg, const char *what, const char *node, const struct plot_box *b);
	void *arg;
};

/* ---------------------------------------------------- stacked bars (1) */

struct plot_value {
	const char *node;     /* "tma_retiring": its colour and label */
	double value;         /* fraction of slots, 0..1; NAN: not measured */
};

struct plot_bar {
	const char *label;    /* a kernel's name */
	const char *missing;  /* why it has no numbers ("no valid repetition"), or NULL */
	unsigned n1, n2;      /* level-1 nodes, level-2 nodes */
	struct plot_value l1[PLOT_NODES_MAX], l2[PLOT_NODES_MAX];
	double bound;         /* +/- fraction of slots of each node (whiskers); 0 or
			       * NAN: none drawn */
};

struct plot_bars {
	const char *title;    /* "Top-down level 2: Intel(R) Xeon(R) w9-3475X" */
	const char *subtitle; /* what measured it, what the whiskers are */
	int level;            /* 1, or 2: each bar's level 2 drawn beside it */
	size_t nbars;
	const struct plot_bar *bars;
	const struct plot_run *run; /* what made it, or NULL */
};

/* plot_bars_write - @p as stacked bars into @path (its extension's format).
 * Returns 0, -EINVAL (the extension; a bar of more than PLOT_NODES_MAX
 * nodes), -EDOM (nothing to draw: no bar), -ENOTSUP (no cairo), -ELOOP,
 * -EISDIR, -EEXIST (plot_check_path), -ENOMEM, or the -errno of creating,
 * writing or renaming the file. */
int plot_bars_write(const char *path, const struct plot_bars *p, const struct plot_trace *t);

/* ------------------------------------------------------- a timeline (2) */

/* One interval: its end in seconds since the start, and each node's share. */
struct plot_sample {
	double t;
	double value[PLOT_NODES_MAX]; /* fractions of slots, in the series' node order;
				       * NAN: none in that interval */
};

/*
 * One panel of a timeline: a series of intervals of one core kind (stat
 * -I).  Set the nodes (plot_series_init), add each interval as it ends
 * (plot_series_add), free it (plot_series_free).
 */
struct plot_series {
	char kind[16];        /* the core kind it shows ("performance"), or "" */
	char heading[192];    /* drawn above it ("performance cores (Golden Cove),
			       * cpus 0-15"); "": none */
	unsigned nnodes;
	const char *nodes[PLOT_NODES_MAX]; /* stacked bottom first: tma_retiring ... */
	size_t n, cap;
	struct plot_sample *samples;
};

/*
 * A timeline: its panels one above the other over one time axis, each
 * with its own percent axis, one legend for all; the title, subtitle and
 * run in the header.
 */
struct plot_timeline {
	const char *title, *subtitle;
	const struct plot_run *run; /* what made it, or NULL */
	unsigned npanels;
	struct plot_series panel[PLOT_PANELS_MAX];
};

/* plot_series_init - an empty series of @nnodes nodes (static names); its
 * kind and heading "".  Returns 0 or -EINVAL (none, or more than
 * PLOT_NODES_MAX). */
int plot_series_init(struct plot_series *s, unsigned nnodes, const char *const *nodes);
/* plot_series_add - one interval ending at @t seconds, @values[nnodes].
 * Returns 0, -EINVAL (@t before the last one, or not finite), -ENOMEM. */
int plot_series_add(struct plot_series *s, double t, const double *values);
void plot_series_free(struct plot_series *s);
/* plot_timeline_free - every panel's series freed, none left. */
void plot_timeline_free(struct plot_timeline *tl);

/*
 * plot_stat_add - one interval of `stat -I` (its @n samples, bench/stat.h)
 * as the next point of @tl (zeroed before the first): one panel per core
 * kind the samples have (a sample's ->kind; in their order, the first
 * time a kind has level-1 nodes), each panel's nodes the level-1 nodes of
 * its kind; each node's share of the kind's CPUs counted, its groups'
 * fractions weighted by their slots; NAN (a gap) where no group of the
 * kind counted (bench/output/plot_stat.c).  Returns 0, -ENOSPC (more kinds
 * than PLOT_PANELS_MAX), or plot_series_init's / plot_series_add's -errno.
 */
struct stat_sample;
int plot_stat_add(struct plot_timeline *tl, const struct stat_sample *smp, unsigned n);

/*
 * plot_stat_title - the timeline's title in *@title (free it): "Top-down
 * level 1 over time: " and the CPU's brand string (escaped, cpu/escape.h,
 * as every string from CPUID); its subtitle in *@subtitle (free it):
 * "one panel per core kind, each kind's shares weighted by its slots" where
 * the @n counted @cpus are of several kinds, else "the shares of all the
 * CPUs counted, weighted by their slots".  On a part with several core
 * kinds (hybrid), each panel of @tl (may be NULL) gets its heading: its
 * kind with its microarchitecture and its CPUs among @cpus ("performance
 * cores (Lion Cove), cpus 0-3", "efficiency cores (Skymont), cpus 4-7").
 * Returns 0 or -ENOMEM (both NULL).
 */
struct cpu_info;
int plot_stat_title(char **title, char **subtitle, struct plot_timeline *tl,
		    const struct cpu_info *ci, const unsigned *cpus, unsigned n);

/*
 * plot_brand - @ci's brand string (CPUID leaves 0x80000002-4) escaped as
 * every string from CPUID is before it reaches a reader (cpu/escape.h),
 * in a new heap string (free it); "unknown CPU" when it is empty or @ci
 * is NULL.  Every picture's title names the CPU through it.  NULL: no
 * memory.
 */
char *plot_brand(const struct cpu_info *ci);

/* plot_timeline_write - @tl as stacked areas over time into @path, a panel
 * per series.  Returns as plot_bars_write (-EDOM: no panel with a sample;
 * -EINVAL: more than PLOT_PANELS_MAX panels). */
int plot_timeline_write(const char *path, const struct plot_timeline *tl,
			const struct plot_trace *t);

/* ---------------------------------------------- two sides per metric (3) */

struct plot_pair {
	const char *group;    /* a kernel's name */
	const char *node;     /* "tma_backend_bound" */
	double a, b;          /* each side's value, fraction of slots; NAN: none */
	double a_bound, b_bound; /* +/- fraction of slots (whiskers); 0: none */
	const char *verdict;  /* "agree", "DISAGREE", "n/a" */
	bool alarm;           /* the verdict drawn as an alarm (DISAGREE) */
};

struct plot_pairs {
	const char *title, *subtitle;
	const char *a_name, *b_name; /* "baretma (msr)", "perf_event (perf)" */
	size_t n;
	const struct plot_pair *pairs; /* in order, a group's pairs together */
	const struct plot_run *run;    /* what made it, or NULL */
};

/* plot_pairs_write - @p as paired horizontal bars into @path.  Returns as
 * plot_bars_write. */
int plot_pairs_write(const char *path, const struct plot_pairs *p, const struct plot_trace *t);

/* ------------------------------------------------ the commands' results */

/* plot_bench_write - a bench result's Top-down as stacked bars (kernels in
 * its order, the nodes the run reports), @run (may be NULL) in its header.
 * -EDOM: no Top-down in @res. */
int plot_bench_write(const char *path, const struct bench_result *res,
		     const struct plot_run *run, const struct plot_trace *t);

/* plot_compare_write - a comparison as paired bars with the verdicts, @run
 * in its header (-EDOM: no metric compared). */
int plot_compare_write(const char *path, const struct compare_result *res,
		       const struct plot_run *run, const struct plot_trace *t);

/* plot_report_write - a fleet (bench/study/report.h, after report_finish)
 * as one strip of points per group and figure, one point per host at its
 * distance from the group's median in cuts, outliers marked and named,
 * @run in its header (bench/output/plot_report.c).  -EDOM: no figure. */
struct report;
int plot_report_write(const char *path, const struct report *r, const struct plot_run *run,
		      const struct plot_trace *t);

#endif
