/*
 * bench/study/report_parts.c - what each document gives its host
 * (report.h): the host it names, its CPU, its environment, its checks and
 * its figures, each field checked for its type (doc/json.md says them):
 * a required one missing or of another type refuses the file, naming the
 * field.  Nothing else of a document is kept.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/study/report_int.h"

/* Why a document is refused: the cause in @buf. */
struct rd {
	struct report *r;
	const char *path;
	char *buf;
	size_t n;
	const char *cause, *remedy;
};

static int bad(struct rd *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(struct rd *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->buf, d->n, fmt, ap);
	va_end(ap);
	d->cause = d->buf;
	if (!d->remedy)
		d->remedy = "give the file as baretma wrote it";
	return -EINVAL;
}

static const char *type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: case JSON_REAL: return "a number";
	case JSON_TRUE: case JSON_FALSE: return "a boolean";
	default: return "null";
	}
}

/* @o's member @key of @type (JSON_REAL: any number), or NULL; @req: its
 * absence (or null) is an error. */
static int get(struct rd *d, json_t *o, const char *where, const char *key, json_type type,
	       bool req, json_t **out)
{
	json_t *v = json_object_get(o, key);

	*out = NULL;
	if (!v || json_is_null(v))
		return req ? bad(d, "missing '%s%s%s'", where, *where ? "." : "", key) : 0;
	if (type == JSON_REAL ? !json_is_number(v) : json_typeof(v) != type)
		return bad(d, "'%s%s%s' is %s, not %s", where, *where ? "." : "", key,
			   type_name(v), type == JSON_OBJECT ? "an object" : type == JSON_ARRAY ?
			   "an array" : type == JSON_STRING ? "a string" : type == JSON_REAL ?
			   "a number" : type == JSON_INTEGER ? "a whole number" : "a boolean");
	*out = v;
	return 0;
}

static int get_str(struct rd *d, json_t *o, const char *where, const char *key, bool req,
		   const char **out)
{
	json_t *v;
	int rc = get(d, o, where, key, JSON_STRING, req, &v);

	*out = v ? json_string_value(v) : NULL;
	return rc;
}

static int get_num(struct rd *d, json_t *o, const char *where, const char *key, bool req,
		   double *out)
{
	json_t *v;
	int rc = get(d, o, where, key, JSON_REAL, req, &v);

	*out = v ? json_number_value(v) : NAN;
	return rc;
}

static int get_int(struct rd *d, json_t *o, const char *where, const char *key, long lo,
		   long hi, bool req, long *out)
{
	json_t *v;
	int rc = get(d, o, where, key, JSON_INTEGER, req, &v);

	*out = -1;
	if (rc || !v)
		return rc;
	if (json_integer_value(v) < lo || json_integer_value(v) > hi)
		return bad(d, "'%s.%s' is %lld, outside %ld..%ld", where, key,
			   (long long)json_integer_value(v), lo, hi);
	*out = (long)json_integer_value(v);
	return 0;
}

/* A name a figure or check may have: printable ASCII without a space,
 * 1 to @max bytes. */
static bool plain(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (!n || n > max)
		return false;
	for (; *s; s++)
		if (*s <= ' ' || *s > '~')
			return false;
	return true;
}

/* ---------------------------------------------------- host, CPU, environment */

static int host_of(struct rd *d, json_t *doc, const char **hostname, const char **mid)
{
	json_t *h = json_object_get(doc, "host");
	int rc;

	if (!h) {
		d->remedy = "run it again with this baretma, which records the host";
		return bad(d, "names no host: written by baretma before 'host' was recorded");
	}
	if ((rc = get(d, doc, "", "host", JSON_OBJECT, true, &h)) ||
	    (rc = get_str(d, h, "host", "hostname", true, hostname)) ||
	    (rc = get_str(d, h, "host", "machine_id", false, mid)))
		return rc;
	if (!**hostname)
		return bad(d, "'host.hostname' is empty: the host cannot be told apart");
	if (strlen(*hostname) > 255 || (*mid && strlen(*mid) > 64))
		return bad(d, "'host.%s' is longer than %u bytes", strlen(*hostname) > 255 ?
			   "hostname" : "machine_id", strlen(*hostname) > 255 ? 255 : 64);
	return 0;
}

