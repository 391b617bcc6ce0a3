/*
 * bench/lib/api_marker.c - LIKWID-style markers (include/baretma.h
 * BARETMA_MARKER_*): one session for the process's markers, opened by
 * baretma_marker_init on the calling thread with options from the
 * environment, and a table of every region (or JSON) at close.  Errors
 * are printed and never fatal: a marker that cannot measure turns itself
 * off and the program runs on.  Unlike the rest of the library, this part
 * prints: that is what markers are for.
 *
 * Environment: BARETMA_CPU (an OS CPU, decimal; default: choose),
 * BARETMA_BACKEND (auto, rdpmc, msr, tsc), BARETMA_LEVEL (1 or 2),
 * BARETMA_OUTPUT (append the JSON document, schema "baretma-markers/1",
 * to this file instead of printing the table; a file of the real user,
 * cpu/userfile.h).
 */
/* the marker functions are declared only under BARETMA_PERFMON */
#define BARETMA_PERFMON 1
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "bench/output/output.h"
#include "bench/lib/api.h"
#include "bench/bench.h"
#include "cpu/escape.h"
#include "cpu/userfile.h"

static struct baretma *marker;

/* A decimal number from $@name within [@lo, @hi]; @def when unset. */
static int env_int(const char *name, int lo, int hi, int def, bool *bad)
{
	const char *v = getenv(name);
	char *end;
	long n;

	if (!v || !*v)
		return def;
	n = strtol(v, &end, 10);
	if (*end || end == v || n < lo || n > hi) {
		esc_fprintf(stderr, "baretma: markers: %s '%s': expected a whole number from %d to "
			    "%d; markers off\n", name, v, lo, hi);
		*bad = true;
	}
	return (int)n;
}

void baretma_marker_init(void)
{
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	const char *backend = getenv("BARETMA_BACKEND");
	bool bad = false;

	if (marker)
		return;
	o.cpu = env_int("BARETMA_CPU", 0, 8191, -1, &bad);
	o.level = env_int("BARETMA_LEVEL", 1, 2, 0, &bad);
	if (backend && *backend)
		o.backend = backend;
	if (bad)
		return;
	if (baretma_open(&marker, &o) < 0) {
		esc_fprintf(stderr, "baretma: markers off: %s\n", baretma_last_error());
		marker = NULL;
		return;
	}
	for (const char *l = baretma_notes(marker), *nl; *l; l = nl + 1) {
		nl = strchr(l, '\n');
		esc_fprintf(stderr, "baretma: %.*s\n", (int)(nl - l), l);
	}
}

void baretma_marker_start(const char *name)
{
	if (marker)
		baretma_region_begin(marker, name);
}

void baretma_marker_stop(const char *name)
{
	if (marker)
		baretma_region_end(marker, name);
}

/* The columns of the table: the level's nodes. */
static void print_table(FILE *f, const struct region_table *t, int level)
{
	const struct session_info *in = api_info(marker);

	fprintf(f, "baretma: cpu %u, backend %s, %s\n", in->cpu_used,
		bench_backend_name(in->backend),
		level ? (level == 2 ? "Top-down level 2 (percent of slots)" :
			 "Top-down level 1 (percent of slots)") : "TSC only");
	fprintf(f, "%-20s %8s %8s %14s %12s %7s", "region", "count", "invalid", "TSC ticks",
		"slots", "+/-pp");
	for (int m = 0; level && m < TMA_NMETRICS; m++)
		if (td_metric_level((enum td_metric)m) <= level)
			fprintf(f, " %22s", td_metric_name((enum td_metric)m));
	fputc('\n', f);
	for (unsigned i = 0; i < t->n; i++) {
		struct baretma_result r;

		region_result(t, &t->r[i], level, &r);
		fprintf(f, "%-20s %8llu %8llu %14.0f", t->r[i].name, (unsigned long long)r.count,
			(unsigned long long)r.invalid, r.tsc);
		if (r.level) {
			fprintf(f, " %12.0f %7.2f", r.slots, r.bound_pp);
			for (int m = 0; m < TMA_NMETRICS; m++)
				if (td_metric_level((enum td_metric)m) <= level)
					fprintf(f, " %22.2f", r.tma[m]);
		} else if (level) {
			fprintf(f, " %12s %7s  no valid pair", "-", "-");
		}
		if (t->r[i].misuse)
			fprintf(f, "  (%llu begin/end out of order)",
				(unsigned long long)t->r[i].misuse);
		fputc('\n', f);
	}
	if (t->lost)
		fprintf(f, "baretma: %llu begins lost (more than %d names, or a name longer than "
			"%d bytes)\n", (unsigned long long)t->lost, REGION_MAX, REGION_NAME_MAX - 1);
}

