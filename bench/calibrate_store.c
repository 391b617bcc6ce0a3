/*
 * bench/calibrate_store.c - the calibration as a document
 * ("baretma-calibration/1"), its file (written atomically, 0600, never
 * through a symbolic link: msr/state_dir.h state_dir_replace, the helper
 * the journals use), and the matching a run makes before using it
 * (bench/calibrate.h).
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

#include "bench/calibrate.h"
#include "msr/state_dir.h"

/* The PERF_METRICS fields as the document names them (the simulator's
 * profile keys; the tma_* metric of the same node without "tma_"). */
static const char *const field_names[TD_NFIELDS] = {
	"retiring", "bad_speculation", "frontend_bound", "backend_bound",
	"heavy_operations", "branch_mispredicts", "fetch_latency", "memory_bound",
};

char *calib_file_name(const struct cpu_info *ci, char *buf, size_t n)
{
	snprintf(buf, n, "calibration-%s-%u-0x%x-%u.json",
		 ci->vendor_str[0] ? ci->vendor_str : "unknown", ci->family, ci->model,
		 ci->stepping);
	for (char *p = buf; *p; p++) /* a vendor string is a file name component */
		if (*p == '/' || (unsigned char)*p < 0x20)
			*p = '_';
	return buf;
}

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
	f = json_object();
	for (unsigned i = 0; f && i < (b->level >= 2 ? TD_NFIELDS : 4u); i++)
		json_object_set_new(f, field_names[i], stats_json(&b->bracket_fs[i]));
	json_object_set_new(o, "fields", f);
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
	for (unsigned m = 0; m < 4; m++)
		json_object_set_new(o, td_metric_name((enum td_metric)m),
				    json_pack("{s:o,s:o}", "median", num_or_null(l->median_pct[m]),
					      "spread95_pp", num_or_null(l->spread_pp[m])));
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
		json_object_set_new(o, "reason", bench_json_text(b->reason));
		return o;
	}
	json_object_set_new(o, "os_cpu", json_integer(b->cpu));
	json_object_set_new(o, "level", json_integer(b->level));
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
	json_t *doc = json_pack("{s:s,s:s,s:{s:o,s:I,s:I,s:I,s:o},s:o,s:o,s:o,s:i,s:f,s:o,s:o}",
		"schema", CALIB_SCHEMA, "date", c->date,
		"cpu", "vendor", bench_json_text(c->cpu.vendor_str),
		"family", (json_int_t)c->cpu.family,
		"model", (json_int_t)c->cpu.model, "stepping", (json_int_t)c->cpu.stepping,
		"brand", bench_json_text(c->cpu.brand),
		"microcode", bench_json_text(c->env.microcode),
		"kernel", bench_json_text(c->env.kernel),
		"environment", env_to_json(&c->env, c->host, NULL),
		"max_age_days", CALIB_MAX_AGE_DAYS, "resolution_pp", CALIB_RESOLUTION_PP,
		"resolution_cycles", resolution_json(c->resolution), "backends", bs);

	for (unsigned i = 0; doc && bs && i < CALIB_NBACKENDS; i++)
		if (c->b[i].asked)
			json_array_append_new(bs, backend_json(&c->b[i]));
	return doc;
}

/* --------------------------------------------------------------- file */

static int save_in(int dirfd, const char *name, const json_t *doc)
{
	char *text = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	size_t len;
	int rc;

	if (!text)
		return -ENOMEM;
	len = strlen(text);
	text = realloc(text, len + 2);
	if (!text)
		return -ENOMEM;
	text[len++] = '\n';
	text[len] = '\0';
	rc = state_dir_replace(dirfd, name, text, len);
	free(text);
	return rc;
}

int calib_save(const json_t *doc, const struct cpu_info *ci, const char *path,
	       char *written, size_t n)
{
	char name[NAME_MAX + 1], dir[PATH_MAX];
	const char *slash = path ? strrchr(path, '/') : NULL, *base;
	int dirfd, rc;

	if (!path) {
		calib_file_name(ci, name, sizeof(name));
		rc = state_dir_open(true, &dirfd);
		if (written)
			snprintf(written, n, "%s/%s", state_dir_path(), name);
		base = name;
	} else {
		base = slash ? slash + 1 : path;
		if (!*base)
			return -EISDIR;
		if ((size_t)snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1,
				     slash ? (slash == path ? "/" : path) : ".") >= sizeof(dir))
			return -ENAMETOOLONG;
		dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		rc = dirfd < 0 ? -errno : 0;
		if (written)
			snprintf(written, n, "%s", path);
	}
	if (rc)
		return rc;
	rc = save_in(dirfd, base, doc);
	close(dirfd);
	return rc;
}

/* ----------------------------------------------------------- matching */

