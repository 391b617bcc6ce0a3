/*
 * bench/output/output.c - the bench result (output_view_bench): its text
 * table, its measured quantities in the long layout (--csv, -x SEP), its
 * JSON document, its metrics.
 * Fractions are printed as percentages with two decimals (never truncated
 * to whole percent); Top-down columns appear only when measured: a machine
 * without Top-down never shows zeros for it.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "cpu/text.h"
#include "bench/output/output.h"
#include "bench/bench.h"
#include "cpu/escape.h"
#include "msr/regs/msr_names.h"
#include "bench/tma.h"

#define PCT(x) (100.0 * (x))

static const char *kind_of(const struct bench_result *res)
{
	const struct cpu_kind *k = cpu_info_kind_of(&res->cpu, res->cpu_used);
	return k ? k->kind : "unknown";
}

bool bench_node_shown(const struct bench_result *res, enum td_metric m)
{
	return td_metric_level(m) <= res->level &&
	       (!res->recipe || recipe_node_index(res->recipe, td_metric_name(m)) >= 0);
}

const struct bench_kernel_result *bench_extras_of(const struct bench_result *res)
{
	for (size_t i = 0; i < res->nkernels; i++)
		if (res->kernels[i].nextra)
			return &res->kernels[i];
	return NULL;
}

/* "1 pass" / "2 passes" */
static const char *passes_word(unsigned n)
{
	return n == 1 ? "pass" : "passes";
}

static void print_header(FILE *f, const struct bench_result *res)
{
	esc_fprintf(f, "cpu %u: %s (%s core), family %u model 0x%02X stepping %u%s%s\n",
		    res->cpu_used, res->cpu.brand, kind_of(res), res->cpu.family, res->cpu.model,
		    res->cpu.stepping, res->cpu.hypervisor ? ", hypervisor " : "",
		    res->cpu.hypervisor ? res->cpu.hypervisor : "");
	fprintf(f, "backend: %s", bench_backend_name(res->backend));
	if (res->tsc_hz)
		fprintf(f, ", TSC %.3f GHz", (double)res->tsc_hz * 1e-9);
	fprintf(f, ", empty bracket %.0f TSC ticks (%s)%s\n", res->empty_tsc,
		res->calib.used ? "the calibration's is subtracted" : "subtracted",
		res->membind_ok ? "" : ", memory binding unavailable");
	if (res->level && res->recipe) {
		fprintf(f, "top-down: level %d from %s: recipe %s:%s, %u %s%s (values: median "
			"%% of slots [q1, q3]; +/-: %s)\n", res->level,
			tma_is_metrics(res->recipe) ? "IA32_PERF_METRICS and events" : "events",
			res->recipe->name,
			res->recipe->variant, res->passes, passes_word(res->passes),
			res->smt_on ? ", SMT on (per-core counts halved)" : "",
			res->bound_text ? res->bound_text : "?");
		fprintf(f, "bound: %s\n", res->recipe->bound);
	} else if (res->level)
		fprintf(f, "top-down: level %d from %s (values: median %% of slots [q1, q3]; "
			"+/-: %s)\n", res->level, res->reads ? res->reads : "?",
			res->bound_text ? res->bound_text : "?");
	else
		esc_fprintf(f, "top-down: unavailable: %s\n", res->avail.reason ?
			    res->avail.reason : "not requested (--backend tsc)");
	/* what the formulas leave out of the vendor's (msr/recipe/recipe.h ->notes) */
	if (res->level && res->formulas && res->formulas->notes)
		fprintf(f, "left out: %s\n", res->formulas->notes);
	if (res->avail.rdpmc_sysfs >= 0)
		fprintf(f, "rdpmc: /sys/bus/event_source/devices/cpu/rdpmc = %d, user RDPMC %s\n",
			res->avail.rdpmc_sysfs, res->avail.rdpmc_ok ? "works" : "faults or untested");
	if (res->calib.used) {
		esc_fprintf(f, "calibration: '%s' (%s): its empty-bracket cost subtracted (%.0f "
			    "TSC ticks%s); ", res->calib.path, res->calib.date,
			    res->calib.bracket_tsc, !res->level ? "" : res->recipe ?
			    ", counts per event" : ", slots per field");
		/* never a 0 for what was not measured: what happened instead */
		if (res->calib.resolution)
			fprintf(f, "resolution %" PRIu64 " cycles\n", res->calib.resolution);
		else if (!res->level)
			fputs("no resolution (a TSC-only run has no Top-down to resolve)\n", f);
		else
			fputs("resolution not reached (above 1M cycles: no loop length kept "
			      "every level-1 metric's spread + quantisation + bracket error within "
			      "1 point; no region is known to be above it)\n", f);
	} else if (res->calib.found)
		esc_fprintf(f, "calibration: '%s' ignored: %s; the run's own empty bracket "
			    "subtracted\n", res->calib.path, res->calib.reason);
	if (res->note && res->note[0])
		esc_fprintf(f, "note: %s\n", res->note);
	if (res->tamper.detected)
		esc_fprintf(f, "tamper: %s\n", text_or_empty(res->tamper.message));
	if (res->overflow.samples)
		esc_fprintf(f, "overflow: %s\n", text_or_empty(res->overflow.message));
}

