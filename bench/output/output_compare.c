/*
 * bench/output/output_compare.c - `baretma compare` as a text table and as the
 * JSON document "baretma-compare/2" (doc/json.md).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/output/output.h"
#include "bench/study/compare.h"
#include "cpu/escape.h"
#include "cpu/text.h"
#include "msr/regs/msr_names.h"

const char *compare_perf_changed_text(const struct compare_result *res, char *buf, size_t n)
{
	return bench_perf_changed_text(res->cpu_used, res->perf_changed, res->nperf_changed,
				       "compare", buf, n);
}

static json_t *changed_json(const struct compare_result *res)
{
	json_t *a = json_array();

	for (int i = 0; a && i < res->nperf_changed; i++) {
		const struct journal_change *c = &res->perf_changed[i];
		char label[64], msr[16], before[24], after[24];

		snprintf(msr, sizeof(msr), "0x%" PRIx32, c->msr);
		snprintf(before, sizeof(before), "0x%" PRIx64, c->saved);
		snprintf(after, sizeof(after), "0x%" PRIx64, c->now);
		json_array_append_new(a, json_pack("{s:s,s:s,s:s,s:s}", "register",
						   msr_reg_name(c->msr) ? msr_reg_name(c->msr)
						   : msr_reg_label(c->msr, label, sizeof(label)),
						   "msr", msr, "before", before, "perf_left", after));
	}
	return a;
}

static void compare_print_table(FILE *f, const struct compare_result *res)
{
	esc_fprintf(f, "cpu %u: %s, family %u model 0x%X\n", res->cpu_used, res->cpu.brand,
		    res->cpu.family, res->cpu.model);
	if (res->recipe)
		fprintf(f, "raw path: %s; perf_event: %s (recipe %s:%s, its events as raw perf "
			"events, %s); level %d; %u pairs of blocks, %u repetitions per kernel per "
			"block\n", bench_backend_name(res->raw_backend),
			bench_backend_name(res->perf_backend), res->recipe->name,
			res->recipe->variant, bench_backend_how(res->perf_backend), res->level,
			res->pairs, res->reps);
	else
		fprintf(f, "raw path: %s; perf_event: %s (slots + topdown-* group, %s); level %d; "
			"%u pairs of blocks, %u repetitions per kernel per block\n",
			bench_backend_name(res->raw_backend), bench_backend_name(res->perf_backend),
			bench_backend_how(res->perf_backend), res->level, res->pairs, res->reps);
	if (res->raw_formulas && res->raw_formulas->notes)
		fprintf(f, "left out (raw, %s:%s): %s\n", res->raw_formulas->name,
			res->raw_formulas->variant, res->raw_formulas->notes);
	if (res->perf_formulas && res->perf_formulas->notes)
		fprintf(f, "left out (perf, %s:%s): %s\n", res->perf_formulas->name,
			res->perf_formulas->variant, res->perf_formulas->notes);
	fprintf(f, "cost of one reading (empty bracket, median TSC ticks): %s %.0f, %s %.0f, ",
		bench_backend_name(res->raw_backend), res->raw_read_tsc,
		bench_backend_name(res->perf_backend), res->perf_read_tsc);
	if (isnan(res->other_read_tsc))
		esc_fprintf(f, "%s not measured (%s)\n", bench_backend_name(res->other_backend),
			    text_or_empty(res->other_reason));
	else
		fprintf(f, "%s %.0f\n", bench_backend_name(res->other_backend),
			res->other_read_tsc);
	fprintf(f, "(percent of slots; diff = raw - perf, median of paired block medians, "
		"95%% sign-test interval; allow = both sides' bounds added (%s); p_holm: the sign "
		"test of |median diff| <= allow, Holm-adjusted over the %u metrics compared; "
		"DISAGREE when p_holm <= %.2f; 'empty' is each side's own bracket, different code "
		"on each side: shown, not compared)\n\n",
		res->recipe ? "0: both sides count the recipe's events exactly, no quantisation"
			    : "8-bit for PERF_METRICS, the fields floored per read for perf's counts",
		res->agree + res->disagree, COMPARE_ALPHA);
	fprintf(f, "%-13s %-24s %8s %8s %8s %19s %6s %8s  %s\n", "kernel", "metric", "raw",
		"perf", "diff", "95% CI", "allow", "p_holm", "verdict");
	for (size_t k = 0; k < res->nkernels; k++) {
		const struct compare_kernel *ck = &res->kernels[k];

		for (unsigned m = 0; m < TMA_NMETRICS; m++) {
			const struct compare_metric *cm = &ck->m[m];

			if (!compare_metric_shown(res, m))
				continue;
			if (cm->verdict == COMPARE_NA) {
				fprintf(f, "%-13s %-24s %8s %8s %8s %19s %6s %8s  n/a (%u pairs "
					"with numbers)\n", ck->name, td_metric_name(m), "-", "-", "-",
					"-", "-", "-", cm->n);
				continue;
			}
			if (cm->verdict == COMPARE_BRACKET) {
				fprintf(f, "%-13s %-24s %8.2f %8.2f %+8.2f [%+8.2f,%+8.2f] %6s %8s  %s\n",
					ck->name, td_metric_name(m), cm->raw, cm->perf, cm->diff,
					cm->lo, cm->hi, "-", "-", compare_verdict_name(cm));
				continue;
			}
			fprintf(f, "%-13s %-24s %8.2f %8.2f %+8.2f [%+8.2f,%+8.2f] %6.2f %8.2g  %s\n",
				ck->name, td_metric_name(m), cm->raw, cm->perf, cm->diff, cm->lo,
				cm->hi, cm->allow, cm->p_holm, compare_verdict_name(cm));
		}
	}
	fprintf(f, "\n%u agree, %u DISAGREE, %u n/a, %u not compared ('empty')\n", res->agree,
		res->disagree, res->na, res->not_compared);
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *metric_json(const struct compare_metric *m)
{
	bool na = m->verdict == COMPARE_NA || m->verdict == COMPARE_BRACKET;

	return json_pack("{s:s,s:I,s:o,s:o,s:o,s:[o,o],s:o,s:o,s:o,s:[I,I],s:o,s:o}",
			 "verdict", compare_verdict_name(m), "pairs", (json_int_t)m->n,
			 "raw", num(m->raw), "perf", num(m->perf), "diff", num(m->diff),
			 "ci95", num(m->lo), num(m->hi), "allowance", num(m->allow),
			 "raw_bound_pp", num(m->raw_bound), "perf_bound_pp", num(m->perf_bound),
			 "beyond", (json_int_t)m->below, (json_int_t)m->above,
			 "p", num(na ? NAN : m->p), "p_holm", num(na ? NAN : m->p_holm));
}

static json_t *kernel_json(const struct compare_kernel *k, const struct compare_result *res)
{
	json_t *o = json_pack("{s:s,s:I,s:I}", "name", k->name,
			      "raw_invalid", (json_int_t)k->raw_invalid,
			      "perf_invalid", (json_int_t)k->perf_invalid);

	for (unsigned m = 0; o && m < TMA_NMETRICS; m++)
		if (compare_metric_shown(res, m))
			json_object_set_new(o, td_metric_name(m), metric_json(&k->m[m]));
	return o;
}

static json_t *compare_to_json(const struct compare_result *res)
{
	json_t *ks = json_array();
	json_t *doc = json_pack("{s:s,s:{s:I,s:o,s:I,s:I},s:s,s:s,s:s,s:i,s:I,s:I,s:{s:o,s:o,s:o},"
				"s:{s:I,s:I,s:I,s:I},s:{s:I,s:f}}",
				"schema", "baretma-compare/2",
				"cpu", "os_cpu", (json_int_t)res->cpu_used,
				"brand", bench_json_text(res->cpu.brand),
				"family", (json_int_t)res->cpu.family,
				"model", (json_int_t)res->cpu.model,
				"raw_backend", bench_backend_name(res->raw_backend),
				"perf_backend", bench_backend_name(res->perf_backend),
				"perf_other_backend", bench_backend_name(res->other_backend),
				"level", res->level, "pairs", (json_int_t)res->pairs,
				"reps", (json_int_t)res->reps,
				"read_tsc_ticks", "raw",
				num(res->raw_read_tsc), "perf", num(res->perf_read_tsc),
				"perf_other", num(res->other_read_tsc),
				"verdicts", "agree", (json_int_t)res->agree,
				"disagree", (json_int_t)res->disagree, "na", (json_int_t)res->na,
				"not_compared", (json_int_t)res->not_compared,
				"family", "hypotheses", (json_int_t)(res->agree + res->disagree),
				"alpha", COMPARE_ALPHA);

	for (size_t k = 0; ks && k < res->nkernels; k++)
		json_array_append_new(ks, kernel_json(&res->kernels[k], res));
	if (doc && ks)
		json_object_set_new(doc, "kernels", ks);
	else
		json_decref(ks);
	if (doc)
		json_object_set_new(doc, "left_out", json_pack("{s:s?,s:s?}", "raw",
				    res->raw_formulas ? res->raw_formulas->notes : NULL, "perf",
				    res->perf_formulas ? res->perf_formulas->notes : NULL));
	if (doc && json_object_set_new(doc, "perf_changed", changed_json(res))) {
		json_decref(doc);
		doc = NULL;
	}
	return doc;
}

static int compare_text(FILE *f, const void *result)
{
	compare_print_table(f, result);
	return 0;
}

static json_t *compare_json(const void *result)
{
	return compare_to_json(result);
}

/* -x SEP: one record per kernel and metric compared.  The raw side's
 * numbers are PERF_METRICS's or the core's event recipe's, as its backend
 * read them; the result does not name the recipe: that column is empty. */