static int keep(struct report_part *p, enum report_setting s, const char *v)
{
	free(p->setting[s]);
	p->setting[s] = NULL;
	if (v && !(p->setting[s] = report_strdup_cut(v)))
		return -ENOMEM;
	return 0;
}

/* The CPU of the identity @o (vendor, family, model, stepping, brand;
 * @full: all four required) and its core kinds' uarchs. */
static int cpu_of(struct rd *d, json_t *o, const char *where, bool full, struct report_part *p)
{
	const char *vendor = NULL, *brand;
	long fam, mod, step = -1;
	json_t *kinds;
	int rc;

	if ((full && (rc = get_str(d, o, where, "vendor", true, &vendor))) ||
	    (rc = get_int(d, o, where, "family", 0, 0xffff, true, &fam)) ||
	    (rc = get_int(d, o, where, "model", 0, 0xffff, true, &mod)) ||
	    (full && (rc = get_int(d, o, where, "stepping", 0, 0xffff, true, &step))) ||
	    (rc = get_str(d, o, where, "brand", false, &brand)))
		return rc;
	if (vendor && strlen(vendor) >= sizeof(p->cpu.vendor))
		return bad(d, "'%s.vendor' is longer than %zu bytes", where, sizeof(p->cpu.vendor) - 1);
	p->has_cpu = true;
	p->full_cpu = full;
	snprintf(p->cpu.vendor, sizeof(p->cpu.vendor), "%s", vendor ? vendor : "");
	p->cpu.family = (int)fam;
	p->cpu.model = (int)mod;
	p->cpu.stepping = (int)step;
	if (keep(p, REPORT_SET_BRAND, brand))
		return -ENOMEM;
	if ((rc = get(d, o, where, "core_kinds", JSON_ARRAY, false, &kinds)) || !kinds)
		return rc;
	for (size_t i = 0; i < json_array_size(kinds) && i < 8; i++) {
		const char *u = json_string_value(json_object_get(json_array_get(kinds, i), "uarch"));
		size_t old = p->uarch ? strlen(p->uarch) : 0;
		char *g;

		if (!u || !*u || (p->uarch && strstr(p->uarch, u)) || old + strlen(u) > 200)
			continue;
		if (!(g = realloc(p->uarch, old + strlen(u) + 4)))
			return -ENOMEM;
		sprintf(g + old, "%s%s", old ? " + " : "", u);
		p->uarch = g;
	}
	return 0;
}

/* The settings of the "environment" object @env (each a string, a
 * boolean or a number, or null: unknown). */
static int env_of(struct rd *d, json_t *env, const char *where, struct report_part *p)
{
	for (unsigned s = REPORT_SET_BRAND + 1; s < REPORT_NSETTINGS; s++) {
		const char *key = report_setting_name((enum report_setting)s);
		json_t *v = json_object_get(env, key);
		char num[32];
		const char *text = NULL;

		if (!v || json_is_null(v))
			text = NULL;
		else if (json_is_string(v))
			text = json_string_value(v);
		else if (json_is_boolean(v))
			text = json_is_true(v) ? "true" : "false";
		else if (json_is_integer(v)) {
			snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(v));
			text = num;
		} else
			return bad(d, "'%s.%s' is %s, not a string, a boolean or a whole number",
				   where, key, type_name(v));
		if (keep(p, (enum report_setting)s, text))
			return -ENOMEM;
	}
	p->has_env = true;
	return 0;
}

/* ------------------------------------------------------------ the kinds */

/* validate's checks (baretma-validate/1, doc/json.md): a FAIL's message is its
 * CPU, what was measured, what was expected and why. */