static json_t *region_json(const struct region_table *t, const struct region *reg, int level)
{
	struct baretma_result r;
	json_t *o;

	region_result(t, reg, level, &r);
	o = json_pack("{s:s,s:I,s:I,s:{s:I,s:I,s:I,s:I,s:I},s:f,s:i,s:I,s:o}",
		      "name", reg->name, "count", (json_int_t)r.count,
		      "invalid", (json_int_t)r.invalid, "invalid_reasons",
		      "tampered", (json_int_t)r.invalid_why.tampered,
		      "overflow", (json_int_t)r.invalid_why.overflow,
		      "slots_back", (json_int_t)r.invalid_why.slots_back,
		      "zero_slots", (json_int_t)r.invalid_why.zero_slots,
		      "l1_sum", (json_int_t)r.invalid_why.l1_sum,
		      "tsc_ticks", r.tsc, "level", r.level,
		      "misuse", (json_int_t)reg->misuse, "flags", bench_flags_json(r.flags));
	if (!o || !r.level)
		return o;
	json_object_set_new(o, "slots", json_real(r.slots));
	json_object_set_new(o, "bound_pp", json_real(r.bound_pp));
	for (int m = 0; m < TMA_NMETRICS; m++)
		if (td_metric_level((enum td_metric)m) <= r.level)
			json_object_set_new(o, td_metric_name((enum td_metric)m),
					    json_real(r.tma[m]));
	return o;
}

/* The JSON document appended to $BARETMA_OUTPUT. */
static int write_json(const char *path, const struct region_table *t, int level)
{
	const struct session_info *in = api_info(marker);
	json_t *regions = json_array();
	json_t *doc = json_pack("{s:s,s:I,s:s,s:i,s:s?,s:I,s:o}", "schema", "baretma-markers/1",
				"cpu", (json_int_t)in->cpu_used,
				"backend", bench_backend_name(in->backend), "level", level,
				"reason", level ? NULL : in->avail.reason,
				"lost", (json_int_t)t->lost, "regions", regions);
	const char *why;
	char *text;
	int fd, rc = 0;

	for (unsigned i = 0; doc && i < t->n; i++)
		json_array_append_new(regions, region_json(t, &t->r[i], level));
	text = doc ? json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) : NULL;
	json_decref(doc);
	if (!text)
		return -ENOMEM;
	fd = userfile_open_append(path, &why);
	if (fd < 0) {
		char shown[4 * PATH_MAX], remedy[512]; /* the environment's: escaped */

		esc_str(shown, sizeof(shown), path);
		userfile_remedy(remedy, sizeof(remedy));
		if (why)
			fprintf(stderr, "baretma: markers: BARETMA_OUTPUT '%s' is %s: refused (%s)\n",
				shown, why, remedy);
		else
			fprintf(stderr, "baretma: markers: BARETMA_OUTPUT '%s': %s\n", shown,
				strerror(-fd));
		free(text);
		return fd;
	}
	if (write(fd, text, strlen(text)) < 0 || write(fd, "\n", 1) < 0)
		rc = -errno;
	close(fd);
	free(text);
	return rc;
}

void baretma_marker_close(void)
{
	const char *out = getenv("BARETMA_OUTPUT");

	if (!marker)
		return;
	if (out && *out)
		write_json(out, api_regions(marker), api_level(marker));
	else
		print_table(stderr, api_regions(marker), api_level(marker));
	if (baretma_close(marker) < 0)
		esc_fprintf(stderr, "baretma: markers: %s\n", baretma_last_error());
	marker = NULL;
}
