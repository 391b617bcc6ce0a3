/*
 * t/0470-output-formats.c - the output formats (bench/output/output.h): the
 * table (text, the default, first; then json and csv, the options --json
 * and --csv; then -x's separated values and --openmetrics's metrics),
 * which results each can write (a view without records has no CSV, one
 * without a document no JSON: refused with -EOPNOTSUPP, nothing written),
 * and the bytes each writes for a result built here.
 *
 * Expected bytes are written out by hand from doc/csv.md (--csv is -x , :
 * the view's columns as a header, then one line per record, a field
 * holding a comma or a quote quoted) and doc/json.md (one
 * document, indented by 2, ASCII only: \uXXXX; reals with 10 significant
 * digits, so 0.1 + 0.2 is 0.3, not 0.30000000000000004), never from the
 * writers under test.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/output/output.h"
#include "t/fixture.h"
#include "t/tap.h"

/* ------------------------------------------------------------ a result */

struct toy {
	const char *name;
	double real;
	int text_rc;
};

static int toy_text(FILE *f, const void *result)
{
	const struct toy *t = result;

	fprintf(f, "toy %s\n", t->name);
	return t->text_rc;
}

static json_t *toy_json(const void *result)
{
	const struct toy *t = result;

	if (!t->name)
		return NULL; /* as a view does on ENOMEM */
	return json_pack("{s:s,s:f}", "name", t->name, "real", t->real);
}

/* Two records: one with an empty cell, one whose name holds a comma. */
static const char *const toy_columns[] = { "kernel", "quantity", "value", "bound_pp", NULL };

static void toy_records(const void *result, output_record_fn record, void *arg)
{
	const struct toy *t = result;
	const char *a[] = { t->name, "tsc_ticks", "2", NULL };
	const char *b[] = { "a,b", "tma_retiring", "40.125", "0.196078" };

	record(arg, a);
	record(arg, b);
}

static const struct output_view text_only = { .text = toy_text };
static const struct output_view full = {
	.text = toy_text, .json = toy_json, .columns = toy_columns, .records = toy_records,
};

/* What output_write wrote, in a static buffer; *@rc its return. */
static const char *written(const struct output_format *fmt, const struct output_view *v,
			   const struct toy *t, json_t *env, int *rc)
{
	static char *buf;
	size_t n = 0;
	FILE *f;

	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &n);
	if (!f) {
		printf("Bail out! open_memstream\n");
		exit(1);
	}
	*rc = output_write(f, fmt, v, t, env);
	fclose(f);
	return buf;
}

/* ------------------------------------------------------------ the tests */

static void test_table(void)
{
	static const struct { const char *name, *option; bool document; } want[] = {
		{ "text", NULL, false }, { "json", "json", true }, { "csv", "csv", false },
		{ "separated values", "field-separator", false },
		{ "openmetrics", "openmetrics", false },
	};
	size_t n = 0;

	for (; output_formats[n]; n++) {
		const struct output_format *f = output_formats[n];

		if (n >= sizeof(want) / sizeof(want[0]))
			continue;
		ok(!strcmp(f->name, want[n].name), "entry %zu is %s", n, want[n].name);
		ok(want[n].option ? f->option && !strcmp(f->option, want[n].option) : !f->option,
		   "%s: option %s%s", want[n].name, want[n].option ? "--" : "",
		   want[n].option ? want[n].option : "none (the default)");
		ok(f->document == want[n].document, "%s: %s", want[n].name,
		   want[n].document ? "one document (it carries the environment)" : "no document");
	}
	check_int(n, ==, 5, "five formats: text, json, csv, separated values (-x), openmetrics");
	ok(output_format_by_option("json") == &output_format_json, "--json: the json format");
	ok(output_format_by_option("csv") == &output_format_csv, "--csv: the csv format");
	ok(!output_format_by_option("text") && !output_format_by_option("xml") &&
	   !output_format_by_option(NULL), "no option names text, xml or nothing");
}