static int checks_of(struct rd *d, json_t *doc, const char *where, struct report_part *p)
{
	json_t *checks;
	char w[64], msg[3 * REPORT_TEXT_MAX];
	int rc = get(d, doc, where, "checks", JSON_ARRAY, true, &checks);

	for (size_t i = 0; !rc && i < json_array_size(checks); i++) {
		json_t *c = json_array_get(checks, i);
		const char *id, *st, *measured, *expected, *reason;
		enum report_status s;
		long cpu;

		snprintf(w, sizeof(w), "%s%schecks[%zu]", where, *where ? "." : "", i);
		if (!json_is_object(c))
			return bad(d, "'%s' is %s, not an object", w, type_name(c));
		if ((rc = get_str(d, c, w, "check", true, &id)) ||
		    (rc = get_str(d, c, w, "status", true, &st)) ||
		    (rc = get_int(d, c, w, "cpu", 0, 1 << 20, false, &cpu)) ||
		    (rc = get_str(d, c, w, "measured", false, &measured)) ||
		    (rc = get_str(d, c, w, "expected", false, &expected)) ||
		    (rc = get_str(d, c, w, "reason", false, &reason)))
			return rc;
		if (!plain(id, 64))
			return bad(d, "'%s.check' is not a check's name", w);
		if (!strcmp(st, "PASS"))
			s = REPORT_PASS;
		else if (!strcmp(st, "FAIL"))
			s = REPORT_FAIL;
		else if (!strcmp(st, "SKIP"))
			s = REPORT_SKIP;
		else
			return bad(d, "'%s.status' is '%.40s', not PASS, FAIL or SKIP", w, st);
		snprintf(msg, sizeof(msg), "cpu %ld: %s%s%s%s%s%s", cpu, measured ? "measured " : "",
			 measured ? measured : "", expected ? "; expected " : "",
			 expected ? expected : "", reason ? (measured ? " -- " : "") : "",
			 reason ? reason : "");
		rc = report_part_check(d->r, p, id, s, msg);
	}
	return rc;
}

static const char *const level1[] = { "tma_retiring", "tma_bad_speculation",
				      "tma_frontend_bound", "tma_backend_bound" };

/* One figure's value into @p, refused where no baretma writes it: a count
 * (TSC ticks, slots, cycles) from 0 and below 2^64 (a counter's width is
 * at most 64 bits: SDM Vol. 3B, "Architectural Performance Monitoring";
 * the TSC, 64 bits: SDM Vol. 2B, RDTSC), a share or a spread of shares of
 * the slots (percent, points) within +/-1000, ten times the whole (a
 * recipe's node unclamped goes below 0 or past 100 by its counts' error,
 * never that far).  Beyond those a value is no measurement, and the
 * group's median and MAD over it overflow (k x 1.4826 x MAD past DBL_MAX:
 * no cut at all).  Not a number (absent) is no value: left out. */
static int figure_value(struct rd *d, struct report_part *p, enum report_section section,
			const char *subject, const char *item, const char *unit,
			const char *source, double v, double bound)
{
	bool count = strcmp(unit, "pp") && strcmp(unit, "percent");
	double lo = count ? 0 : -1000, hi = count ? 18446744073709551616.0 : 1000;

	if (isfinite(v) && (v < lo || (count ? v >= hi : v > hi)))
		return bad(d, "%s %s of '%s' is %g %s: outside %s", section == REPORT_SEC_TOPDOWN ?
			   "the share" : "the figure", item, subject, v, unit,
			   count ? "0 .. 2^64, the counters' width" : "-1000 .. 1000");
	return report_part_value(d->r, p, section, subject, item, unit, source, v, bound);
}

/* One backend of a calibration: its bracket cost, noise floor (the worst
 * level-1 95 % spread at its longest loop) and resolution. */
static int backend_of(struct rd *d, json_t *b, const char *w, struct report_part *p)
{
	json_t *bracket, *tsc, *slots, *lengths, *longest = NULL;
	json_t *m = json_object_get(b, "measured");
	const char *name;
	double v, noise = NAN, res, top = -1;
	int rc;

	if (!json_is_boolean(m))
		return m ? bad(d, "'%s.measured' is %s, not a boolean", w, type_name(m))
			 : bad(d, "missing '%s.measured'", w);
	if ((rc = get_str(d, b, w, "backend", true, &name)) || !json_is_true(m))
		return rc;
	if (!plain(name, 16))
		return bad(d, "'%s.backend' is not a backend's name", w);
	if ((rc = get(d, b, w, "bracket", JSON_OBJECT, true, &bracket)) ||
	    (rc = get(d, bracket, w, "tsc_ticks", JSON_OBJECT, true, &tsc)) ||
	    (rc = get_num(d, tsc, w, "median", true, &v)) ||
	    (rc = figure_value(d, p, REPORT_SEC_CALIBRATION, name, "bracket_tsc_ticks",
				    "TSC ticks", "calibration", v, NAN)) ||
	    (rc = get(d, bracket, w, "slots", JSON_OBJECT, false, &slots)))
		return rc;
	if (slots && ((rc = get_num(d, slots, w, "median", true, &v)) ||
		      (rc = figure_value(d, p, REPORT_SEC_CALIBRATION, name,
					      "bracket_slots", "slots", "calibration", v, NAN))))
		return rc;
	if ((rc = get(d, b, w, "lengths", JSON_ARRAY, false, &lengths)))
		return rc;
	for (size_t i = 0; i < json_array_size(lengths); i++) {
		json_t *c = json_object_get(json_array_get(lengths, i), "cycles");

		if (json_is_number(c) && json_number_value(c) > top) {
			top = json_number_value(c);
			longest = json_array_get(lengths, i);
		}
	}
	for (unsigned j = 0; longest && j < 4; j++) {
		json_t *s = json_object_get(json_object_get(longest, level1[j]), "spread95_pp");

		if (json_is_number(s) && !(json_number_value(s) <= noise))
			noise = json_number_value(s);
	}
	if ((rc = figure_value(d, p, REPORT_SEC_CALIBRATION, name, "noise_floor_pp", "pp",
				    "calibration", noise, NAN)) ||
	    (rc = get_num(d, b, w, "resolution_cycles", false, &res)))
		return rc;
	return figure_value(d, p, REPORT_SEC_CALIBRATION, name, "resolution_cycles",
				 "cycles", "calibration", res, NAN);
}