static void print_tsc_table(FILE *f, const struct bench_result *res)
{
	fprintf(f, "\n%-13s %6s %12s %12s %12s %12s %12s %10s\n", "kernel", "reps",
		"TSC ticks", "q1", "q3", "min", "max", "MAD");
	for (size_t i = 0; i < res->nkernels; i++) {
		const struct bench_kernel_result *k = &res->kernels[i];
		fprintf(f, "%-13s %6u %12.0f %12.0f %12.0f %12.0f %12.0f %10.1f%s\n",
			k->kernel->name, k->reps, k->tsc.median, k->tsc.q1, k->tsc.q3,
			k->tsc.min, k->tsc.max, k->tsc.mad,
			k->below_resolution ? "  (below resolution)" : "");
	}
}

static void print_cell(FILE *f, const struct bench_stats *st)
{
	char cell[48];

	snprintf(cell, sizeof(cell), "%.2f [%.2f,%.2f]", PCT(st->median), PCT(st->q1),
		 PCT(st->q3));
	fprintf(f, " %22s", cell);
}

/* "(3 invalid: 2 overflow, 1 tampered; 4 normalised)", or nothing. */
static void print_counts(FILE *f, const struct bench_kernel_result *k)
{
	char why[BENCH_INVALID_TEXT_MAX];

	if (!k->invalid && !k->normalised)
		return;
	fputs("  (", f);
	if (k->invalid)
		fprintf(f, "%u invalid: %s", k->invalid,
			bench_invalid_text(k, why, sizeof(why)));
	if (k->normalised)
		fprintf(f, "%s%u normalised", k->invalid ? "; " : "", k->normalised);
	fputc(')', f);
}

/* One column of a Top-down table: a node of the twelve (@metric >= 0) or
 * the recipe's node @extra outside them. */
struct td_col {
	const char *name;
	int metric, extra;
};

/* The nodes of @level the run reports, in the order of the tables. */
static unsigned td_cols(const struct bench_result *res, int level, struct td_col *c)
{
	static const enum td_metric l1[] = { TMA_RETIRING, TMA_BAD_SPECULATION,
		TMA_FRONTEND_BOUND, TMA_BACKEND_BOUND };
	static const enum td_metric l2[] = { TMA_HEAVY_OPERATIONS, TMA_LIGHT_OPERATIONS,
		TMA_BRANCH_MISPREDICTS, TMA_MACHINE_CLEARS, TMA_FETCH_LATENCY,
		TMA_FETCH_BANDWIDTH, TMA_MEMORY_BOUND, TMA_CORE_BOUND };
	const enum td_metric *m = level == 1 ? l1 : l2;
	const struct bench_kernel_result *x = bench_extras_of(res);
	unsigned n = 0, nm = level == 1 ? 4 : 8;

	for (unsigned j = 0; j < nm; j++)
		if (bench_node_shown(res, m[j]))
			c[n++] = (struct td_col){ td_metric_name(m[j]), (int)m[j], -1 };
	for (unsigned j = 0; x && j < x->nextra; j++)
		if (x->extra_level[j] == level)
			c[n++] = (struct td_col){ x->extra_name[j], -1, (int)j };
	return n;
}

