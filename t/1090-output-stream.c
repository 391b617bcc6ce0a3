/*
 * t/1090-output-stream.c - a stream of records through the table of
 * formats (bench/output/output.h output_stream_*): each format's own
 * stream hooks, never a test of its name.  A toy stream of two records and
 * an end, written in every format that streams, against bytes written
 * out by hand from bench/output/output.h and doc/csv.md:
 *   - text: the view's heading once (before the first record), each
 *     record's text, the end's text; no heading when no record came;
 *   - JSON: JSON Lines, each record and then the end one compact object
 *     on its own line;
 *   - CSV and -x SEP: the header once, each record's lines, nothing at the
 *     end (output_stream_has_end: false, so the command says the end on
 *     stderr); --csv the same bytes as -x , ;
 *   - OpenMetrics writes whole files, no stream: -EOPNOTSUPP, nothing
 *     written;
 * and what is refused: a view without what the format needs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/output/output.h"
#include "t/fixture.h"
#include "t/tap.h"

/* A record: an interval number and a value; the end: how many came. */
struct rec {
	int i;
	const char *v;
};

static int rec_text(FILE *f, const void *r)
{
	const struct rec *x = r;

	fprintf(f, "%d %s\n", x->i, x->v);
	return 0;
}

static int rec_head(FILE *f, const void *first)
{
	(void)first;
	fputs("#  i value\n", f);
	return 0;
}

static json_t *rec_json(const void *r)
{
	const struct rec *x = r;

	return json_pack("{s:s,s:i,s:s}", "type", "record", "i", x->i, "v", x->v);
}

static const char *const rec_columns[] = { "i", "value", NULL };

/* Two lines per record: its value, and one that needs quoting. */
static void rec_records(const void *r, output_record_fn record, void *arg)
{
	const struct rec *x = r;
	char i[16];
	const char *a[] = { i, x->v }, *b[] = { i, "p;q,r" };

	snprintf(i, sizeof(i), "%d", x->i);
	record(arg, a);
	record(arg, b);
}

static const struct output_view rec_view = {
	.text = rec_text, .text_head = rec_head, .json = rec_json, .columns = rec_columns,
	.records = rec_records,
};

static int end_text(FILE *f, const void *r)
{
	fprintf(f, "%d records\n", *(const int *)r);
	return 0;
}

static json_t *end_json(const void *r)
{
	return json_pack("{s:s,s:i}", "type", "end", "records", *(const int *)r);
}

static const struct output_view end_view = {
	.text = end_text, .json = end_json, .columns = rec_columns, .records = rec_records,
};

/* The stream of @n records then the end, in @fmt with separator @sep; *@rc
 * the first failure; the bytes in a static buffer. */
static const char *streamed(const struct output_format *fmt, const char *sep, int n, int *rc)
{
	static char *buf;
	static const struct rec r[] = { { 1, "a" }, { 2, "b\"c" } };
	struct output_params p = { .separator = sep };
	struct output_stream st;
	size_t len = 0;
	int count = n;
	FILE *f;

	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	if (!f) {
		printf("Bail out! open_memstream\n");
		exit(1);
	}
	*rc = output_stream_open(&st, f, fmt, &rec_view, &p);
	for (int i = 0; !*rc && i < n; i++)
		*rc = output_stream_record(&st, &r[i]);
	if (!*rc)
		*rc = output_stream_end(&st, &end_view, &count);
	fclose(f);
	return buf ? buf : "";
}

static void test_text(void)
{
	int rc;
	const char *out = streamed(NULL, NULL, 2, &rc);

	check_int(rc, ==, 0, "text (NULL: the default) streams");
	check_str(out, "#  i value\n1 a\n2 b\"c\n2 records\n",
		  "text: the heading once, each record, then the end's text");
	out = streamed(&output_format_text, NULL, 0, &rc);
	check_str(out, "0 records\n", "text, no record: the end alone, no heading above it");
	ok(output_stream_has_end(&output_format_text) && output_stream_has_end(NULL),
	   "text has an end (its summary)");
}