/* "2024-05-01T12:00:00Z" as a time, or -1. */
static time_t parse_date(const char *s)
{
	struct tm tm = { 0 };
	const char *end = s ? strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm) : NULL;

	return end && !*end ? timegm(&tm) : (time_t)-1;
}

/* Whether the document's string @j is @s as calib_to_json writes it. */
static bool same_text(const json_t *j, const char *s)
{
	json_t *now = bench_json_text(s);
	bool same = j && now && json_equal(j, now);

	json_decref(now);
	return same;
}

/* The first identity field of @cpu (the document's) that differs from @ci. */
static bool identity_differs(const json_t *cpu, const struct cpu_info *ci, char *why, size_t n)
{
	const char *vendor = json_string_value(json_object_get(cpu, "vendor"));
	const char *brand = json_string_value(json_object_get(cpu, "brand"));
	const struct { const char *key; unsigned now; bool hex; } num[] = {
		{ "family", ci->family, false }, { "model", ci->model, true },
		{ "stepping", ci->stepping, false },
	};

	if (!same_text(json_object_get(cpu, "vendor"), ci->vendor_str)) {
		snprintf(why, n, "made on vendor %s, this CPU is %s", vendor ? vendor : "(none)",
			 ci->vendor_str);
		return true;
	}
	for (size_t i = 0; i < sizeof(num) / sizeof(num[0]); i++) {
		json_t *v = json_object_get(cpu, num[i].key);

		if (json_is_integer(v) && json_integer_value(v) == (json_int_t)num[i].now)
			continue;
		snprintf(why, n, num[i].hex ? "made for %s 0x%llx, this CPU is %s 0x%x"
					    : "made for %s %lld, this CPU is %s %u", num[i].key,
			 (long long)json_integer_value(v), num[i].key, num[i].now);
		return true;
	}
	if (!same_text(json_object_get(cpu, "brand"), ci->brand)) {
		snprintf(why, n, "made on '%s', this CPU is '%s'", brand ? brand : "(none)",
			 ci->brand);
		return true;
	}
	return false;
}

/* The first timing-relevant environment item that differs. */
static bool env_differs(const json_t *doc, const struct cpu_env *env, char *why, size_t n)
{
	static const char *const keys[] = { "microcode", "kernel", "governor", "turbo",
					    "smt_active" };
	json_t *now = env_to_json(env, NULL, NULL), *then = json_object_get(doc, "environment");
	bool differs = false;

	for (size_t i = 0; now && !differs && i < sizeof(keys) / sizeof(keys[0]); i++) {
		json_t *a = json_object_get(then, keys[i]), *b = json_object_get(now, keys[i]);
		char *sa, *sb;

		if (a && b && json_equal(a, b))
			continue;
		differs = true;
		sa = a ? json_dumps(a, JSON_ENCODE_ANY) : NULL;
		sb = b ? json_dumps(b, JSON_ENCODE_ANY) : NULL;
		snprintf(why, n, "%s was %s, is now %s", keys[i], sa ? sa : "(missing)",
			 sb ? sb : "(unknown)");
		free(sa);
		free(sb);
	}
	json_decref(now);
	return differs;
}

static double median_of(const json_t *stats)
{
	json_t *m = json_object_get(stats, "median");

	return json_is_number(m) ? json_number_value(m) : NAN;
}

/* Take the entry of @backend at @level from @doc into @u, or say why not. */
static bool take_entry(const json_t *doc, enum bench_backend_id backend, int level,
		       bool user_only, struct bench_calib_use *u)
{
	const char *name = bench_backend_name(backend);
	json_t *bs = json_object_get(doc, "backends"), *b, *br, *f;
	size_t i;

	json_array_foreach(bs, i, b) {
		const char *nm = json_string_value(json_object_get(b, "backend"));

		if (!nm || strcmp(nm, name))
			continue;
		if (!json_is_true(json_object_get(b, "measured"))) {
			snprintf(u->reason, sizeof(u->reason), "it has no figures for backend %s "
				 "(it could not measure then)", name);
			return false;
		}
		if (json_integer_value(json_object_get(b, "level")) != level) {
			snprintf(u->reason, sizeof(u->reason), "made at Top-down level %lld, this "
				 "run is at level %d", (long long)json_integer_value(
					 json_object_get(b, "level")), level);
			return false;
		}
		if (user_only) {
			snprintf(u->reason, sizeof(u->reason), "made without --user-only (its "
				 "bracket counted kernel time too)");
			return false;
		}
		br = json_object_get(b, "bracket");
		u->bracket_tsc = median_of(json_object_get(br, "tsc_ticks"));
		u->bracket_slots = level ? median_of(json_object_get(br, "slots")) : 0;
		u->bracket_err_slots = level ? json_number_value(json_object_get(br, "err_slots")) : 0;
		f = json_object_get(br, "fields");
		for (unsigned k = 0; level && k < (level >= 2 ? TD_NFIELDS : 4u); k++)
			u->bracket_fs[k] = median_of(json_object_get(f, field_names[k]));
		u->resolution = (unsigned)json_integer_value(json_object_get(b,
						level ? "resolution_cycles" : "no such key"));
		if (!level) /* no Top-down here: the machine's best resolution */
			u->resolution = (unsigned)json_integer_value(
				json_object_get(doc, "resolution_cycles"));
		u->cycles_per_tick = json_number_value(json_object_get(b, "cycles_per_tsc_tick"));
		if (isnan(u->bracket_tsc) || isnan(u->bracket_slots)) {
			snprintf(u->reason, sizeof(u->reason), "malformed: no bracket cost for %s",
				 name);
			return false;
		}
		return true;
	}
	snprintf(u->reason, sizeof(u->reason), "it has no entry for backend %s (try: baretma "
		 "calibrate --backend %s)", name, name);
	return false;
}