/* Node columns a table holds at most: with the kernel, slots and bound
 * columns (13 + 10 + 7 characters) three 23-character cells make 99, so
 * that every table fits 100 columns (perf stat splits its Top-down
 * output into one group per parent node the same way). */
#define TD_CELLS_MAX 3

static void print_td_table(FILE *f, const struct bench_result *res, int level)
{
	struct td_col c[8 + RECIPE_EXTRA_MAX];
	unsigned n = td_cols(res, level, c);
	/* an even count in pairs: a parent's two children (level 2) or two
	 * level-1 nodes a table; else balanced tables of at most three */
	unsigned ntab = n % 2 == 0 ? n / 2 : (n + TD_CELLS_MAX - 1) / TD_CELLS_MAX;
	char why[BENCH_INVALID_TEXT_MAX];

	for (unsigned t = 0, from = 0; t < ntab; t++) {
		unsigned to = from + (n - from + (ntab - t) - 1) / (ntab - t);

		fprintf(f, "\n%-13s %9s %6s", "kernel", "slots", "+/-pp");
		for (unsigned j = from; j < to; j++)
			fprintf(f, " %22s", c[j].name);
		fputc('\n', f);
		for (size_t i = 0; i < res->nkernels; i++) {
			const struct bench_kernel_result *k = &res->kernels[i];

			if (!k->slots.n) {
				fprintf(f, "%-13s %s\n", k->kernel->name,
					bench_topdown_reason(k, why, sizeof(why)));
				continue;
			}
			fprintf(f, "%-13s %9.0f %6.2f", k->kernel->name, k->slots.median,
				PCT(k->bound));
			for (unsigned j = from; j < to; j++)
				print_cell(f, c[j].metric >= 0 ? &k->tma[c[j].metric] :
					   (unsigned)c[j].extra < k->nextra ? &k->extra[c[j].extra] :
					   &(struct bench_stats){ 0 });
			fputc('\n', f);
		}
		from = to;
	}
}

/* What a kernel's row of every Top-down table leaves out, once: its
 * invalid and normalised repetitions, below the resolution. */
static void print_td_counts(FILE *f, const struct bench_result *res)
{
	bool any = false;

	for (size_t i = 0; i < res->nkernels; i++) {
		const struct bench_kernel_result *k = &res->kernels[i];

		if (!k->slots.n || (!k->invalid && !k->normalised && !k->below_resolution))
			continue;
		if (!any)
			fputc('\n', f);
		any = true;
		fprintf(f, "%-13s", k->kernel->name);
		print_counts(f, k);
		if (k->below_resolution)
			fputs("  (below resolution)", f);
		fputc('\n', f);
	}
}

static void bench_print_table(FILE *f, const struct bench_result *res)
{
	print_header(f, res);
	print_tsc_table(f, res);
	if (!res->level)
		return;
	print_td_table(f, res, 1);
	if (res->level >= 2)
		print_td_table(f, res, 2);
	print_td_counts(f, res);
}

/* {"median":..,"min":..,...} scaled by @scale. */
static json_t *stats_json(const struct bench_stats *s, double scale)
{
	return json_pack("{s:I,s:f,s:f,s:f,s:f,s:f,s:f,s:f}", "n", (json_int_t)s->n,
			 "median", s->median * scale, "min", s->min * scale,
			 "max", s->max * scale, "q1", s->q1 * scale, "q3", s->q3 * scale,
			 "mad", s->mad * scale, "mean", s->mean * scale);
}

