/*
 * bench/output/plot_common.c - what the pictures share that needs no
 * cairo: the format by extension, the checks of the path, the colours of
 * the Top-down nodes, the series of a timeline's panels (bench/output/plot.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/output/output.h"
#include "bench/output/plot.h"
#include "cpu/cpu.h"
#include "cpu/escape.h"

int plot_format_of(const char *path, enum plot_format *fmt)
{
	static const struct { const char *ext; enum plot_format f; } exts[] = {
		{ ".svg", PLOT_SVG }, { ".png", PLOT_PNG }, { ".pdf", PLOT_PDF },
	};
	const char *slash = path ? strrchr(path, '/') : NULL;
	const char *dot = path ? strrchr(slash ? slash : path, '.') : NULL;

	for (size_t i = 0; dot && i < sizeof(exts) / sizeof(exts[0]); i++)
		if (!strcasecmp(dot, exts[i].ext) && dot != (slash ? slash + 1 : path)) {
			*fmt = exts[i].f;
			return 0;
		}
	return -EINVAL;
}

/* The directory @path goes in can take a new file (as far as access(2)
 * knows: the writer's own create is the final word). */
static int dir_writable(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, (size_t)(slash - path) + 1) : strdup(".");
	int rc;

	if (!dir)
		return -ENOMEM;
	rc = faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) ? -errno : 0;
	free(dir);
	return rc;
}

int plot_check_path(const char *path)
{
	enum plot_format f;
	const char *why;
	int rc;

	if (plot_format_of(path, &f))
		return -EINVAL;
	if (!plot_available())
		return -ENOTSUP;
	/* the rule of every file a command writes (output.h) */
	rc = output_file_check(path, &why);
	if (rc == -EINVAL)
		return -EEXIST; /* a FIFO, a device, a socket */
	if (rc)
		return rc;
	return dir_writable(path);
}

/*
 * The colours, for colour-blind readers as much as for the others: each
 * level-1 node one of the eight of Okabe and Ito, "Color Universal Design
 * (CUD): how to make figures and presentations that are friendly to
 * colorblind people" (2008, https://jfly.uni-koeln.de/color/), chosen so
 * that no red stands beside a green in the stack (retiring, at its foot,
 * bluish green; bad speculation above it orange; frontend bound blue;
 * backend bound vermillion on top; AMD's smt_contention sky blue) and any
 * two neighbours stay apart to a protanope, a deuteranope and a tritanope
 * (t/1110); each level-2 child its parent mixed with black (40 %: the
 * darker; 20 %: a third child) or with white (half: the lighter), as
 * doc/plots.md says; t/0920 checks the table against the doc.
 */
/* Each channel rounded to 8 bits, as a file has it (a PNG's pixels, an
 * SVG's percent of 255): the table's colours are the doc's exactly. */
#define B8(x) ((int)((x) + 0.5) / 255.0)
#define RGB8(r, g, b) B8(r), B8(g), B8(b)
#define DARK8(r, g, b) RGB8((r) * 0.6, (g) * 0.6, (b) * 0.6)           /* 40 % black */
#define DARKISH8(r, g, b) RGB8((r) * 0.8, (g) * 0.8, (b) * 0.8)        /* 20 % black */
#define LIGHT8(r, g, b) RGB8(((r) + 255) / 2.0, ((g) + 255) / 2.0, ((b) + 255) / 2.0)
#define CUD(c) RGB8 c
#define DARK(c) DARK8 c
#define DARKISH(c) DARKISH8 c
#define LIGHT(c) LIGHT8 c
#define BLUISH_GREEN (0, 158, 115)
#define ORANGE (230, 159, 0)
#define BLUE (0, 114, 178)
#define VERMILLION (213, 94, 0)
#define SKY_BLUE (86, 180, 233)

