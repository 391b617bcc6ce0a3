/*
 * bench/output/output_calibrate.c - a calibration (output_view_calibrate):
 * the short human summary (bench/study/calibrate.h), and the document
 * calib_to_json made, which calibrate also saves.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cpu/text.h"
#include "bench/output/output.h"
#include "bench/study/calibrate.h"
#include "cpu/escape.h"

static void print_lengths(FILE *f, const struct calib_backend *b)
{
	if (b->level)
		fprintf(f, "  %9s %12s %10s %6s  %-35s  %s\n", "", "", "", "",
			"95% spread, points of the region", "+ quant + bracket = total (worst)");
	fprintf(f, "  %9s %12s", "cycles", "TSC ticks");
	if (b->level)
		fprintf(f, " %10s %6s  %8s %8s %8s %8s %8s %8s %8s", "slots", "valid", "retiring",
			"bad_spec", "frontend", "backend", "quant", "bracket", "total");
	fputc('\n', f);
	for (unsigned i = 0; i < CALIB_NLENGTHS; i++) {
		const struct calib_length *l = &b->len[i];
		double worst = NAN;

		fprintf(f, "  %9u %12.0f", l->cycles, l->tsc.median);
		if (b->level) {
			fprintf(f, " %10.0f %6u  ", l->slots.median, l->valid);
			for (unsigned m = 0; m < 4; m++) {
				if (isnan(l->spread_pp[m]))
					fprintf(f, " %8s", "-");
				else
					fprintf(f, " %8.2f", l->spread_pp[m]);
				if (!(l->total_pp[m] <= worst))
					worst = l->total_pp[m];
			}
			if (isnan(l->quant_pp))
				fprintf(f, " %8s %8s %8s", "-", "-", "-");
			else
				fprintf(f, " %8.2f %8.2f %8.2f", l->quant_pp, l->bracket_pp, worst);
			fputs(l->within ? "  within" : "", f);
		}
		fputc('\n', f);
	}
}

static void print_backend(FILE *f, const struct calib_backend *b)
{
	if (!b->measured) {
		esc_fprintf(f, "%s: cannot measure: %s\n", bench_backend_name(b->id),
			    text_or_empty(b->reason));
		return;
	}
	fprintf(f, "%s: cpu %u, empty bracket %.0f TSC ticks [q1 %.0f, q3 %.0f, MAD %.1f]",
		bench_backend_name(b->id), b->cpu, b->bracket_tsc.median, b->bracket_tsc.q1,
		b->bracket_tsc.q3, b->bracket_tsc.mad);
	if (b->level)
		fprintf(f, ", %.0f slots [q1 %.0f, q3 %.0f, MAD %.1f] (level %d)",
			b->bracket_slots.median, b->bracket_slots.q1, b->bracket_slots.q3,
			b->bracket_slots.mad, b->level);
	fputc('\n', f);
	if (b->cycles_per_tick > 0)
		fprintf(f, "  %.3f core cycles per TSC tick (the calibrated loop)\n",
			b->cycles_per_tick);
	print_lengths(f, b);
	if (!b->level)
		return;
	if (b->resolution)
		fprintf(f, "  resolution: %u cycles (regions shorter than %u cycles are below "
			"this machine's resolution)\n", b->resolution, b->resolution);
	else
		fprintf(f, "  resolution: not reached (above 1M cycles: no loop length "
			"kept every level-1 metric's spread + quantisation + bracket error within "
			"%.0f point)\n", CALIB_RESOLUTION_PP);
}

static void calib_print(FILE *f, const struct calibration *c, const char *path)
{
	esc_fprintf(f, "calibration of %s (%s family %u model 0x%X stepping %u), microcode %s, "
		    "kernel %s, %s\n", c->cpu.brand, c->cpu.vendor_str, c->cpu.family, c->cpu.model,
		    c->cpu.stepping, c->env.microcode[0] ? c->env.microcode : "unknown",
		    c->env.kernel[0] ? c->env.kernel : "unknown", c->date);
	for (unsigned i = 0; i < CALIB_NBACKENDS; i++)
		if (c->b[i].asked)
			print_backend(f, &c->b[i]);
	if (path)
		esc_fprintf(f, "written to '%s'\n", path);
}

static int calibrate_text(FILE *f, const void *result)
{
	const struct calib_output *o = result;

	calib_print(f, o->c, o->path);
	return 0;
}

/* The document also saved (calib_to_json): one more reference to it. */
static json_t *calibrate_json(const void *result)
{
	return json_incref(((const struct calib_output *)result)->doc);
}