json_t *bench_flags_json(unsigned flags)
{
	json_t *a = json_array();

	for (unsigned bit = 1; a && bit && bit <= flags; bit <<= 1)
		if ((flags & bit) && td_flag_name(bit))
			json_array_append_new(a, json_string(td_flag_name(bit)));
	return a;
}

static json_t *kernel_json(const struct bench_result *res, const struct bench_kernel_result *k)
{
	char why[BENCH_INVALID_TEXT_MAX];
	json_t *o = json_pack("{s:s,s:s,s:s,s:I,s:I,s:o}", "name", k->kernel->name,
			      "node", k->kernel->node, "why", k->kernel->why,
			      "repetitions", (json_int_t)k->reps, "invalid", (json_int_t)k->invalid,
			      "tsc_ticks", stats_json(&k->tsc, 1));

	if (!o)
		return o;
	json_object_set_new(o, "below_resolution", json_boolean(k->below_resolution));
	if (k->region_cycles)
		json_object_set_new(o, "region_cycles", json_real(k->region_cycles));
	if (!k->topdown)
		return o;
	json_object_set_new(o, "flags", bench_flags_json(k->flags));
	json_object_set_new(o, "tampered", json_integer((json_int_t)k->tampered));
	json_object_set_new(o, "overflow", json_integer((json_int_t)k->overflow));
	json_object_set_new(o, "invalid_reasons", json_pack("{s:I,s:I,s:I,s:I,s:I,s:I}",
		"tampered", (json_int_t)k->tampered, "overflow", (json_int_t)k->overflow,
		"slots_back", (json_int_t)k->slots_back, "l1_sum", (json_int_t)k->l1_sum,
		"zero_slots", (json_int_t)k->zero_slots,
		"below_bracket", (json_int_t)k->below_bracket));
	json_object_set_new(o, "normalised", json_integer((json_int_t)k->normalised));
	if (!k->slots.n) {
		json_object_set_new(o, "topdown_reason",
				    json_string(bench_topdown_reason(k, why, sizeof(why))));
		return o;
	}
	json_object_set_new(o, "slots", stats_json(&k->slots, 1));
	json_object_set_new(o, "bound_pp", json_real(PCT(k->bound)));
	for (int m = 0; m < TMA_NMETRICS; m++) {
		if (!bench_node_shown(res, (enum td_metric)m))
			continue;
		json_t *st = stats_json(&k->tma[m], 100);
		json_object_set_new(st, "unit", json_string("percent"));
		json_object_set_new(st, "bound_pp", json_real(PCT(k->bound)));
		json_object_set_new(o, td_metric_name((enum td_metric)m), st);
	}
	for (unsigned j = 0; j < k->nextra; j++) {
		if (k->extra_level[j] > res->level)
			continue;
		json_t *st = stats_json(&k->extra[j], 100);
		json_object_set_new(st, "unit", json_string("percent"));
		json_object_set_new(st, "bound_pp", json_real(PCT(k->bound)));
		json_object_set_new(o, k->extra_name[j], st);
	}
	return o;
}

/* "calibration": which one, used or why not, and whose bracket was subtracted. */
static json_t *calib_json(const struct bench_calib_use *u)
{
	json_t *o = json_pack("{s:o,s:b,s:b,s:o,s:s}", "path", bench_json_text(u->path),
			      "found", u->found, "used", u->used,
			      "reason", bench_json_text(u->used ? NULL : u->reason),
			      "subtracted", u->used ? "calibration" : "run");

	if (!o || !u->used)
		return o;
	json_object_set_new(o, "date", bench_json_text(u->date));
	json_object_set_new(o, "bracket_tsc", json_real(u->bracket_tsc));
	json_object_set_new(o, "bracket_slots", json_real(u->bracket_slots));
	json_object_set_new(o, "resolution_cycles", u->resolution ? json_integer(u->resolution)
								  : json_null());
	json_object_set_new(o, "cycles_per_tsc_tick", u->cycles_per_tick > 0 ?
			    json_real(u->cycles_per_tick) : json_null());
	return o;
}

