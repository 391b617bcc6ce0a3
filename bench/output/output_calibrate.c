/*
 * bench/output/output_calibrate.c - a calibration (output_view_calibrate):
 * the short human summary (bench/study/calibrate.h), and the document
 * calib_to_json made, which calibrate also saves.
 */
#include <math.h>
#include <stdio.h>

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
		esc_fprintf(f, "%s: cannot measure: %s\n", bench_backend_name(b->id), b->reason);
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

const struct output_view output_view_calibrate = {
	.text = calibrate_text, .json = calibrate_json,
};