static const char *const node[4] = { "tma_retiring", "tma_bad_speculation",
	"tma_frontend_bound", "tma_backend_bound" };

/* The context of a backend's figures: its CPU, core kind, recipe, name. */
struct calib_ctx {
	char cpu[16], recipe[96];
	const char *kind, *backend;
};

static void ctx_of(const struct calibration *c, const struct calib_backend *b,
		   struct calib_ctx *x)
{
	const struct cpu_kind *k = cpu_info_kind_of(&c->cpu, b->cpu);

	snprintf(x->cpu, sizeof(x->cpu), "%u", b->cpu);
	if (b->level && b->recipe)
		snprintf(x->recipe, sizeof(x->recipe), "%s:%s", b->recipe->name, b->recipe->variant);
	else
		snprintf(x->recipe, sizeof(x->recipe), "%s", b->level ? "intel-perf-metrics" : "");
	x->kind = k ? k->kind : "";
	x->backend = bench_backend_name(b->id);
}

/* "%.6g", or "" for NaN (a figure not measured). */
static const char *num(char *buf, size_t n, double v)
{
	if (isnan(v))
		buf[0] = '\0';
	else
		snprintf(buf, n, "%.6g", v);
	return buf;
}

/* -x SEP: one record per backend measured and loop length; the
 * backend's own figures (bracket, resolution) repeated on each. */
static const char *const calib_columns[] = { "cpu", "kind", "recipe", "backend", "cycles",
	"reps", "valid", "tsc_ticks", "slots", "spread_retiring_pp", "spread_bad_speculation_pp",
	"spread_frontend_bound_pp", "spread_backend_bound_pp", "quant_pp", "bracket_pp",
	"total_worst_pp", "within", "bracket_tsc_ticks", "bracket_slots", "cycles_per_tsc_tick",
	"resolution_cycles", NULL };

static void calib_length_record(const struct calib_ctx *x, const struct calib_backend *b,
				const struct calib_length *l, output_record_fn record,
				void *arg)
{
	char v[16][32], res[16];
	double worst = NAN;
	const char *cells[21];

	for (unsigned m = 0; m < 4; m++)
		if (!(l->total_pp[m] <= worst))
			worst = l->total_pp[m];
	snprintf(v[0], sizeof(v[0]), "%u", l->cycles);
	snprintf(v[1], sizeof(v[1]), "%u", l->reps);
	snprintf(v[2], sizeof(v[2]), "%u", l->valid);
	num(v[3], sizeof(v[3]), l->tsc.median);
	num(v[4], sizeof(v[4]), b->level ? l->slots.median : NAN);
	for (unsigned m = 0; m < 4; m++)
		num(v[5 + m], sizeof(v[5 + m]), b->level ? l->spread_pp[m] : NAN);
	num(v[9], sizeof(v[9]), b->level ? l->quant_pp : NAN);
	num(v[10], sizeof(v[10]), b->level ? l->bracket_pp : NAN);
	num(v[11], sizeof(v[11]), b->level ? worst : NAN);
	snprintf(v[12], sizeof(v[12]), "%s", !b->level ? "" : l->within ? "yes" : "no");
	num(v[13], sizeof(v[13]), b->bracket_tsc.median);
	num(v[14], sizeof(v[14]), b->level ? b->bracket_slots.median : NAN);
	num(v[15], sizeof(v[15]), b->cycles_per_tick > 0 ? b->cycles_per_tick : NAN);
	cells[0] = x->cpu;
	cells[1] = x->kind;
	cells[2] = x->recipe;
	cells[3] = x->backend;
	for (unsigned i = 0; i < 16; i++)
		cells[4 + i] = v[i];
	snprintf(res, sizeof(res), "%u", b->resolution);
	cells[20] = b->level && b->resolution ? res : "";
	record(arg, cells);
}

static void calib_records(const void *result, output_record_fn record, void *arg)
{
	const struct calibration *c = ((const struct calib_output *)result)->c;

	for (unsigned i = 0; i < CALIB_NBACKENDS; i++) {
		const struct calib_backend *b = &c->b[i];
		struct calib_ctx x;

		if (!b->asked || !b->measured)
			continue;
		ctx_of(c, b, &x);
		for (unsigned j = 0; j < CALIB_NLENGTHS; j++)
			calib_length_record(&x, b, &b->len[j], record, arg);
	}
}