/* "topdown": the recipe of the numbers, its passes and its bound. */
static void topdown_recipe_json(json_t *td, const struct bench_result *res)
{
	const struct recipe *r = res->recipe;

	json_object_set_new(td, "recipe", r ? json_pack("{s:s,s:s}", "name", r->name,
							"variant", r->variant)
				: json_pack("{s:s,s:n}", "name", "intel-perf-metrics", "variant"));
	json_object_set_new(td, "passes", json_integer(r ? res->passes : 1));
	json_object_set_new(td, "smt_on", r ? json_boolean(res->smt_on) : json_null());
	json_object_set_new(td, "bound", json_string(r ? r->bound : res->bound_text ?
						     res->bound_text : ""));
	json_object_set_new(td, "left_out", res->formulas && res->formulas->notes ?
			    json_string(res->formulas->notes) : json_null());
}

/* The "baretma-bench/2" document; the command adds "environment". */
static json_t *bench_to_json(const struct bench_result *res)
{
	json_t *kernels = json_array(), *ident = cpu_info_to_json(&res->cpu);
	json_t *doc = json_pack("{s:s,s:{s:I,s:s,s:o},s:s,s:{s:b,s:i,s:o,s:o,s:b},s:I,s:f,s:o,s:o}",
		"schema", "baretma-bench/2",
		"cpu", "os_cpu", (json_int_t)res->cpu_used, "kind", kind_of(res), "identity", ident,
		"backend", bench_backend_name(res->backend),
		"topdown", "available", res->level > 0, "level", res->level,
		"reason", bench_json_text(res->level ? NULL : bench_avail_reason(&res->avail)),
		"rdpmc_sysfs", res->avail.rdpmc_sysfs >= 0 ? json_integer(res->avail.rdpmc_sysfs) : json_null(),
		"rdpmc_ok", res->avail.rdpmc_ok,
		"tsc_hz", (json_int_t)res->tsc_hz, "empty_bracket_tsc", res->empty_tsc,
		"note", bench_json_text(res->note && res->note[0] ? res->note : NULL), "kernels", kernels);

	if (!doc)
		return NULL;
	json_object_set_new(doc, "tamper", json_pack("{s:b,s:s?}", "detected",
			    res->tamper.detected, "message",
			    res->tamper.detected ? text_or_empty(res->tamper.message) : NULL));
	json_object_set_new(doc, "overflow", json_pack("{s:I,s:s?}", "samples",
			    (json_int_t)res->overflow.samples, "message",
			    res->overflow.samples ? text_or_empty(res->overflow.message) : NULL));
	json_object_set_new(doc, "calibration", calib_json(&res->calib));
	if (res->level)
		topdown_recipe_json(json_object_get(doc, "topdown"), res);
	for (size_t i = 0; i < res->nkernels; i++)
		json_array_append_new(kernels, kernel_json(res, &res->kernels[i]));
	return doc;
}

static int bench_text(FILE *f, const void *result)
{
	bench_print_table(f, result);
	return 0;
}

static json_t *bench_json(const void *result)
{
	return bench_to_json(result);
}

/* The recipe of the numbers: "name:variant", PERF_METRICS's, or "" without Top-down. */
static const char *recipe_text(const struct bench_result *res, char *buf, size_t n)
{
	if (res->level && res->recipe)
		snprintf(buf, n, "%s:%s", res->recipe->name, res->recipe->variant);
	else
		snprintf(buf, n, "%s", res->level ? "intel-perf-metrics" : "");
	return buf;
}

/* --csv, -x SEP: the long layout (output.h), per kernel its TSC ticks,
 * then (when measured) its slots and every node of the level in percent
 * of slots with the bound; an event recipe's own nodes and its passes. */
struct bench_rec {
	struct output_long l;
	output_record_fn record;
	void *arg;
};

