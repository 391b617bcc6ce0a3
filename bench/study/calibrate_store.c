/*
 * bench/study/calibrate_store.c - the calibration as a document
 * ("baretma-calibration/3"), its file (written atomically, 0600, never
 * through a symbolic link: msr/journal/state_dir.h state_dir_replace, the helper
 * the journals use).  The run's side, finding and matching the file, is
 * the harness's: bench/calibration.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cpu/text.h"
#include "bench/study/bundle.h"
#include "bench/study/calibrate.h"
#include "cpu/userfile.h"
#include "msr/journal/state_dir.h"

/* ----------------------------------------------------------- document */

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *stats_json(const struct bench_stats *s)
{
	if (!s->n)
		return json_null();
	return json_pack("{s:I,s:f,s:f,s:f,s:f,s:f,s:f}", "n", (json_int_t)s->n,
			 "median", s->median, "q1", s->q1, "q3", s->q3, "mad", s->mad,
			 "min", s->min, "max", s->max);
}

static json_t *bracket_json(const struct calib_backend *b)
{
	json_t *o = json_pack("{s:o}", "tsc_ticks", stats_json(&b->bracket_tsc)), *f;

	if (!o || !b->level)
		return o;
	json_object_set_new(o, "slots", stats_json(&b->bracket_slots));
	json_object_set_new(o, "err_slots", num_or_null(b->bracket_err_slots));
	if (!b->recipe) { /* PERF_METRICS's fields, in slots */
		f = json_object();
		for (unsigned i = 0; f && i < (b->level >= 2 ? TD_NFIELDS : 4u); i++)
			json_object_set_new(f, calib_field_names[i], stats_json(&b->bracket_fs[i]));
		json_object_set_new(o, "fields", f);
	}
	/* every count of the read set by its event's name, one object per pass */
	f = json_array();
	for (unsigned p = 0; f && p < (b->passes ? b->passes : 1); p++) {
		json_t *c = json_object();

		for (unsigned i = 0; c && i < b->ncounts; i++)
			if (b->counts[i].pass == p)
				json_object_set_new(c, b->counts[i].name, stats_json(&b->counts[i].st));
		json_array_append_new(f, c);
	}
	json_object_set_new(o, "counts", f);
	return o;
}

static json_t *length_json(const struct calib_backend *b, const struct calib_length *l)
{
	json_t *o = json_pack("{s:I,s:I,s:o}", "cycles", (json_int_t)l->cycles,
			      "repetitions", (json_int_t)l->reps, "tsc_ticks", stats_json(&l->tsc));

	if (!o || !b->level)
		return o;
	json_object_set_new(o, "valid", json_integer(l->valid));
	json_object_set_new(o, "slots", stats_json(&l->slots));
	json_object_set_new(o, "quantisation_pp", num_or_null(l->quant_pp));
	json_object_set_new(o, "bracket_pp", num_or_null(l->bracket_pp));
	for (unsigned m = 0; m < 4; m++)
		json_object_set_new(o, td_metric_name((enum td_metric)m),
				    json_pack("{s:o,s:o,s:o}", "median", num_or_null(l->median_pct[m]),
					      "spread95_pp", num_or_null(l->spread_pp[m]),
					      "total_pp", num_or_null(l->total_pp[m])));
	json_object_set_new(o, "within", json_boolean(l->within));
	return o;
}

static json_t *resolution_json(unsigned r)
{
	return r ? json_integer(r) : json_null();
}

static json_t *backend_json(const struct calib_backend *b)
{
	json_t *o = json_pack("{s:s,s:b}", "backend", bench_backend_name(b->id),
			      "measured", b->measured), *ls;

	if (!o || !b->measured) {
		json_object_set_new(o, "reason", bench_json_text(text_or_empty(b->reason)));
		return o;
	}
	json_object_set_new(o, "os_cpu", json_integer(b->cpu));
	json_object_set_new(o, "level", json_integer(b->level));
	json_object_set_new(o, "recipe", b->level && b->recipe ?
			    json_pack("{s:s,s:s}", "name", b->recipe->name, "variant",
				      b->recipe->variant) : json_null());
	json_object_set_new(o, "passes", json_integer(b->passes ? b->passes : 1));
	json_object_set_new(o, "user_only", json_false());
	json_object_set_new(o, "tsc_hz", json_real(b->tsc_hz));
	json_object_set_new(o, "pipeline_width", json_integer(b->width));
	json_object_set_new(o, "bracket", bracket_json(b));
	json_object_set_new(o, "cycles_per_tsc_tick", num_or_null(b->cycles_per_tick ?
				b->cycles_per_tick : NAN));
	ls = json_array();
	for (unsigned i = 0; ls && i < CALIB_NLENGTHS; i++)
		json_array_append_new(ls, length_json(b, &b->len[i]));
	json_object_set_new(o, "lengths", ls);
	json_object_set_new(o, "resolution_cycles", b->level ? resolution_json(b->resolution)
							      : json_null());
	return o;
}

json_t *calib_to_json(const struct calibration *c)
{
	json_t *bs = json_array();
	json_t *doc = json_pack("{s:s,s:s,s:{s:o,s:I,s:I,s:I,s:o},s:o,s:o,s:o,s:o,s:i,s:f,s:o,s:o}",
		"schema", CALIB_SCHEMA, "date", c->date,
		"cpu", "vendor", bench_json_text(c->cpu.vendor_str),
		"family", (json_int_t)c->cpu.family,
		"model", (json_int_t)c->cpu.model, "stepping", (json_int_t)c->cpu.stepping,
		"brand", bench_json_text(c->cpu.brand),
		"microcode", bench_json_text(c->env.microcode),
		"kernel", bench_json_text(c->env.kernel),
		"host", host_to_json(),
		"environment", env_to_json(&c->env, c->host, NULL),
		"max_age_days", CALIB_MAX_AGE_DAYS, "resolution_pp", CALIB_RESOLUTION_PP,
		"resolution_cycles", resolution_json(c->resolution), "backends", bs);

	for (unsigned i = 0; doc && bs && i < CALIB_NBACKENDS; i++)
		if (c->b[i].asked)
			json_array_append_new(bs, backend_json(&c->b[i]));
	return doc;
}

/* --------------------------------------------------------------- file */

int calib_save(const json_t *doc, const struct cpu_info *ci, char *written, size_t n)
{
	char name[NAME_MAX + 1];
	int dirfd, rc;

	calib_file_name(ci, name, sizeof(name));
	rc = state_dir_open(true, &dirfd);
	if (written)
		snprintf(written, n, "%s/%s", state_dir_path(), name);
	if (rc)
		return rc;
	rc = bench_json_save_at(dirfd, name, doc);
	close(dirfd);
	return rc;
}