static const char *const compare_columns[] = { "cpu", "kind", "recipe", "backend",
	"perf_backend", "kernel", "metric", "n", "raw_pct", "perf_pct", "diff_pp", "ci_lo_pp",
	"ci_hi_pp", "allow_pp", "p", "p_holm", "verdict", NULL };

static void compare_records(const void *result, output_record_fn record, void *arg)
{
	const struct compare_result *res = result;
	const struct cpu_kind *kind = cpu_info_kind_of(&res->cpu, res->cpu_used);
	char cpu[16];

	snprintf(cpu, sizeof(cpu), "%u", res->cpu_used);
	for (size_t k = 0; k < res->nkernels; k++)
		for (unsigned m = 0; m < TMA_NMETRICS; m++) {
			const struct compare_metric *cm = &res->kernels[k].m[m];
			double v[] = { cm->raw, cm->perf, cm->diff, cm->lo, cm->hi, cm->allow, cm->p,
				       cm->p_holm };
			char n[16], num[8][32];
			const char *cells[17] = { cpu, kind ? kind->kind : "", "",
				bench_backend_name(res->raw_backend),
				bench_backend_name(res->perf_backend), res->kernels[k].name,
				td_metric_name((enum td_metric)m), n };

			if (!compare_metric_shown(res, m))
				continue;
			snprintf(n, sizeof(n), "%u", cm->n);
			for (unsigned i = 0; i < 8; i++) {
				if (cm->verdict == COMPARE_NA || isnan(v[i]))
					num[i][0] = '\0';
				else
					snprintf(num[i], sizeof(num[i]), "%.6g", v[i]);
				cells[8 + i] = num[i];
			}
			cells[16] = compare_verdict_name(cm);
			record(arg, cells);
		}
}

const struct output_view output_view_compare = {
	.text = compare_text, .json = compare_json,
	.columns = compare_columns, .records = compare_records,
};