/* @st of the node @metric (level @level), fractions, as percent. */
static void pct_record(struct bench_rec *br, const char *metric, int level,
		       const struct bench_stats *st, double bound)
{
	struct bench_stats p = *st;

	p.median *= 100; p.min *= 100; p.max *= 100; p.q1 *= 100;
	p.q3 *= 100; p.mad *= 100; p.mean *= 100;
	br->l.quantity = metric;
	br->l.level = level;
	br->l.unit = "percent";
	br->l.stats = &p;
	br->l.bound = bound;
	output_long_record(br->record, br->arg, &br->l);
}

static void kernel_records(struct bench_rec *br, const struct bench_result *res,
			   const struct bench_kernel_result *k)
{
	br->l = (struct output_long){ .cpu = br->l.cpu, .kind = br->l.kind,
		.recipe = br->l.recipe, .backend = br->l.backend, .time = NAN,
		.kernel = k->kernel->name, .quantity = "tsc_ticks", .unit = "ticks",
		.stats = &k->tsc, .bound = NAN };
	output_long_record(br->record, br->arg, &br->l);
	if (!k->topdown || !k->slots.n)
		return;
	br->l.quantity = br->l.unit = "slots";
	br->l.stats = &k->slots;
	output_long_record(br->record, br->arg, &br->l);
	for (int m = 0; m < TMA_NMETRICS; m++)
		if (bench_node_shown(res, (enum td_metric)m))
			pct_record(br, td_metric_name((enum td_metric)m),
				   td_metric_level((enum td_metric)m), &k->tma[m], PCT(k->bound));
	for (unsigned j = 0; j < k->nextra; j++)
		if (k->extra_level[j] <= res->level)
			pct_record(br, k->extra_name[j], k->extra_level[j], &k->extra[j],
				   PCT(k->bound));
	if (res->recipe) { /* a count, the same for every repetition: one value */
		br->l = (struct output_long){ .cpu = br->l.cpu, .kind = br->l.kind,
			.recipe = br->l.recipe, .backend = br->l.backend, .time = NAN,
			.kernel = k->kernel->name, .quantity = "passes", .unit = "passes",
			.value = res->passes, .bound = NAN };
		output_long_record(br->record, br->arg, &br->l);
	}
}

static void bench_records(const void *result, output_record_fn record, void *arg)
{
	const struct bench_result *res = result;
	char cpu[16], recipe[96];
	struct bench_rec br = { .record = record, .arg = arg };

	snprintf(cpu, sizeof(cpu), "%u", res->cpu_used);
	br.l.cpu = cpu;
	br.l.kind = kind_of(res);
	br.l.recipe = recipe_text(res, recipe, sizeof(recipe));
	br.l.backend = bench_backend_name(res->backend);
	for (size_t i = 0; i < res->nkernels; i++)
		kernel_records(&br, res, &res->kernels[i]);
}

/* --openmetrics: per kernel its TSC ticks, slots, each node's share and
 * the bound (output.h: the families stat shares). */
static void bench_kernel_samples(const struct bench_result *res,
				 const struct bench_kernel_result *k, output_sample_fn sample,
				 void *arg)
{
	char cpu[16], recipe[96], level[4];
	const char *l[] = { "cpu", cpu, "kind", kind_of(res), "recipe",
		recipe_text(res, recipe, sizeof(recipe)), "backend",
		bench_backend_name(res->backend), "kernel", k->kernel->name, NULL, NULL,
		NULL, NULL, NULL };
	struct output_sample s = { .name = "tsc_ticks", .unit = "ticks", .labels = l,
		.value = k->tsc.median,
		.help = "TSC ticks per repetition of the kernel, median, the empty bracket "
			"subtracted" };

	snprintf(cpu, sizeof(cpu), "%u", res->cpu_used);
	sample(arg, &s);
	if (!k->topdown || !k->slots.n)
		return;
	s = (struct output_sample){ .name = "slots", .unit = "slots", .labels = l,
		.value = k->slots.median,
		.help = OUTPUT_HELP_SLOTS };
	sample(arg, &s);
	s = (struct output_sample){ .name = "tma_bound_ratio", .unit = "ratio", .labels = l,
		.value = k->bound,
		.help = OUTPUT_HELP_TMA_BOUND };
	sample(arg, &s);
	s = (struct output_sample){ .name = "tma_ratio", .unit = "ratio", .labels = l,
		.help = OUTPUT_HELP_TMA_RATIO };
	l[10] = "level";
	l[11] = level;
	l[12] = "node";
	for (int m = 0; m < TMA_NMETRICS; m++) {
		if (!bench_node_shown(res, (enum td_metric)m))
			continue;
		snprintf(level, sizeof(level), "%d", td_metric_level((enum td_metric)m));
		l[13] = td_metric_name((enum td_metric)m);
		s.value = k->tma[m].median;
		sample(arg, &s);
	}
	for (unsigned j = 0; j < k->nextra; j++) {
		if (k->extra_level[j] > res->level)
			continue;
		snprintf(level, sizeof(level), "%d", k->extra_level[j]);
		l[13] = k->extra_name[j];
		s.value = k->extra[j].median;
		sample(arg, &s);
	}
}