/* Whether @doc applies now; else u->reason. */
static bool doc_matches(const json_t *doc, const struct cpu_info *ci, const struct cpu_env *env,
			time_t now, struct bench_calib_use *u)
{
	const char *schema = json_string_value(json_object_get(doc, "schema"));
	const char *date = json_string_value(json_object_get(doc, "date"));
	time_t when = parse_date(date);

	if (!schema || strcmp(schema, CALIB_SCHEMA)) {
		snprintf(u->reason, sizeof(u->reason), "schema is not %s", CALIB_SCHEMA);
		return false;
	}
	snprintf(u->date, sizeof(u->date), "%s", date ? date : "");
	if (identity_differs(json_object_get(doc, "cpu"), ci, u->reason, sizeof(u->reason)) ||
	    env_differs(doc, env, u->reason, sizeof(u->reason)))
		return false;
	if (when == (time_t)-1) {
		snprintf(u->reason, sizeof(u->reason), "malformed date '%s'", date ? date : "");
		return false;
	}
	if (when > now + 86400) {
		snprintf(u->reason, sizeof(u->reason), "dated %s, in the future", date);
		return false;
	}
	if (now - when > (time_t)CALIB_MAX_AGE_DAYS * 86400) {
		snprintf(u->reason, sizeof(u->reason), "made %s, older than %d days (stale: run "
			 "baretma calibrate again)", date, CALIB_MAX_AGE_DAYS);
		return false;
	}
	return true;
}

int calib_lookup(const struct cpu_info *ci, const struct cpu_env *env, unsigned cpu,
		 enum bench_backend_id backend, int level, bool user_only, time_t now,
		 struct bench_calib_use *u)
{
	char name[NAME_MAX + 1];
	json_error_t jerr;
	json_t *doc;
	int dirfd, fd;

	(void)cpu;
	memset(u, 0, sizeof(*u));
	calib_file_name(ci, name, sizeof(name));
	snprintf(u->path, sizeof(u->path), "%s/%s", state_dir_path(), name);
	snprintf(u->reason, sizeof(u->reason), "none for this CPU (try: baretma calibrate)");
	if (state_dir_open(false, &dirfd))
		return 0;
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	close(dirfd);
	if (fd < 0 && errno == ENOENT)
		return 0;
	u->found = true;
	if (fd < 0) {
		snprintf(u->reason, sizeof(u->reason), "cannot read it: %s", strerror(errno));
		return 0;
	}
	doc = json_loadfd(fd, JSON_REJECT_DUPLICATES, &jerr);
	close(fd);
	if (!doc) {
		snprintf(u->reason, sizeof(u->reason), "malformed: line %d: %s", jerr.line,
			 jerr.text);
		return 0;
	}
	u->used = doc_matches(doc, ci, env, now, u) && take_entry(doc, backend, level, user_only, u);
	if (u->used)
		u->reason[0] = '\0';
	json_decref(doc);
	return 0;
}

void calib_mark_below(struct bench_result *res, unsigned width)
{
	const struct bench_calib_use *u = &res->calib;

	if (!u->used || !u->resolution)
		return;
	for (size_t i = 0; i < res->nkernels; i++) {
		struct bench_kernel_result *k = &res->kernels[i];
		bool judged = true;
		double cyc = 0;

		if (!strcmp(k->kernel->name, "empty"))
			continue; /* the bracket itself, not a region */
		if (res->level && k->slots.n && width)
			cyc = k->slots.median / width;
		else if (!res->level && u->cycles_per_tick > 0)
			cyc = k->tsc.median * u->cycles_per_tick;
		else
			judged = false;
		k->region_cycles = cyc;
		k->below_resolution = judged && cyc < u->resolution;
	}
}