static int calibration_of(struct rd *d, json_t *doc, const char *where, struct report_part *p)
{
	json_t *cpu, *env, *backends;
	const char *micro, *kernel;
	char w[64];
	int rc;

	if ((rc = get(d, doc, where, "cpu", JSON_OBJECT, true, &cpu)) ||
	    (rc = cpu_of(d, cpu, *where ? "calibration.cpu" : "cpu", true, p)) ||
	    (rc = get_str(d, doc, where, "microcode", false, &micro)) ||
	    (rc = get_str(d, doc, where, "kernel", false, &kernel)) ||
	    (rc = get(d, doc, where, "environment", JSON_OBJECT, false, &env)) ||
	    (rc = get(d, doc, where, "backends", JSON_ARRAY, true, &backends)))
		return rc;
	if (env && (rc = env_of(d, env, "environment", p)))
		return rc;
	p->has_source[REPORT_SRC_CALIBRATION] = true;
	for (size_t i = 0; !rc && i < json_array_size(backends); i++) {
		json_t *b = json_array_get(backends, i);

		snprintf(w, sizeof(w), "%s%sbackends[%zu]", where, *where ? "." : "", i);
		rc = json_is_object(b) ? backend_of(d, b, w, p)
				       : bad(d, "'%s' is %s, not an object", w, type_name(b));
	}
	return rc;
}

/* One level-1 node @m of @o ({median, bound_pp} in bench; a number else). */
static int node_value(struct rd *d, struct report_part *p, const char *subject,
		      const char *source, const char *m, double v, double bound)
{
	return figure_value(d, p, REPORT_SEC_TOPDOWN, subject, m, "percent", source, v,
				 bound);
}

static int bench_of(struct rd *d, json_t *doc, struct report_part *p)
{
	json_t *cpu, *id, *env, *kernels;
	char w[64];
	int rc;

	if ((rc = get(d, doc, "", "cpu", JSON_OBJECT, true, &cpu)) ||
	    (rc = get(d, cpu, "cpu", "identity", JSON_OBJECT, true, &id)) ||
	    (rc = cpu_of(d, id, "cpu.identity", true, p)) ||
	    (rc = get(d, doc, "", "environment", JSON_OBJECT, true, &env)) ||
	    (rc = env_of(d, env, "environment", p)) ||
	    (rc = get(d, doc, "", "kernels", JSON_ARRAY, true, &kernels)))
		return rc;
	p->has_source[REPORT_SRC_BENCH] = true;
	for (size_t i = 0; !rc && i < json_array_size(kernels); i++) {
		json_t *k = json_array_get(kernels, i), *node;
		const char *name;
		double v, bound;

		snprintf(w, sizeof(w), "kernels[%zu]", i);
		if (!json_is_object(k))
			return bad(d, "'%s' is %s, not an object", w, type_name(k));
		if ((rc = get_str(d, k, w, "name", true, &name)))
			return rc;
		if (!plain(name, 64))
			return bad(d, "'%s.name' is not a kernel's name", w);
		for (unsigned j = 0; !rc && j < 4; j++) {
			if ((rc = get(d, k, w, level1[j], JSON_OBJECT, false, &node)) || !node)
				continue;
			if (!(rc = get_num(d, node, w, "median", false, &v)) &&
			    !(rc = get_num(d, node, w, "bound_pp", false, &bound)))
				rc = node_value(d, p, name, "bench", level1[j], v, bound);
		}
	}
	return rc;
}