static void bench_samples(const void *result, output_sample_fn sample, void *arg)
{
	const struct bench_result *res = result;

	for (size_t i = 0; i < res->nkernels; i++)
		bench_kernel_samples(res, &res->kernels[i], sample, arg);
}

const struct output_view output_view_bench = {
	.text = bench_text, .json = bench_json, .columns = output_long_columns,
	.records = bench_records, .samples = bench_samples,
};

const char *bench_perf_changed_text(unsigned cpu, const struct journal_change *c, int nc,
				    const char *what, char *buf, size_t n)
{
	size_t used;

	snprintf(buf, n, "while perf_event owned the counters of cpu %u, the kernel wrote", cpu);
	for (int i = 0; i < nc; i++) {
		char label[64];

		used = strlen(buf);
		snprintf(buf + used, n - used, "%s %s 0x%" PRIx64 " -> 0x%" PRIx64, i ? "," : "",
			 msr_reg_label(c[i].msr, label, sizeof(label)), c[i].saved, c[i].now);
	}
	used = strlen(buf);
	snprintf(buf + used, n - used, "; baretma put each back from its journal (the value "
		 "before %s) when the kernel's group closed", what);
	return buf;
}

char *bench_invalid_text(const struct bench_kernel_result *k, char *buf, size_t n)
{
	const struct { unsigned count; const char *what; } c[] = {
		{ k->tampered, "tampered with (the counters were changed by someone else)" },
		{ k->overflow, k->events ? "overflow (a counter's bit of the global status)"
					 : "overflow (IA32_PERF_GLOBAL_STATUS bit 35/48)" },
		{ k->slots_back, k->events ? "a counter went backwards (reset or wrap inside the "
					     "region)"
					   : "slots went backwards (reset or wrap inside the region)" },
		{ k->zero_slots, k->events ? "zero slots (the recipe's cycles did not count)"
					   : "zero slots (fixed counter 3 did not count)" },
		{ k->below_bracket, "no more slots than the empty bracket subtracted (the "
				    "region is shorter than the bracket's jitter)" },
		{ k->l1_sum, "level-1 fields beyond 255 +/-3" },
	};
	size_t used = 0;

	if (n)
		buf[0] = '\0';
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]) && used < n; i++) {
		if (!c[i].count)
			continue;
		int w = snprintf(buf + used, n - used, "%s%u %s", used ? ", " : "",
				 c[i].count, c[i].what);
		if (w < 0)
			break;
		used += (size_t)w;
	}
	return buf;
}

char *bench_topdown_reason(const struct bench_kernel_result *k, char *buf, size_t n)
{
	char why[BENCH_INVALID_TEXT_MAX];

	bench_invalid_text(k, why, sizeof(why));
	if (k->tampered && k->tampered == k->reps)
		snprintf(buf, n, "no valid repetition: every repetition was tampered with: the "
			 "counters were changed by someone else (see tamper)");
	else
		snprintf(buf, n, "no valid repetition: %u of %u invalid: %s", k->invalid, k->reps,
			 why);
	return buf;
}
