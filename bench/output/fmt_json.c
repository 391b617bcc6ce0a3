/*
 * bench/output/fmt_json.c - one JSON document per result (README "JSON
 * documents"): indented by 2, ASCII only (\uXXXX for the rest), reals with
 * 10 significant digits, one newline after it; the environment, when the
 * command gives one, as its last member "environment".
 */
#include <errno.h>

#include "bench/output/output.h"

static bool json_can_write(const struct output_view *view)
{
	return view->json != NULL;
}

static int json_write(FILE *f, const struct output_view *view, const void *result,
		      const struct output_params *p)
{
	json_t *environment = p ? p->environment : NULL;
	json_t *doc = view->json(result);
	int rc = 0;

	if (!doc || (environment && json_object_set(doc, "environment", environment)))
		rc = -ENOMEM;
	else if (json_dumpf(doc, f, JSON_INDENT(2) | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(10)))
		rc = -EIO;
	else
		fputc('\n', f);
	json_decref(doc);
	return rc;
}

const struct output_format output_format_json = {
	.name = "json", .option = "json", .document = true, .can_write = json_can_write,
	.write = json_write,
};