static const struct plot_node_style styles[] = {
	{ "tma_retiring", NULL, "Retiring", CUD(BLUISH_GREEN) },
	{ "tma_heavy_operations", "tma_retiring", "Heavy operations", DARK(BLUISH_GREEN) },
	{ "tma_light_operations", "tma_retiring", "Light operations", LIGHT(BLUISH_GREEN) },
	{ "tma_bad_speculation", NULL, "Bad speculation", CUD(ORANGE) },
	{ "tma_branch_mispredicts", "tma_bad_speculation", "Branch mispredicts", DARK(ORANGE) },
	{ "tma_machine_clears", "tma_bad_speculation", "Machine clears", LIGHT(ORANGE) },
	{ "tma_frontend_bound", NULL, "Frontend bound", CUD(BLUE) },
	{ "tma_fetch_latency", "tma_frontend_bound", "Fetch latency", DARK(BLUE) },
	{ "tma_fetch_bandwidth", "tma_frontend_bound", "Fetch bandwidth", LIGHT(BLUE) },
	{ "tma_backend_bound", NULL, "Backend bound", CUD(VERMILLION) },
	{ "tma_memory_bound", "tma_backend_bound", "Memory bound", DARK(VERMILLION) },
	{ "tma_core_bound", "tma_backend_bound", "Core bound", LIGHT(VERMILLION) },
	{ "tma_resource_bound", "tma_backend_bound", "Resource bound", DARKISH(VERMILLION) },
	{ "smt_contention", NULL, "SMT contention", CUD(SKY_BLUE) },
};

const struct plot_node_style *plot_node_styles(size_t *n)
{
	*n = sizeof(styles) / sizeof(styles[0]);
	return styles;
}

const struct plot_node_style *plot_node_style(const char *node)
{
	/* black mixed with 70 % white: a grey no node has */
	static const struct plot_node_style other = { NULL, NULL, NULL,
						      RGB8(0.7 * 255, 0.7 * 255, 0.7 * 255) };

	for (size_t i = 0; node && i < sizeof(styles) / sizeof(styles[0]); i++)
		if (!strcmp(styles[i].node, node))
			return &styles[i];
	return &other;
}

/* ------------------------------------------------------------ the series */

int plot_series_init(struct plot_series *s, unsigned nnodes, const char *const *nodes)
{
	*s = (struct plot_series){ .nnodes = 0 };
	if (!nnodes || nnodes > PLOT_NODES_MAX)
		return -EINVAL;
	s->nnodes = nnodes;
	for (unsigned i = 0; i < nnodes; i++)
		s->nodes[i] = nodes[i];
	return 0;
}

int plot_series_add(struct plot_series *s, double t, const double *values)
{
	struct plot_sample *x;

	if (!isfinite(t) || (s->n && t < s->samples[s->n - 1].t))
		return -EINVAL;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;

		if (!(x = realloc(s->samples, cap * sizeof(*x))))
			return -ENOMEM;
		s->samples = x;
		s->cap = cap;
	}
	x = &s->samples[s->n++];
	x->t = t;
	for (unsigned i = 0; i < PLOT_NODES_MAX; i++)
		x->value[i] = i < s->nnodes ? values[i] : NAN;
	return 0;
}

void plot_series_free(struct plot_series *s)
{
	free(s->samples);
	s->samples = NULL;
	s->n = s->cap = 0;
}

void plot_timeline_free(struct plot_timeline *tl)
{
	for (unsigned i = 0; i < tl->npanels && i < PLOT_PANELS_MAX; i++)
		plot_series_free(&tl->panel[i]);
	tl->npanels = 0;
}

char *plot_brand(const struct cpu_info *ci)
{
	size_t blen = ci ? strnlen(ci->brand, sizeof(ci->brand)) : 0;
	char *b = malloc(4 * blen + sizeof("unknown CPU")); /* \xHH at most per byte */

	if (!b)
		return NULL;
	if (blen)
		esc_bytes(b, 4 * blen + 1, ci->brand, blen);
	else
		strcpy(b, "unknown CPU");
	return b;
}
