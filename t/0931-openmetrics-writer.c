/*
 * t/0931-openmetrics-writer - the OpenMetrics writer
 * (bench/output/fmt_openmetrics.c) and the separated-values writer
 * (fmt_sv.c, -x SEP) on results built here, against bytes written out by
 * hand from their specifications:
 *   - OpenMetrics 1.0 (OpenObservability/OpenMetrics
 *     specification/OpenMetrics.md), as the Prometheus text format
 *     (prometheus.io/docs/instrumenting/exposition_formats) also reads it:
 *     "# TYPE name gauge", "# UNIT name unit" where the family has one,
 *     "# HELP name text" once per family before its samples ("The
 *     ordering SHOULD be TYPE, UNIT, HELP"), all of a family's samples in
 *     one group, "# EOF" last ("Expositions MUST end with EOF"), label
 *     values escaping backslash, double quote and line feed as \\, \" and
 *     \n, HELP text escaping backslash and line feed; NaN and +Inf/-Inf
 *     spelt so; any other label byte outside printable ASCII 0x20-0x7e
 *     (ESC, DEL, UTF-8's) as '?' (fmt_openmetrics.c: the files are read by
 *     other tools);
 *   - RFC 4180 with SEP for the comma: a field holding SEP or a quote is
 *     quoted, its quotes doubled.
 * And what each refuses: a series twice, a bad metric or label name
 * (-EINVAL, a view's mistake never hidden), which OpenMetrics' rules add
 * to: a unit that is not the name's suffix ("an underscore and the unit
 * MUST be the suffix of the MetricFamily name"), a gauge named as another
 * type's samples are ("_total": its "Suffixes"), a label name with a
 * leading '_' (reserved), a family whose samples disagree on its help or
 * unit (one metadata line of each), and a help holding a double quote
 * (OpenMetrics would escape it \", which the text format's parser in
 * node_exporter refuses: "invalid escape sequence"); a separator with a
 * quote or a line break, empty or too long.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/output/output.h"
#include "t/tap.h"

/* A result that is a list of samples. */
struct toy {
	const struct output_sample *s;
	size_t n;
};

static void toy_samples(const void *result, output_sample_fn sample, void *arg)
{
	const struct toy *t = result;

	for (size_t i = 0; i < t->n; i++)
		sample(arg, &t->s[i]);
}

static const char *const cols[] = { "cpu", "name", "value", NULL };

/* Two records: one plain, one with the separator, a quote, a control byte. */
static void toy_records(const void *result, output_record_fn record, void *arg)
{
	const char *a[] = { "0", "plain", "1.5" };
	const char *b[] = { "1", "x;y \"q\"", "a\tb" };

	(void)result;
	record(arg, a);
	record(arg, b);
}

static const struct output_view view = {
	.samples = toy_samples, .columns = cols, .records = toy_records,
};

static const char *written(const struct output_format *fmt, const void *result,
			   const char *sep, int *rc)
{
	static char *buf;
	size_t n = 0;
	FILE *f;
	struct output_params p = { .separator = sep };

	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &n);
	if (!f) {
		printf("Bail out! open_memstream\n");
		exit(1);
	}
	*rc = output_write_params(f, fmt, &view, result, &p);
	fclose(f);
	return buf;
}

