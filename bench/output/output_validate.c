/*
 * bench/output/output_validate.c - `baretma validate` as text lines and as the
 * JSON document "baretma-validate/1" (doc/json.md).
 */
#include <stdio.h>

#include "bench/output/output.h"
#include "bench/study/validate.h"
#include "cpu/escape.h"
#include "cpu/text.h"

static const char *status_name(enum validate_status s)
{
	return s == VALIDATE_PASS ? "PASS" : s == VALIDATE_FAIL ? "FAIL" : "SKIP";
}

static void validate_print(FILE *f, const struct validate_report *rep)
{
	for (size_t i = 0; i < rep->n; i++) {
		const struct validate_result *r = &rep->r[i];

		fprintf(f, "%-4s cpu %-3u %-26s", status_name(r->status), r->cpu, r->id);
		if (r->measured)
			esc_fprintf(f, " measured %s; expected %s", r->measured,
				    text_or_empty(r->expected));
		if (r->reason)
			esc_fprintf(f, "%s%s", r->measured ? " -- " : " ", r->reason);
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
			"measured", r->measured, "expected", r->expected, "source", r->source,
			"reason", bench_json_text(r->reason)));
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

static const char *kind_of(const struct validate_report *rep, unsigned cpu)
{
	const struct cpu_kind *k = rep->ci ? cpu_info_kind_of(rep->ci, cpu) : NULL;

	return k ? k->kind : "";
}

/* -x SEP: one record per check; validate measures PERF_METRICS and the
 * counters themselves, no recipe of events: that column is empty. */
static const char *const validate_columns[] = { "cpu", "kind", "recipe", "backend", "check",
	"status", "measured", "expected", "source", "reason", NULL };

static void validate_records(const void *result, output_record_fn record, void *arg)
{
	const struct validate_report *rep = result;

	for (size_t i = 0; i < rep->n; i++) {
		const struct validate_result *r = &rep->r[i];
		char cpu[16];
		const char *cells[] = { cpu, kind_of(rep, r->cpu), "",
			rep->backend ? rep->backend : "", r->id, status_name(r->status),
			text_or_empty(r->measured), text_or_empty(r->expected), r->source,
			text_or_empty(r->reason) };

		snprintf(cpu, sizeof(cpu), "%u", r->cpu);
		record(arg, cells);
	}
}

/* --openmetrics: each check as a state set (one series per result, 1 for
 * the one it had), so that an alert on result="fail" sees a check that
 * passed again; and the counts. */
static void validate_samples(const void *result, output_sample_fn sample, void *arg)
{
	static const enum validate_status st[] = { VALIDATE_PASS, VALIDATE_FAIL, VALIDATE_SKIP };
	static const char *const names[] = { "pass", "fail", "skip" };
	const struct validate_report *rep = result;
	unsigned count[] = { rep->pass, rep->fail, rep->skip };

	for (size_t i = 0; i < rep->n; i++) {
		const struct validate_result *r = &rep->r[i];
		char cpu[16];

		snprintf(cpu, sizeof(cpu), "%u", r->cpu);
		for (unsigned j = 0; j < 3; j++) {
			const char *l[] = { "cpu", cpu, "kind", kind_of(rep, r->cpu), "check", r->id,
					    "result", names[j], NULL };
			struct output_sample s = { .name = "validate_check", .labels = l,
				.value = r->status == st[j],
				.help = "1 for the result a validate check had (pass, fail, skip), "
					"0 for the others" };

			sample(arg, &s);
		}
	}
	for (unsigned j = 0; j < 3; j++) {
		const char *l[] = { "result", names[j], NULL };
		struct output_sample s = { .name = "validate_checks", .labels = l,
			.value = count[j], .help = "validate checks with this result" };

		sample(arg, &s);
	}
}

const struct output_view output_view_validate = {
	.text = validate_text, .json = validate_json,
	.columns = validate_columns, .records = validate_records, .samples = validate_samples,
};
