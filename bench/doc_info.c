/*
 * bench/doc_info.c - the "info" JSON object: identity, architectural
 * PMU (CPUID leaf 0xA of the first CPU), core kinds with their own
 * counters and Top-down level, source and recipe, the unknown-model
 * warning.  Shared by `baretma info --json` and the bench document.
 */
#include <jansson.h>
#include <stdlib.h>

#include "bench/bench.h"
#include "bench/source/source.h"
#include "cpu/escape.h"

json_t *bench_json_text(const char *s)
{
	json_t *j = s ? json_string(s) : json_null();
	size_t n;
	char *e;

	if (j || !s) /* not UTF-8, or ENOMEM: json_string says NULL for both */
		return j;
	n = esc_str(NULL, 0, s) + 1;
	if (!(e = malloc(n)))
		return NULL;
	esc_str(e, n, s);
	j = json_string(e);
	free(e);
	return j;
}

static json_t *pmu_to_json(const struct cpu_pmu_arch *p)
{
	return json_pack("{s:i, s:i, s:i, s:i, s:i, s:I, s:b}",
			 "version", (int)p->version,
			 "gp_counters", (int)p->gp_counters,
			 "gp_width", (int)p->gp_width,
			 "fixed_counters", (int)p->fixed_counters,
			 "fixed_width", (int)p->fixed_width,
			 "fixed_mask", (json_int_t)p->fixed_mask,
			 "topdown_slots_event", p->topdown_slots);
}

/*
 * One core kind.  Keys kept from the first version: kind, core_type, uarch,
 * pipeline_width, fixed_ctr3, topdown_level, cpus; added: the kind's own
 * counters (struct cpu_kind: leaf 0xA / 0x23 of one of its CPUs), its
 * Top-down source and recipe (string or null), RDPMC metrics-clear.  Two
 * levels, each named for what it is: perf_metrics_level (what
 * IA32_PERF_METRICS gives, with perf_metrics_source; topdown_level is the
 * same number under its first name, kept for readers of baretma-bench/2)
 * and topdown_measured_level (what baretma measures: that, or an event
 * recipe's).
 */
void bench_kind_topdown(const struct cpu_kind *k, struct bench_kind_topdown *out)
{
	memset(out, 0, sizeof(*out));
	/* PERF_METRICS alone: its level, in one pass; with events beside it
	 * (Sunny Cove's recipe) the recipe's levels and passes, as an event
	 * recipe's */
	out->formulas = k->topdown_level > 0 ? recipe_find("intel-perf-metrics", k->uarch) : NULL;
	if (k->topdown_level > 0 && !source_pm_recipe(k)) {
		out->measured = true;
		out->level = k->topdown_level;
		return;
	}
	if (k->topdown_level <= 0 && !k->topdown_recipe) {
		snprintf(out->why, sizeof(out->why), "no IA32_PERF_METRICS and no event recipe");
		return;
	}
	out->recipe = source_recipe(k, out->why, sizeof(out->why));
	if (!out->recipe)
		return;
	out->formulas = out->recipe;
	out->level = source_events_level(out->recipe);
	for (int l = 1; l <= out->level; l++) {
		int n = source_events_passes(k, out->recipe, false, l);

		if (n <= 0) {
			char why[sizeof(out->why) - 40];

			/* the event no counter takes, by name (source_events_refusal) */
			if (source_events_refusal(k, out->recipe, false, l, why, sizeof(why)) &&
			    why[0])
				snprintf(out->why, sizeof(out->why), "level %d: %s", l, why);
			else
				snprintf(out->why, sizeof(out->why), "recipe %s:%s: level %d does not "
					 "fit the counters (%s)", out->recipe->name,
					 out->recipe->variant, l, strerror(n ? -n : EINVAL));
			out->level = l - 1;
			break;
		}
		out->passes[l - 1] = n;
	}
	out->measured = out->level > 0;
}