static void test_json(void)
{
	int rc;
	char root[PATH_MAX], name[65], want[512];
	const char *out;

	/* The end names the host (doc/json.md "Common rules"), the records do not. */
	t_host_known(root, "00112233445566778899aabbccddeeff", name, sizeof(name));
	out = streamed(&output_format_json, NULL, 2, &rc);
	check_int(rc, ==, 0, "json streams");
	snprintf(want, sizeof(want),
		 "{\"type\":\"record\",\"i\":1,\"v\":\"a\"}\n"
		 "{\"type\":\"record\",\"i\":2,\"v\":\"b\\\"c\"}\n"
		 "{\"type\":\"end\",\"records\":2,\"host\":{\"hostname\":\"%s\","
		 "\"machine_id\":\"00112233445566778899aabbccddeeff\"}}\n", name);
	check_str(out, want,
		  "json: JSON Lines, one compact object per record, the end last, naming the host");
	t_rm_rf(root);
	ok(output_stream_has_end(&output_format_json), "json has an end (its end object)");
}

static void test_sv(void)
{
	int rc;
	char *csv;
	const char *out = streamed(&output_format_csv, NULL, 2, &rc);

	check_int(rc, ==, 0, "csv streams");
	check_str(out,
		  "i,value\n"
		  "1,a\n1,\"p;q,r\"\n"
		  "2,\"b\"\"c\"\n2,\"p;q,r\"\n",
		  "csv: the header once, each record's lines (RFC 4180 quoting), nothing at the end");
	csv = strdup(out);
	out = streamed(&output_format_sv, ",", 2, &rc);
	ok(rc == 0 && csv && !strcmp(out, csv), "-x , : the same bytes as --csv");
	free(csv);
	out = streamed(&output_format_sv, ";", 2, &rc);
	check_str(out, "i;value\n1;a\n1;\"p;q,r\"\n2;\"b\"\"c\"\n2;\"p;q,r\"\n",
		  "-x ';': the same records with ';' (a field holding ';' quoted)");
	out = streamed(&output_format_csv, NULL, 0, &rc);
	ok(rc == 0 && !strcmp(out, ""), "csv, no record: nothing (no header without rows)");
	ok(!output_stream_has_end(&output_format_csv) && !output_stream_has_end(&output_format_sv),
	   "csv and -x have no end: the command says it on stderr");
	out = streamed(&output_format_sv, "\"", 2, &rc);
	check_int(rc, ==, -EINVAL, "-x with a quote for separator: -EINVAL at the first record");
}

static void test_refused(void)
{
	struct output_stream st;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const struct output_view text_only = { .text = rec_text };
	int rc;

	const char *out = streamed(&output_format_openmetrics, NULL, 2, &rc);
	check_int(rc, ==, -EOPNOTSUPP, "openmetrics writes whole files, no stream: -EOPNOTSUPP");
	check_str(out, "", "and nothing written");
	ok(!output_stream_can(&output_format_openmetrics, &rec_view), "openmetrics cannot stream");
	check_int(output_stream_open(&st, f, &output_format_json, &text_only, NULL), ==,
		  -EOPNOTSUPP, "json of records without a document: -EOPNOTSUPP");
	check_int(output_stream_record(&st, &(struct rec){ 1, "a" }), ==, -EOPNOTSUPP,
		  "and a record to that stream too");
	check_int(output_stream_open(&st, f, &output_format_csv, &text_only, NULL), ==,
		  -EOPNOTSUPP, "csv of records without columns: -EOPNOTSUPP");
	check_int(output_stream_open(&st, f, &output_format_text, &text_only, NULL), ==, 0,
		  "text of records with text and no heading: fine");
	check_int(output_stream_record(&st, &(struct rec){ 7, "x" }), ==, 0, "a record");
	check_int(output_stream_end(&st, &(struct output_view){ 0 }, NULL), ==, -EOPNOTSUPP,
		  "an end the format cannot write: -EOPNOTSUPP");
	fclose(f);
	check_str(buf, "7 x\n", "a view without a heading: the records alone");
	free(buf);
}

int main(void)
{
	test_text();
	test_json();
	test_sv();
	test_refused();
	return done_testing();
}