static void test_openmetrics(void)
{
	const char *l0[] = { "cpu", "3", "node", "tma_retiring", NULL };
	const char *l1[] = { "cpu", "3", NULL };
	const char *l2[] = { "cpu", "4", "node", "tma_retiring", NULL };
	const char *esc[] = { "v", "a\"b\\c\nd", "w", "\x1b[0m\x7f\xc3\xa9", NULL };
	const struct output_sample s[] = {
		{ "tma_ratio", "a share", l0, 0.251, "ratio" },
		{ "slots", "slots, a \\ and\na line", l1, 600000, "slots" },
		{ "tma_ratio", "a share", l2, NAN, "ratio" }, /* back to the first family */
		{ "odd", "escapes", esc, INFINITY, NULL },
		{ "none", "no labels", NULL, -INFINITY, NULL },
	};
	struct toy t = { s, 5 };
	int rc;
	const char *out = written(&output_format_openmetrics, &t, NULL, &rc);

	check_int(rc, ==, 0, "openmetrics writes");
	check_str(out,
		"# TYPE baretma_tma_ratio gauge\n"
		"# UNIT baretma_tma_ratio ratio\n"
		"# HELP baretma_tma_ratio a share\n"
		"baretma_tma_ratio{cpu=\"3\",node=\"tma_retiring\"} 0.251\n"
		"baretma_tma_ratio{cpu=\"4\",node=\"tma_retiring\"} NaN\n"
		"# TYPE baretma_slots gauge\n"
		"# UNIT baretma_slots slots\n"
		"# HELP baretma_slots slots, a \\\\ and\\na line\n"
		"baretma_slots{cpu=\"3\"} 600000\n"
		"# TYPE baretma_odd gauge\n"
		"# HELP baretma_odd escapes\n"
		"baretma_odd{v=\"a\\\"b\\\\c\\nd\",w=\"?[0m???\"} +Inf\n"
		"# TYPE baretma_none gauge\n"
		"# HELP baretma_none no labels\n"
		"baretma_none -Inf\n"
		"# EOF\n",
		"families grouped in first-seen order, TYPE/UNIT/HELP once, escapes per the spec, "
		"# EOF last");
	t = (struct toy){ NULL, 0 };
	out = written(&output_format_openmetrics, &t, NULL, &rc);
	ok(rc == 0 && !strcmp(out, "# EOF\n"), "no sample: an empty MetricSet, # EOF alone");

	const struct output_sample dup[] = { { "a", "h", l1, 1, NULL }, { "a", "h", l1, 2, NULL } };
	t = (struct toy){ dup, 2 };
	written(&output_format_openmetrics, &t, NULL, &rc);
	check_int(rc, ==, -EINVAL, "a series twice: -EINVAL");

	const char *bad_label[] = { "0cpu", "1", NULL };
	const struct output_sample bad[] = { { "a", "h", bad_label, 1, NULL } };
	t = (struct toy){ bad, 1 };
	written(&output_format_openmetrics, &t, NULL, &rc);
	check_int(rc, ==, -EINVAL, "a label name starting with a digit: -EINVAL");

	const struct output_sample badn[] = { { "a-b", "h", NULL, 1, NULL } };
	t = (struct toy){ badn, 1 };
	written(&output_format_openmetrics, &t, NULL, &rc);
	check_int(rc, ==, -EINVAL, "a metric name with '-': -EINVAL");

	const struct { struct output_sample s[2]; size_t n; const char *why; } om_bad[] = {
		{ { { "tma_share", "h", NULL, 1, "ratio" } }, 1,
		  "unit ratio of tma_share (not its suffix)" },
		{ { { "tmaratio", "h", NULL, 1, "ratio" } }, 1,
		  "unit ratio of tmaratio (no underscore before it)" },
		{ { { "runs_total", "h", NULL, 1, NULL } }, 1, "a gauge named _total (a counter's)" },
		{ { { "a_info", "h", NULL, 1, NULL } }, 1, "a gauge named _info (an info's)" },
		{ { { "a:b", "h", NULL, 1, NULL } }, 1, "a ':' (reserved for aggregations)" },
		{ { { "a", "say \"x\"", NULL, 1, NULL } }, 1, "a help with a double quote" },
		{ { { "a", "h", (const char *[]){ "_x", "1", NULL }, 1, NULL } }, 1,
		  "a label name with a leading _ (reserved)" },
		{ { { "a", "h", (const char *[]){ "x", "1", NULL }, 1, NULL },
		    { "a", "other", (const char *[]){ "x", "2", NULL }, 2, NULL } }, 2,
		  "one family, two helps" },
		{ { { "a_ticks", "h", (const char *[]){ "x", "1", NULL }, 1, "ticks" },
		    { "a_ticks", "h", (const char *[]){ "x", "2", NULL }, 2, NULL } }, 2,
		  "one family, a unit and none" },
	};
	for (size_t i = 0; i < sizeof(om_bad) / sizeof(om_bad[0]); i++) {
		t = (struct toy){ om_bad[i].s, om_bad[i].n };
		written(&output_format_openmetrics, &t, NULL, &rc);
		ok(rc == -EINVAL, "%s: -EINVAL (%d)", om_bad[i].why, rc);
	}

	ok(!output_can_write(&output_format_openmetrics, &(struct output_view){ 0 }),
	   "a view without samples has no metrics");
}

static void test_sv(void)
{
	int rc;
	const char *out = written(&output_format_sv, NULL, ";", &rc);

	check_int(rc, ==, 0, "-x ';' writes");
	check_str(out, "cpu;name;value\n0;plain;1.5\n1;\"x;y \"\"q\"\"\";a\\x09b\n",
		  "header, a plain record, a quoted field with doubled quotes, a tab escaped");
	out = written(&output_format_sv, NULL, NULL, &rc);
	check_str(out, "cpu,name,value\n0,plain,1.5\n1,\"x;y \"\"q\"\"\",a\\x09b\n",
		  "no separator given: a comma; ';' needs no quotes then, the quote does");
	out = written(&output_format_sv, NULL, "::", &rc);
	check_str(out, "cpu::name::value\n0::plain::1.5\n1::\"x;y \"\"q\"\"\"::a\\x09b\n",
		  "a separator of two bytes, as perf stat -x takes one");
	check_int(output_sv_sep_check(","), ==, 0, "',' is a separator");
	check_int(output_sv_sep_check("\t"), ==, 0, "a tab is a separator");
	check_int(output_sv_sep_check(""), ==, -EINVAL, "empty: refused");
	check_int(output_sv_sep_check("\""), ==, -EINVAL, "a quote: refused");
	check_int(output_sv_sep_check("a\nb"), ==, -EINVAL, "a line feed: refused");
	check_int(output_sv_sep_check("123456789"), ==, -EINVAL, "9 bytes: refused (8 at most)");
	written(&output_format_sv, NULL, "\"", &rc);
	check_int(rc, ==, -EINVAL, "the writer refuses a quote as separator too");
}

int main(void)
{
	test_openmetrics();
	test_sv();
	return done_testing();
}
