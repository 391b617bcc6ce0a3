/*
 * bench/output/output_validate.c - `baretma validate` as text lines and as the
 * JSON document "baretma-validate/1" (README "JSON documents").
 */
#include <stdio.h>

#include "bench/output/output.h"
#include "bench/study/validate.h"
#include "cpu/escape.h"

static const char *status_name(enum validate_status s)
{
	return s == VALIDATE_PASS ? "PASS" : s == VALIDATE_FAIL ? "FAIL" : "SKIP";
}

static void validate_print(FILE *f, const struct validate_report *rep)
{
	for (size_t i = 0; i < rep->n; i++) {
		const struct validate_result *r = &rep->r[i];

		fprintf(f, "%-4s cpu %-3u %-26s", status_name(r->status), r->cpu, r->id);
		if (r->measured[0])
			esc_fprintf(f, " measured %s; expected %s", r->measured, r->expected);
		if (r->reason[0])
			esc_fprintf(f, "%s%s", r->measured[0] ? " -- " : " ", r->reason);
		fprintf(f, "\n     source: %s\n", r->source);
	}
	fprintf(f, "\n%u passed, %u failed, %u skipped\n", rep->pass, rep->fail, rep->skip);
}

json_t *validate_to_json(const struct validate_report *rep)
{
	json_t *checks = json_array();
	json_t *doc = json_pack("{s:s,s:{s:I,s:I,s:I}}", "schema", "baretma-validate/1",
				"summary", "pass", (json_int_t)rep->pass, "fail",
				(json_int_t)rep->fail, "skip", (json_int_t)rep->skip);

	for (size_t i = 0; checks && i < rep->n; i++) {
		const struct validate_result *r = &rep->r[i];

		json_array_append_new(checks, json_pack("{s:I,s:s,s:s,s:s?,s:s?,s:s,s:o}",
			"cpu", (json_int_t)r->cpu, "check", r->id, "status", status_name(r->status),
			"measured", r->measured[0] ? r->measured : NULL,
			"expected", r->expected[0] ? r->expected : NULL, "source", r->source,
			"reason", bench_json_text(r->reason[0] ? r->reason : NULL)));
	}
	if (doc && checks)
		json_object_set_new(doc, "checks", checks);
	else
		json_decref(checks);
	return doc;
}

static int validate_text(FILE *f, const void *result)
{
	validate_print(f, result);
	return 0;
}

static json_t *validate_json(const void *result)
{
	return validate_to_json(result);
}

const struct output_view output_view_validate = { .text = validate_text, .json = validate_json };