/* compare's verdicts as one check: FAIL with a DISAGREE, PASS with an
 * agree, else SKIP (nothing compared). */
static int compare_of(struct rd *d, json_t *doc, struct report_part *p)
{
	json_t *cpu, *verdicts, *kernels;
	long agree, disagree, na;
	char msg[2 * REPORT_TEXT_MAX] = "";
	size_t used = 0;
	unsigned shown = 0;
	int rc;

	if ((rc = get(d, doc, "", "cpu", JSON_OBJECT, true, &cpu)) ||
	    (rc = cpu_of(d, cpu, "cpu", false, p)) ||
	    (rc = get(d, doc, "", "verdicts", JSON_OBJECT, true, &verdicts)) ||
	    (rc = get_int(d, verdicts, "verdicts", "agree", 0, 1 << 30, true, &agree)) ||
	    (rc = get_int(d, verdicts, "verdicts", "disagree", 0, 1 << 30, true, &disagree)) ||
	    (rc = get_int(d, verdicts, "verdicts", "na", 0, 1 << 30, true, &na)) ||
	    (rc = get(d, doc, "", "kernels", JSON_ARRAY, true, &kernels)))
		return rc;
	for (size_t i = 0; i < json_array_size(kernels); i++) {
		json_t *k = json_array_get(kernels, i);
		const char *name = json_string_value(json_object_get(k, "name"));

		for (unsigned j = 0; name && j < 4 && used < sizeof(msg) - 1; j++) {
			json_t *m = json_object_get(k, level1[j]);
			const char *v = json_string_value(json_object_get(m, "verdict"));

			if (!v || strcmp(v, "DISAGREE") || shown++ >= 2)
				continue;
			used += (size_t)snprintf(msg + used, sizeof(msg) - used,
				"%sDISAGREE %.64s %s: raw %.2f, perf %.2f, diff %.2f pp beyond the "
				"allowance %.2f", used ? "; " : "", name, level1[j],
				json_number_value(json_object_get(m, "raw")),
				json_number_value(json_object_get(m, "perf")),
				json_number_value(json_object_get(m, "diff")),
				json_number_value(json_object_get(m, "allowance")));
		}
	}
	if (disagree && used < sizeof(msg) - 1 && shown > 2)
		snprintf(msg + used, sizeof(msg) - used, " (%u more)", shown - 2);
	if (disagree && !used)
		snprintf(msg, sizeof(msg), "%ld metrics DISAGREE", disagree);
	return report_part_check(d->r, p, "compare", disagree ? REPORT_FAIL :
				 agree ? REPORT_PASS : REPORT_SKIP, msg);
}

/* stat's end document: each valid sample's level-1 shares, one figure
 * "stat: COMMAND" (its core kind added when it is not "general"). */
static int stat_of(struct rd *d, json_t *doc, struct report_part *p)
{
	json_t *samples, *cmd;
	const char *type;
	char subject[96] = "stat:";
	int rc;

	if ((rc = get_str(d, doc, "", "type", true, &type)))
		return rc;
	if (strcmp(type, "end"))
		return bad(d, "a stat record of type '%.20s', not its end document", type);
	if ((rc = get(d, doc, "", "command", JSON_ARRAY, false, &cmd)) ||
	    (rc = get(d, doc, "", "samples", JSON_ARRAY, false, &samples)))
		return rc;
	for (size_t i = 0; i < json_array_size(cmd); i++) {
		const char *a = json_string_value(json_array_get(cmd, i));
		size_t u = strlen(subject);

		if (a && u < 64)
			snprintf(subject + u, sizeof(subject) - u, " %.*s%s", (int)(64 - u), a,
				 strlen(a) > 64 - u ? "..." : "");
	}
	p->has_source[REPORT_SRC_STAT] = true;
	for (size_t i = 0; !rc && i < json_array_size(samples); i++) {
		json_t *s = json_array_get(samples, i), *nodes = json_object_get(s, "nodes");
		const char *kind = json_string_value(json_object_get(s, "kind"));
		double bound = json_number_value(json_object_get(s, "bound_pp"));
		char subj[128];

		if (!json_is_true(json_object_get(s, "valid")) || !json_is_array(nodes))
			continue;
		snprintf(subj, sizeof(subj), "%s%s%.16s%s", subject,
			 kind && strcmp(kind, "general") ? " [" : "",
			 kind && strcmp(kind, "general") ? kind : "",
			 kind && strcmp(kind, "general") ? "]" : "");
		for (size_t j = 0; !rc && j < json_array_size(nodes); j++) {
			json_t *n = json_array_get(nodes, j);
			const char *m = json_string_value(json_object_get(n, "metric"));
			json_t *pct = json_object_get(n, "percent");

			for (unsigned l = 0; m && json_is_number(pct) && l < 4; l++)
				if (!strcmp(m, level1[l]))
					rc = node_value(d, p, subj, "stat", level1[l],
							json_number_value(pct), bound);
		}
	}
	return rc;
}

