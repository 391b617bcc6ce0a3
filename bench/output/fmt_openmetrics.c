/*
 * bench/output/fmt_openmetrics.c - metrics for monitoring in the
 * OpenMetrics 1.0 text format (the option's name;
 * https://github.com/OpenObservability/OpenMetrics/blob/main/specification/OpenMetrics.md),
 * written so that the Prometheus text format 0.0.4 reads the same
 * samples, since node_exporter's textfile collector parses *.prom with
 * that format's parser (node_exporter collector/textfile.go:
 * expfmt.TextParser): per family, in the order its first sample came,
 *   # TYPE baretma_NAME gauge
 *   # UNIT baretma_NAME UNIT           (when the family has a unit)
 *   # HELP baretma_NAME <help, '\' and line feed escaped as \\ and \n>
 *   baretma_NAME{label="value",...} VALUE
 * and after the last family the line "# EOF", which OpenMetrics requires
 * ("Expositions MUST end with EOF").  The Prometheus text format takes
 * "# UNIT" and "# EOF" for comments ("ignored unless the first token
 * after # is either HELP or TYPE": https://prometheus.io/docs/instrumenting/exposition_formats/,
 * prometheus/common expfmt/text_parse.go startComment); the one
 * difference that would break it, OpenMetrics' \" in HELP (the text
 * format's parser refuses it: "invalid escape sequence"), never occurs: a
 * help with a double quote is refused (-EINVAL).
 * "MetricFamilies MUST NOT be interleaved": samples are grouped here,
 * whatever order the view gives them in.  Label values escape '\', '"'
 * and line feed as \\, \" and \n (both formats); any other byte outside
 * printable ASCII becomes '?' (both are UTF-8; these files are read by
 * other tools, and a value from CPUID could be anything).  Values: the 15
 * digits a double holds (output_number; OpenMetrics warns that %g's six
 * are not enough), "NaN", "+Inf", "-Inf".  No timestamps: the textfile
 * collector refuses files that carry them.  Names: [a-zA-Z0-9_] only
 * (OpenMetrics reserves ':' for aggregations, a leading '_' for itself),
 * and no gauge named as another type's samples are (_total, _created,
 * _count, _sum, _bucket, _gcount, _gsum, _info: its "Suffixes").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/output/output.h"

#define PREFIX "baretma_"

struct om_sample {
	const char *name, *help, *unit;
	char *labels;   /* "{a=\"1\",b=\"x\"}" or "" */
	double value;
};

struct om {
	struct om_sample *s;
	size_t n, cap;
	int err;
};

static bool om_can_write(const struct output_view *view)
{
	return view->samples != NULL;
}

/* [a-zA-Z][a-zA-Z0-9_]*: a label's name, or a family's after the prefix
 * (then a leading '_' or digit would do, but none is given). */
static bool valid_name(const char *s)
{
	if (!s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

static bool ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);

	return n >= m && !strcmp(s + n - m, end);
}

/* A family's name, help and unit as OpenMetrics and the text format both
 * take them (the top of the file). */
static bool valid_family(const struct output_sample *s)
{
	static const char *const taken[] = { "_total", "_created", "_count", "_sum", "_bucket",
					     "_gcount", "_gsum", "_info" };

	if (!valid_name(s->name) || !s->help || strchr(s->help, '"'))
		return false;
	for (size_t i = 0; i < sizeof(taken) / sizeof(taken[0]); i++)
		if (ends_with(s->name, taken[i]))
			return false;
	if (s->unit) { /* "an underscore and the unit MUST be the suffix" (of
			* PREFIX NAME: "baretma_slots", unit "slots") */
		size_t n = strlen(s->name), u = strlen(s->unit);

		if (!valid_name(s->unit) || n < u || strcmp(s->name + n - u, s->unit) ||
		    (n > u && s->name[n - u - 1] != '_'))
			return false;
	}
	return true;
}

/* Append @s to the growing string *@buf (*@len bytes, NUL-terminated). */
static int append(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t c = (*cap ? *cap * 2 : 64) + n;
		char *b = realloc(*buf, c);

		if (!b)
			return -ENOMEM;
		*buf = b;
		*cap = c;
	}
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[*len] = '\0';
	return 0;
}

/* A label value, escaped (see the top of the file). */
static int append_value(char **buf, size_t *len, size_t *cap, const char *v)
{
	int rc = 0;

	for (const unsigned char *p = (const unsigned char *)(v ? v : ""); !rc && *p; p++) {
		if (*p == '\\')
			rc = append(buf, len, cap, "\\\\", 2);
		else if (*p == '"')
			rc = append(buf, len, cap, "\\\"", 2);
		else if (*p == '\n')
			rc = append(buf, len, cap, "\\n", 2);
		else if (*p < 0x20 || *p > 0x7e)
			rc = append(buf, len, cap, "?", 1);
		else
			rc = append(buf, len, cap, (const char *)p, 1);
	}
	return rc;
}

