/*
 * bench/output/plot_common.c - what the pictures share that needs no
 * cairo: the format by extension, the checks of the path, the colours of
 * the Top-down nodes, the series of a timeline (bench/output/plot.h).
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
 * The colours: one hue per level-1 node (the usual Top-down picture's:
 * Yasin, "A Top-Down Method for Performance Analysis and Counters
 * Architecture", ISPASS 2014, Fig. 1 draws the four categories; the hues
 * are ours, chosen apart for colour-blind readers: green, red, purple,
 * orange), each level-2 child a darker or lighter shade of its parent.
 * doc/plots.md lists them; t/0921 checks both against each other.
 */
static const struct plot_node_style styles[] = {
	{ "tma_retiring", NULL, "Retiring", 0x2C / 255.0, 0xA0 / 255.0, 0x2C / 255.0 },
	{ "tma_heavy_operations", "tma_retiring", "Heavy operations",
	  0x1A / 255.0, 0x6E / 255.0, 0x1A / 255.0 },
	{ "tma_light_operations", "tma_retiring", "Light operations",
	  0x8F / 255.0, 0xD9 / 255.0, 0x8F / 255.0 },
	{ "tma_bad_speculation", NULL, "Bad speculation", 0xD6 / 255.0, 0x27 / 255.0, 0x28 / 255.0 },
	{ "tma_branch_mispredicts", "tma_bad_speculation", "Branch mispredicts",
	  0x9E / 255.0, 0x1A / 255.0, 0x1B / 255.0 },
	{ "tma_machine_clears", "tma_bad_speculation", "Machine clears",
	  0xF2 / 255.0, 0x9B / 255.0, 0x9B / 255.0 },
	{ "tma_frontend_bound", NULL, "Frontend bound", 0x7E / 255.0, 0x57 / 255.0, 0xC2 / 255.0 },
	{ "tma_fetch_latency", "tma_frontend_bound", "Fetch latency",
	  0x51 / 255.0, 0x2D / 255.0, 0xA8 / 255.0 },
	{ "tma_fetch_bandwidth", "tma_frontend_bound", "Fetch bandwidth",
	  0xB3 / 255.0, 0x9D / 255.0, 0xDB / 255.0 },
	{ "tma_backend_bound", NULL, "Backend bound", 0xF2 / 255.0, 0x8E / 255.0, 0x2B / 255.0 },
	{ "tma_memory_bound", "tma_backend_bound", "Memory bound",
	  0xB3 / 255.0, 0x59 / 255.0, 0x00 / 255.0 },
	{ "tma_core_bound", "tma_backend_bound", "Core bound",
	  0xFF / 255.0, 0xC2 / 255.0, 0x85 / 255.0 },
	{ "tma_resource_bound", "tma_backend_bound", "Resource bound",
	  0xD9 / 255.0, 0x73 / 255.0, 0x1A / 255.0 },
	{ "smt_contention", NULL, "SMT contention", 0x7F / 255.0, 0x7F / 255.0, 0x7F / 255.0 },
};

const struct plot_node_style *plot_node_styles(size_t *n)
{
	*n = sizeof(styles) / sizeof(styles[0]);
	return styles;
}

const struct plot_node_style *plot_node_style(const char *node)
{
	static const struct plot_node_style other = { NULL, NULL, NULL, 0.70, 0.70, 0.70 };

	for (size_t i = 0; node && i < sizeof(styles) / sizeof(styles[0]); i++)
		if (!strcmp(styles[i].node, node))
			return &styles[i];
	return &other;
}

/* ------------------------------------------------------------ the series */

int plot_series_init(struct plot_series *s, unsigned nnodes, const char *const *nodes)
{
	*s = (struct plot_series){ 0 };
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