static void test_can_write(void)
{
	const struct toy t = { .name = "k" };
	const char *out;
	int rc;

	ok(output_can_write(&output_format_text, &text_only), "text writes a view with text");
	ok(!output_can_write(&output_format_json, &text_only), "json: not without a document");
	ok(!output_can_write(&output_format_csv, &text_only), "csv: not without records");
	ok(output_can_write(&output_format_csv, &full) && output_can_write(&output_format_json, &full),
	   "csv and json write a view with records and a document");
	out = written(&output_format_csv, &text_only, &t, NULL, &rc);
	check_int(rc, ==, -EOPNOTSUPP, "csv of a result without records: -EOPNOTSUPP");
	check_str(out, "", "and nothing written");
	out = written(&output_format_json, &text_only, &t, NULL, &rc);
	check_int(rc, ==, -EOPNOTSUPP, "json of a result without a document: -EOPNOTSUPP");
	check_str(out, "", "and nothing written");
}

static void test_text(void)
{
	struct toy t = { .name = "k" };
	json_t *env = json_pack("{s:s}", "e", "x");
	const char *out;
	int rc;

	out = written(NULL, &full, &t, env, &rc);
	check_int(rc, ==, 0, "text (NULL: the default) writes");
	check_str(out, "toy k\n", "the view's text, without the environment");
	t.text_rc = -EIO;
	written(&output_format_text, &full, &t, NULL, &rc);
	check_int(rc, ==, -EIO, "the text's own error is returned");
	json_decref(env);
}

static void test_csv(void)
{
	const struct toy t = { .name = "retire-light" };
	const char *out;
	int rc;

	out = written(&output_format_csv, &full, &t, NULL, &rc);
	check_int(rc, ==, 0, "csv writes");
	check_str(out,
		  "kernel,quantity,value,bound_pp\n"
		  "retire-light,tsc_ticks,2,\n"
		  "\"a,b\",tma_retiring,40.125,0.196078\n",
		  "csv: the header, then one line per record (empty cell empty, a comma quoted)");
	char *csv = strdup(out ? out : "");

	out = written(&output_format_sv, &full, &t, NULL, &rc);
	ok(rc == 0 && csv && !strcmp(out, csv), "-x with its default separator (,): the same bytes");
	free(csv);
}

/* The host a document names (doc/json.md "Host"): this one's nodename and
 * the machine-id written under the sysroot (t_host_known). */
#define T_ID "00112233445566778899aabbccddeeff"
static char host_name[65], host_root[PATH_MAX];

static void test_json(void)
{
	struct toy t = { .name = "caf\xc3\xa9", .real = 0.1 + 0.2 };
	json_t *env = json_pack("{s:s}", "e", "x");
	const char *out;
	char want[512];
	int rc;

	t_host_known(host_root, T_ID, host_name, sizeof(host_name));
	out = written(&output_format_json, &full, &t, env, &rc);
	check_int(rc, ==, 0, "json writes");
	snprintf(want, sizeof(want),
		 "{\n"
		 "  \"name\": \"caf\\u00E9\",\n"
		 "  \"real\": 0.3,\n"
		 "  \"host\": {\n"
		 "    \"hostname\": \"%s\",\n"
		 "    \"machine_id\": \"" T_ID "\"\n"
		 "  },\n"
		 "  \"environment\": {\n"
		 "    \"e\": \"x\"\n"
		 "  }\n"
		 "}\n", host_name);
	check_str(out, want,
		  "json: indent 2, ASCII (\\u00E9), 10 digits (0.3), the host (uname, "
		  "/etc/machine-id), the environment last, a newline");
	ok(json_object_size(env) == 1 && env->refcount == 1, "the environment is only borrowed");
	out = written(&output_format_json, &full, &t, NULL, &rc);
	ok(rc == 0 && !strstr(out, "environment"), "no environment given: none written");
	t.name = NULL;
	out = written(&output_format_json, &full, &t, env, &rc);
	check_int(rc, ==, -ENOMEM, "a document that cannot be built: -ENOMEM");
	check_str(out, "", "and nothing written");
	json_decref(env);
	t_rm_rf(host_root);
}

int main(void)
{
	test_table();
	test_can_write();
	test_text();
	test_csv();
	test_json();
	return done_testing();
}