/* {name="value",...} of @labels (pairs, NULL-terminated); "" when none. */
static int labels_text(const char *const *labels, char **out)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;
	int rc = append(&buf, &len, &cap, "", 0);

	for (size_t i = 0; !rc && labels && labels[i]; i += 2) {
		if (!valid_name(labels[i]) || !labels[i + 1])
			rc = -EINVAL;
		if (!rc)
			rc = append(&buf, &len, &cap, i ? "," : "{", 1);
		if (!rc)
			rc = append(&buf, &len, &cap, labels[i], strlen(labels[i]));
		if (!rc)
			rc = append(&buf, &len, &cap, "=\"", 2);
		if (!rc)
			rc = append_value(&buf, &len, &cap, labels[i + 1]);
		if (!rc)
			rc = append(&buf, &len, &cap, "\"", 1);
	}
	if (!rc && len)
		rc = append(&buf, &len, &cap, "}", 1);
	if (rc) {
		free(buf);
		return rc;
	}
	*out = buf;
	return 0;
}

static void om_sample(void *arg, const struct output_sample *s)
{
	struct om *om = arg;
	struct om_sample *x;

	if (om->err)
		return;
	if (!valid_family(s)) {
		om->err = -EINVAL;
		return;
	}
	for (size_t i = 0; i < om->n; i++) /* a family's samples: one help, one unit */
		if (!strcmp(om->s[i].name, s->name) &&
		    (strcmp(om->s[i].help, s->help) || !om->s[i].unit != !s->unit ||
		     (s->unit && strcmp(om->s[i].unit, s->unit)))) {
			om->err = -EINVAL;
			return;
		}
	if (om->n == om->cap) {
		size_t cap = om->cap ? om->cap * 2 : 64;
		struct om_sample *p = realloc(om->s, cap * sizeof(*p));

		if (!p) {
			om->err = -ENOMEM;
			return;
		}
		om->s = p;
		om->cap = cap;
	}
	x = &om->s[om->n];
	*x = (struct om_sample){ .name = s->name, .help = s->help, .unit = s->unit,
				 .value = s->value };
	if ((om->err = labels_text(s->labels, &x->labels)) == 0)
		om->n++;
}

static void put_value(FILE *f, double v)
{
	char buf[OUTPUT_NUMBER_MAX];

	fputs(output_number(buf, sizeof(buf), v), f);
}

/* "# HELP" text: '\' and line feed escaped (both formats; '"' refused). */
static void put_help(FILE *f, const char *help)
{
	for (const char *p = help; *p; p++) {
		if (*p == '\\')
			fputs("\\\\", f);
		else if (*p == '\n')
			fputs("\\n", f);
		else
			fputc(*p, f);
	}
}

/* Each family once, its samples together, then "# EOF"; a series twice
 * is a view's mistake: -EINVAL, nothing of it hidden. */
static int om_print(FILE *f, const struct om *om)
{
	for (size_t i = 0; i < om->n; i++) {
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(om->s[j].name, om->s[i].name);
		if (seen)
			continue;
		/* "The ordering SHOULD be TYPE, UNIT, HELP" */
		fprintf(f, "# TYPE " PREFIX "%s gauge\n", om->s[i].name);
		if (om->s[i].unit)
			fprintf(f, "# UNIT " PREFIX "%s %s\n", om->s[i].name, om->s[i].unit);
		fprintf(f, "# HELP " PREFIX "%s ", om->s[i].name);
		put_help(f, om->s[i].help);
		fputc('\n', f);
		for (size_t j = i; j < om->n; j++) {
			if (strcmp(om->s[j].name, om->s[i].name))
				continue;
			for (size_t k = i; k < j; k++)
				if (!strcmp(om->s[k].name, om->s[j].name) &&
				    !strcmp(om->s[k].labels, om->s[j].labels))
					return -EINVAL;
			fprintf(f, PREFIX "%s%s ", om->s[j].name, om->s[j].labels);
			put_value(f, om->s[j].value);
			fputc('\n', f);
		}
	}
	fputs("# EOF\n", f);
	return ferror(f) ? -EIO : 0;
}

static int om_write(FILE *f, const struct output_view *view, const void *result,
		    const struct output_params *p)
{
	struct om om = { 0 };
	int rc;

	(void)p;
	view->samples(result, om_sample, &om);
	rc = om.err ? om.err : om_print(f, &om);
	for (size_t i = 0; i < om.n; i++)
		free(om.s[i].labels);
	free(om.s);
	return rc;
}

const struct output_format output_format_openmetrics = {
	.name = "openmetrics", .option = "openmetrics", .can_write = om_can_write,
	.write = om_write,
};