/* A bundle's member @key of schema @schema: read by @fn as a part of
 * @kind, or left out (named with -v) when it is null or of another schema. */
static int member(struct rd *d, json_t *doc, const char *key, const char *schema,
		  enum report_kind kind, struct report_part **parts)
{
	json_t *m;
	struct report_part *p;
	const char *s;
	char why[160];
	int rc;

	if ((rc = get(d, doc, "", key, JSON_OBJECT, false, &m)) || !m)
		return rc;
	if (!(s = json_string_value(json_object_get(m, "schema"))) || strcmp(s, schema)) {
		snprintf(why, sizeof(why), "its %s member is of schema '%.60s', not %s: left out",
			 key, s ? s : "none", schema);
		return report_skip_add(d->r, d->path, why, NULL, true);
	}
	/* a calibration file names the host that measured it: a state
	 * directory two hosts share gives one's file to the other's bundle */
	if (json_object_get(m, "host") && !json_equal(json_object_get(m, "host"),
						      json_object_get(doc, "host"))) {
		snprintf(why, sizeof(why), "its %s member names another host than the bundle: "
			 "left out", key);
		return report_skip_add(d->r, d->path, why, NULL, true);
	}
	if (!(p = report_part_new(REPORT_BUNDLE, kind)))
		return -ENOMEM;
	p->next = *parts;
	*parts = p;
	return kind == REPORT_VALIDATE ? checks_of(d, m, key, p) : calibration_of(d, m, key, p);
}

static int bundle_of(struct rd *d, json_t *doc, struct report_part **parts)
{
	json_t *info, *env;
	struct report_part *p = *parts;
	int rc;

	if ((rc = get(d, doc, "", "info", JSON_OBJECT, true, &info)) ||
	    (rc = cpu_of(d, info, "info", true, p)) ||
	    (rc = get(d, doc, "", "environment", JSON_OBJECT, true, &env)) ||
	    (rc = env_of(d, env, "environment", p)) ||
	    (rc = member(d, doc, "validate", "baretma-validate/1", REPORT_VALIDATE, parts)))
		return rc;
	return member(d, doc, "calibration", "baretma-calibration/3", REPORT_CALIBRATION, parts);
}

int report_read_doc(struct report *r, const char *path, enum report_kind kind, json_t *doc,
		    char *buf, size_t n, const char **cause, const char **remedy)
{
	struct rd d = { r, path, buf, n, NULL, NULL };
	const char *hostname = NULL, *mid = NULL;
	struct report_part *parts = NULL;
	int rc = host_of(&d, doc, &hostname, &mid);

	if (!rc && !(parts = report_part_new(kind, kind)))
		rc = -ENOMEM;
	if (!rc) {
		switch (kind) {
		case REPORT_BUNDLE: rc = bundle_of(&d, doc, &parts); break;
		case REPORT_CALIBRATION: rc = calibration_of(&d, doc, "", parts); break;
		case REPORT_BENCH: rc = bench_of(&d, doc, parts); break;
		case REPORT_COMPARE: rc = compare_of(&d, doc, parts); break;
		case REPORT_STAT: rc = stat_of(&d, doc, parts); break;
		default: rc = checks_of(&d, doc, "", parts); break;
		}
	}
	if (rc) {
		report_part_free(parts);
		*cause = d.cause;
		*remedy = d.remedy;
		return rc;
	}
	return report_parts_add(r, path, hostname, mid, parts);
}