static json_t *kind_topdown_json(json_t *o, const struct cpu_kind *k)
{
	struct bench_kind_topdown t;

	bench_kind_topdown(k, &t);
	if (!o)
		return o;
	json_object_set_new(o, "topdown_measured", json_boolean(t.measured));
	json_object_set_new(o, "topdown_measured_level", json_integer(t.measured ? t.level : 0));
	json_object_set_new(o, "topdown_recipe_variant",
			    t.recipe ? json_string(t.recipe->variant) : json_null());
	json_object_set_new(o, "topdown_passes", t.recipe && t.measured ?
			    json_pack("[i,i]", t.passes[0], t.passes[1]) : json_null());
	json_object_set_new(o, "topdown_left_out", t.formulas && t.formulas->notes ?
			    json_string(t.formulas->notes) : json_null());
	return o;
}

static json_t *kind_to_json(const struct cpu_kind *k)
{
	json_t *cpus = json_array();

	if (!cpus)
		return NULL;
	for (unsigned i = 0; i < k->ncpus; i++)
		if (json_array_append_new(cpus, json_integer(k->cpus[i]))) {
			json_decref(cpus);
			return NULL;
		}
	/* "o" steals the reference to cpus, also when json_pack fails. */
	return kind_topdown_json(json_pack("{s:s, s:i, s:I, s:s, s:i, s:i, s:i, s:I, s:i, s:I, s:s, s:b, s:i,"
			 " s:i, s:s, s:b, s:s, s:s?, s:o}",
			 "kind", k->kind,
			 "core_type", (int)k->core_type,
			 "native_model", (json_int_t)k->native_model,
			 "uarch", k->uarch ? k->uarch : "unknown",
			 "pipeline_width", (int)k->pipeline_width,
			 "gp_counters", (int)k->gp_counters,
			 "gp_width", (int)k->gp_width,
			 "gp_mask", (json_int_t)k->gp_mask,
			 "fixed_counters", (int)k->fixed_counters,
			 "fixed_mask", (json_int_t)k->fixed_mask,
			 "counters_source", k->counters_source ? k->counters_source : "",
			 "fixed_ctr3", k->fixed_ctr3,
			 "topdown_level", k->topdown_level, /* = perf_metrics_level (bench/2) */
			 "perf_metrics_level", k->topdown_level,
			 "perf_metrics_source", k->perf_metrics_source ? k->perf_metrics_source : "",
			 "metrics_clear", k->metrics_clear,
			 "topdown_source", k->topdown_source ? k->topdown_source : "none",
			 "topdown_recipe", k->topdown_recipe,
			 "cpus", cpus), k);
}

json_t *cpu_info_to_json(const struct cpu_info *ci)
{
	json_t *kinds = json_array(), *pmu = pmu_to_json(&ci->pmu), *obj = NULL;

	if (!kinds || !pmu)
		goto out;
	for (unsigned i = 0; i < ci->nkinds; i++)
		if (json_array_append_new(kinds, kind_to_json(&ci->kinds[i])))
			goto out;
	/* warning: null when none (cpu_info.warning ""). */
	obj = json_pack("{s:o, s:i, s:i, s:i, s:o, s:o, s:o, s:b, s:O, s:b, s:o, s:O}",
			"vendor", bench_json_text(ci->vendor_str),
			"family", (int)ci->family,
			"model", (int)ci->model,
			"stepping", (int)ci->stepping,
			"brand", bench_json_text(ci->brand),
			"hypervisor", bench_json_text(ci->hypervisor),
			"hypervisor_signature",
			bench_json_text(ci->hypervisor_sig[0] ? ci->hypervisor_sig : NULL),
			"hybrid", ci->hybrid,
			"pmu", pmu,
			"model_known", ci->row != NULL,
			"warning", bench_json_text(ci->warning[0] ? ci->warning : NULL),
			"core_kinds", kinds);
out:
	json_decref(kinds);
	json_decref(pmu);
	return obj;
}
