/*
 * bench/output/fmt_json.c - one JSON document per result (doc/json.md "JSON
 * documents"): indented by 2, ASCII only (\uXXXX for the rest), reals with
 * 10 significant digits, one newline after it; the host that wrote it as
 * "host" (host_to_json: every file a host writes names it, doc/json.md "Host"),
 * and the environment, when the command gives one, as its last member
 * "environment".  A stream (stat
 * -I) is JSON Lines (https://jsonlines.org): each record, then the end,
 * one compact object on one line.
 */
#include <errno.h>

#include "bench/output/output.h"

static bool json_can_write(const struct output_view *view)
{
	return view->json != NULL;
}

/* @result's document (with the host and @p's environment when @whole, not
 * a record of a stream) in @flags, a newline after. */
static int json_put(FILE *f, const struct output_view *view, const void *result,
		    const struct output_params *p, size_t flags, bool whole)
{
	json_t *environment = p ? p->environment : NULL;
	json_t *doc = view->json(result);
	int rc = 0;

	if (!doc || (whole && json_object_set_new(doc, "host", host_to_json())) ||
	    (environment && json_object_set(doc, "environment", environment)))
		rc = -ENOMEM;
	else if (json_dumpf(doc, f, flags | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(10)))
		rc = -EIO;
	else
		fputc('\n', f);
	json_decref(doc);
	return rc;
}

static int json_write(FILE *f, const struct output_view *view, const void *result,
		      const struct output_params *p)
{
	return json_put(f, view, result, p, JSON_INDENT(2), true);
}

/* A record of JSON Lines: the document alone, no environment in each. */
static int json_record(FILE *f, const struct output_view *view, const void *record,
		       const struct output_params *p)
{
	(void)p;
	return json_put(f, view, record, NULL, JSON_COMPACT, false);
}

static int json_end(FILE *f, const struct output_view *view, const void *result,
		    const struct output_params *p)
{
	return json_put(f, view, result, p, JSON_COMPACT, true);
}

const struct output_format output_format_json = {
	.name = "json", .option = "json", .document = true, .can_write = json_can_write,
	.write = json_write, .record = json_record, .end = json_end,
};
