/*
 * bench/calibration.c - a run's use of a calibration (bench/calibration.h):
 * the state directory's file for the CPU found, checked against the CPU
 * and the environment, its numbers against their physical ranges, and
 * taken or named with the reason.  Calibrate writes the file
 * (bench/study/calibrate_store.c); the harness reads it, so this is the
 * harness's code, below the studies.
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

#include "bench/calibration.h"
#include "cpu/userfile.h"
#include "msr/journal/state_dir.h"

/* The PERF_METRICS fields as the document names them (the simulator's
 * profile keys; the tma_* metric of the same node without "tma_"). */
const char *const calib_field_names[TD_NFIELDS] = {
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

/* ------------------------------------------------------- value ranges */

/*
 * Every number bench takes from the file is checked against its physical
 * range before it is used; the first that fails makes the file ignored
 * (u->malformed), u->reason naming its key and its value as the file
 * holds it.  JSON has no NaN or infinity (RFC 8259 section 6): jansson
 * refuses them, and numbers beyond a double, when it loads the file.
 */
#define TWO_64 18446744073709551616.0 /* 2^64: a 64-bit counter's first impossible value */
#define SHOWN_MAX 64 /* bytes of a bad value quoted; a longer one ends in "..." */

/*
 * Ignore the file: @key is missing or its value @v is out of @range.  The
 * value is shown as the file holds it: 15 significant digits give a number
 * written with at most 15 back as it was written (DBL_DIG, C11 5.2.4.2.2),
 * "1e300" rather than "1.0000000000000001e300".
 */
static bool out_of_range(struct bench_calib_use *u, const char *key, const json_t *v,
			 const char *range)
{
	char *shown = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_REAL_PRECISION(15)) : NULL;
	int len = shown ? (int)strlen(shown) : 0;

	u->malformed = true;
	if (!v)
		snprintf(u->reason, sizeof(u->reason), "malformed: %s is missing (%s)", key, range);
	else
		snprintf(u->reason, sizeof(u->reason), "malformed: %s is %.*s%s, out of its range "
			 "(%s)", key, len > SHOWN_MAX ? SHOWN_MAX - 3 : len, shown ? shown : "",
			 len > SHOWN_MAX ? "..." : "", range);
	free(shown);
	return false;
}

/*
 * A count of a counter of at most 64 bits: TSC ticks (RDTSC reads the
 * 64-bit time-stamp counter into EDX:EAX: SDM Vol. 2B, RDTSC) or slots
 * (fixed counter 3, CPUID.0AH:EDX[12:5] bits wide): a number from 0 to
 * @max, and below 2^64.
 */
static bool take_count(struct bench_calib_use *u, const char *key, const json_t *v,
		       double max, const char *range, double *out)
{
	double x = json_is_number(v) ? json_number_value(v) : NAN;

	if (!(x >= 0 && x <= max && x < TWO_64))
		return out_of_range(u, key, v, range);
	*out = x;
	return true;
}

/* A whole number of core cycles above 0, or null (none reached: 0). */
static bool take_cycles(struct bench_calib_use *u, const char *key, const json_t *v,
			uint64_t *out)
{
	if (json_is_null(v)) {
		*out = 0;
		return true;
	}
	if (!json_is_integer(v) || json_integer_value(v) <= 0)
		return out_of_range(u, key, v, "a whole number of cycles above 0, or null");
	*out = (uint64_t)json_integer_value(v);
	return true;
}

/* Core cycles per TSC tick: above 0 and below 2^64, or null (unknown: 0). */
static bool take_ratio(struct bench_calib_use *u, const char *key, const json_t *v,
		       double *out)
{
	double x = json_is_number(v) ? json_number_value(v) : NAN;

	if (json_is_null(v)) {
		*out = 0;
		return true;
	}
	if (!(x > 0 && x < TWO_64))
		return out_of_range(u, key, v, "core cycles per TSC tick, above 0, or null");
	*out = x;
	return true;
}

/* The "median" of the statistics object @name of @br, its key in @key. */
static const json_t *median_of(const json_t *br, const char *at, const char *name,
			       char *key, size_t n)
{
	snprintf(key, n, "%s.bracket.%s.median", at, name);
	return json_object_get(json_object_get(br, name), "median");
}

/*
 * The bracket per count, "counts": one object per pass, each count's
 * statistics by its event's name (schema 3), into u->counts: each median
 * a count of a counter of at most 64 bits (from 0, below 2^64).  A name
 * longer than BENCH_COUNT_NAME_MAX - 1 bytes names no count of any
 * recipe: malformed.  Absent: none (a run keeps its own).
 */