/* One sample of the family @name, in @unit (NULL: none; else @name's
 * suffix, as OpenMetrics wants), unless @v was not measured. */
static void sample1(output_sample_fn sample, void *arg, const char *name, const char *help,
		    const char *const *l, double v)
{
	static const char *const units[] = { "ticks", "slots", "cycles", "ratio" };
	struct output_sample s = { .name = name, .help = help, .labels = l, .value = v };
	size_t n = strlen(name);

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t u = strlen(units[i]);

		if (n > u + 1 && name[n - u - 1] == '_' && !strcmp(name + n - u, units[i]))
			s.unit = units[i];
	}

	if (!isnan(v))
		sample(arg, &s);
}

/* --openmetrics: the figures of each backend measured, fractions of the
 * region's slots where the text has points. */
static void calib_backend_samples(const struct calibration *c, const struct calib_backend *b,
				  output_sample_fn sample, void *arg)
{
	struct calib_ctx x;
	char cycles[16];

	ctx_of(c, b, &x);
	const char *l[] = { "cpu", x.cpu, "kind", x.kind, "recipe", x.recipe, "backend",
			    x.backend, NULL, NULL, NULL, NULL, NULL };
	sample1(sample, arg, "calibrate_bracket_tsc_ticks", "Empty bracket's cost, TSC ticks "
		"(median)", l, b->bracket_tsc.median);
	if (b->level)
		sample1(sample, arg, "calibrate_bracket_slots", "Empty bracket's slots (median)",
			l, b->bracket_slots.median);
	if (b->cycles_per_tick > 0)
		sample1(sample, arg, "calibrate_cycles_per_tsc_tick", "Core cycles per TSC tick "
			"of the calibrated loop", l, b->cycles_per_tick);
	if (b->level && b->resolution)
		sample1(sample, arg, "calibrate_resolution_cycles", "Shortest region whose "
			"level-1 error is within the resolution's point, cycles (absent: none "
			"reached)", l, b->resolution);
	l[8] = "cycles";
	l[9] = cycles;
	for (unsigned j = 0; j < CALIB_NLENGTHS; j++) {
		const struct calib_length *len = &b->len[j];

		snprintf(cycles, sizeof(cycles), "%u", len->cycles);
		l[10] = NULL;
		sample1(sample, arg, "calibrate_tsc_ticks", "Calibrated loop's TSC ticks, the "
			"bracket subtracted (median)", l, len->tsc.median);
		if (!b->level)
			continue;
		sample1(sample, arg, "calibrate_quant_bound_ratio", "Readings' quantisation "
			"bound, a fraction of the region's slots", l, len->quant_pp / 100);
		sample1(sample, arg, "calibrate_bracket_bound_ratio", "Subtracted bracket's "
			"error, a fraction of the region's slots", l, len->bracket_pp / 100);
		sample1(sample, arg, "calibrate_within", "1 when every level-1 total error is "
			"within the resolution's point", l, len->within);
		l[10] = "node";
		for (unsigned m = 0; m < 4; m++) {
			l[11] = node[m];
			sample1(sample, arg, "calibrate_spread_ratio", "95% spread of a level-1 "
				"node, a fraction of the region's slots", l, len->spread_pp[m] / 100);
			sample1(sample, arg, "calibrate_total_bound_ratio", "Spread + quantisation "
				"+ bracket error of a level-1 node, a fraction of slots", l,
				len->total_pp[m] / 100);
		}
	}
}

static void calib_samples(const void *result, output_sample_fn sample, void *arg)
{
	const struct calibration *c = ((const struct calib_output *)result)->c;

	for (unsigned i = 0; i < CALIB_NBACKENDS; i++) {
		const struct calib_backend *b = &c->b[i];
		const char *l[] = { "backend", bench_backend_name(b->id), NULL };

		if (!b->asked)
			continue;
		sample1(sample, arg, "calibrate_backend_measured", "1 when the backend could "
			"measure here", l, b->measured);
		if (b->measured)
			calib_backend_samples(c, b, sample, arg);
	}
}

const struct output_view output_view_calibrate = {
	.text = calibrate_text, .json = calibrate_json,
	.columns = calib_columns, .records = calib_records, .samples = calib_samples,
};