static bool take_counts(const json_t *br, const char *at, struct bench_calib_use *u)
{
	const json_t *passes = json_object_get(br, "counts"), *c, *st;
	char key[BENCH_COUNT_NAME_MAX + 96];
	const char *name;
	size_t p;

	u->ncounts = 0;
	json_array_foreach(passes, p, c) {
		json_object_foreach((json_t *)c, name, st) {
			struct bench_bracket_count *bc = &u->counts[u->ncounts];

			snprintf(key, sizeof(key), "%s.bracket.counts[%zu].%s.median", at, p, name);
			if (strlen(name) >= BENCH_COUNT_NAME_MAX || u->ncounts == BENCH_BRACKET_COUNTS_MAX)
				return out_of_range(u, key, st, "an event of the recipe, at most "
						    "48 counts of 63-byte names");
			if (!take_count(u, key, json_object_get(st, "median"), TWO_64,
					"a count, from 0, below 2^64", &bc->st.median))
				return false;
			snprintf(bc->name, sizeof(bc->name), "%s", name);
			bc->pass = (unsigned)p;
			u->ncounts++;
		}
	}
	return true;
}

/*
 * The bracket of entry @b (key prefix @at, "backends[1]") at @level into
 * @u: its TSC ticks, and with Top-down its slots, their quantisation error
 * and the slots of each field, from 0 to the bracket's slots: a field is a
 * fraction of the slots, in [0, 1] (an IA32_PERF_METRICS field is the
 * share of TOPDOWN.SLOTS of its node, in 1/255ths: SDM Vol. 3B,
 * "Performance Metrics").
 */
static bool take_bracket(const json_t *b, const char *at, int level, struct bench_calib_use *u)
{
	const json_t *br = json_object_get(b, "bracket"), *f, *v;
	char key[160];

	v = median_of(br, at, "tsc_ticks", key, sizeof(key));
	if (!take_count(u, key, v, TWO_64, "TSC ticks, from 0, below 2^64", &u->bracket_tsc))
		return false;
	if (!level)
		return true;
	v = median_of(br, at, "slots", key, sizeof(key));
	if (!take_count(u, key, v, TWO_64, "slots, from 0, below 2^64", &u->bracket_slots))
		return false;
	snprintf(key, sizeof(key), "%s.bracket.err_slots", at);
	if (!take_count(u, key, json_object_get(br, "err_slots"), u->bracket_slots,
			"slots, from 0 to the bracket's slots", &u->bracket_err_slots))
		return false;
	if (!take_counts(br, at, u))
		return false;
	if (u->recipe[0]) /* an event recipe: its counts, no PERF_METRICS fields */
		return true;
	f = json_object_get(br, "fields");
	for (unsigned k = 0; k < (level >= 2 ? TD_NFIELDS : 4u); k++) {
		snprintf(key, sizeof(key), "%s.bracket.fields.%s.median", at, calib_field_names[k]);
		v = json_object_get(json_object_get(f, calib_field_names[k]), "median");
		if (!take_count(u, key, v, u->bracket_slots, "slots, from 0 to the bracket's "
				"slots: a field is a fraction of them, in [0, 1]",
				&u->bracket_fs[k]))
			return false;
	}
	return true;
}

/* Take entry @b (number @i of "backends") of @doc at @level into @u. */
static bool take_values(const json_t *doc, const json_t *b, size_t i, int level,
			struct bench_calib_use *u)
{
	char at[32], key[80];

	snprintf(at, sizeof(at), "backends[%zu]", i);
	if (!take_bracket(b, at, level, u))
		return false;
	snprintf(key, sizeof(key), "%s.cycles_per_tsc_tick", at);
	if (!take_ratio(u, key, json_object_get(b, "cycles_per_tsc_tick"), &u->cycles_per_tick))
		return false;
	if (!level) /* no Top-down here: the machine's best resolution */
		return take_cycles(u, "resolution_cycles", json_object_get(doc,
				   "resolution_cycles"), &u->resolution);
	snprintf(key, sizeof(key), "%s.resolution_cycles", at);
	return take_cycles(u, key, json_object_get(b, "resolution_cycles"), &u->resolution);
}

/* The entry's event recipe ("NAME:VARIANT", "" for PERF_METRICS) and passes:
 * the run compares them with its own (a bracket of other counters is no
 * bracket of this run's). */
static void take_recipe(const json_t *b, struct bench_calib_use *u)
{
	const json_t *r = json_object_get(b, "recipe");
	const char *n = json_string_value(json_object_get(r, "name"));
	const char *v = json_string_value(json_object_get(r, "variant"));
	json_int_t p = json_integer_value(json_object_get(b, "passes"));

	snprintf(u->recipe, sizeof(u->recipe), "%s%s%s", n ? n : "", n && v ? ":" : "",
		 n && v ? v : "");
	u->passes = p > 0 ? (unsigned)p : 1;
}

/* Take the entry of @backend at @level from @doc into @u, or say why not. */
static bool take_entry(const json_t *doc, enum bench_backend_id backend, int level,
		       bool user_only, struct bench_calib_use *u)
{
	const char *name = bench_backend_name(backend);
	json_t *bs = json_object_get(doc, "backends"), *b;
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
		take_recipe(b, u);
		return take_values(doc, b, i, level, u);
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
		u->malformed = true;
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

/* The state directory's calibration document for @ci, or NULL with
 * u->found, u->malformed, u->refused and u->reason saying why not. */
static json_t *load_doc(const struct cpu_info *ci, struct bench_calib_use *u)
{
	static const char none[] = "none for this CPU (try: baretma calibrate)";
	char name[NAME_MAX + 1], *text = NULL;
	json_error_t jerr;
	json_t *doc = NULL;
	int dirfd, fd, rc;
	uint64_t size = 0;
	size_t len = 0;

	memset(u, 0, sizeof(*u));
	calib_file_name(ci, name, sizeof(name));
	snprintf(u->path, sizeof(u->path), "%s/%s", state_dir_path(), name);
	snprintf(u->reason, sizeof(u->reason), "%s", none);
	if (state_dir_open(false, &dirfd))
		return NULL;
	/* the state directory's rule; a FIFO planted at the name is not opened */
	fd = state_dir_file_open(dirfd, name, u->reason, sizeof(u->reason));
	close(dirfd);
	if (fd == -ENOENT) {
		snprintf(u->reason, sizeof(u->reason), "%s", none);
		return NULL;
	}
	u->found = true;
	u->refused = fd == -EPERM ? fd : 0;
	if (fd < 0) {
		if (fd != -EPERM)
			snprintf(u->reason, sizeof(u->reason), "cannot read it: %s", strerror(-fd));
		return NULL;
	}
	/* in blocks: json_loadfd reads one byte per read() (1 MB took 5 s) */
	rc = userfile_read_all(fd, CALIB_FILE_MAX, &text, &len, &size);
	close(fd);
	if (rc == -EFBIG) {
		u->refused = rc;
		userfile_cap_text(u->reason, sizeof(u->reason), size, CALIB_FILE_MAX,
				  "a calibration file");
	} else if (rc) {
		snprintf(u->reason, sizeof(u->reason), "cannot read it: %s", strerror(-rc));
	} else if (!(doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr))) {
		u->malformed = true;
		snprintf(u->reason, sizeof(u->reason), "malformed: line %d: %s", jerr.line,
			 jerr.text);
	}
	free(text);
	return doc;
}

json_t *calib_document(const struct cpu_info *ci, struct bench_calib_use *u)
{
	struct bench_calib_use mine;

	return load_doc(ci, u ? u : &mine);
}

int calib_lookup(const struct cpu_info *ci, const struct cpu_env *env, unsigned cpu,
		 enum bench_backend_id backend, int level, bool user_only, time_t now,
		 struct bench_calib_use *u)
{
	json_t *doc = load_doc(ci, u);

	(void)cpu;
	if (!doc)
		return 0;
	u->used = doc_matches(doc, ci, env, now, u) && take_entry(doc, backend, level, user_only, u);
	if (u->used)
		u->reason[0] = '\0';
	json_decref(doc);
	return 0;
}

void calib_check_recipe(struct bench_result *res)
{
	struct bench_calib_use *u = &res->calib;
	char mine[2 * BENCH_COUNT_NAME_MAX];
	unsigned passes = res->recipe ? (res->passes ? res->passes : 1) : 1;

	if (!u->used)
		return;
	snprintf(mine, sizeof(mine), "%s%s%s", res->recipe ? res->recipe->name : "",
		 res->recipe ? ":" : "", res->recipe ? res->recipe->variant : "");
	if (!strcmp(mine, u->recipe) && passes == u->passes)
		return;
	u->used = false;
	snprintf(u->reason, sizeof(u->reason), "made with %s in %u pass%s, this run measures %s "
		 "in %u pass%s", u->recipe[0] ? u->recipe : "PERF_METRICS", u->passes,
		 u->passes == 1 ? "" : "es", mine[0] ? mine : "PERF_METRICS", passes,
		 passes == 1 ? "" : "es");
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
