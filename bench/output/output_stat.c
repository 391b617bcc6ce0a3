/*
 * bench/output/output_stat.c - `baretma stat`'s results (bench/stat.h
 * samples): a table like perf stat's, absolute slots beside each share;
 * CSV rows with the time, core kind, recipe and backend in columns; the
 * document "baretma-stat/1" (doc/stat.md); each interval of -I as a line
 * (text, CSV rows, or one compact JSON object: JSON Lines).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "bench/output/output.h"
#include "cpu/escape.h"

#define STAT_NOTE "MSR counting is per CPU, not per task: everything that ran on these " \
		  "CPUs is counted"

static const char *cpu_text(const struct stat_sample *s, char *buf, size_t n)
{
	if (s->cpu >= 0)
		snprintf(buf, n, "%d", s->cpu);
	else
		snprintf(buf, n, "all");
	return buf;
}

/* The short name of a node for a column: "retiring" for "tma_retiring". */
static const char *short_name(const char *metric)
{
	return strncmp(metric, "tma_", 4) ? metric : metric + 4;
}

/* ------------------------------------------------------------ text */

static void sample_print(FILE *f, const struct stat_sample *s)
{
	char cpu[16];

	fprintf(f, "\n# cpu %s (%u CPU%s): %s core (%s), recipe %s%s%s, level %d",
		cpu_text(s, cpu, sizeof(cpu)), s->ncpus, s->ncpus == 1 ? "" : "s", s->kind,
		s->uarch, s->recipe, s->variant ? ":" : "", s->variant ? s->variant : "", s->level);
	if (s->level_asked > s->level)
		fprintf(f, " (level %d not counted: the count ended before each of its %u "
			"passes had its turn)", s->level_asked, s->passes);
	else if (s->passes > 1)
		fprintf(f, " in %u passes (each in turn, its part of the time)", s->passes);
	fprintf(f, ", backend %s\n", s->backend);
	if (!s->valid) {
		fprintf(f, "  not counted: no slots (nothing ran, or every CPU overflowed)\n");
		return;
	}
	fprintf(f, "  %-28s %8s %8s %18s\n", "node", "% slots", "+/-", "slots");
	for (unsigned i = 0; i < s->nnodes; i++) {
		const struct stat_node *nd = &s->node[i];

		fprintf(f, "  %s%-*s %8.2f %8.2f %18.0f\n", nd->level == 2 ? "  " : "",
			nd->level == 2 ? 26 : 28, nd->metric, 100 * nd->frac, 100 * s->bound,
			nd->slots);
	}
	fprintf(f, "  %-28s %8s %8s %18.0f\n", "SLOTS", "", "", s->slots);
	if (s->bound_text)
		fprintf(f, "  bound: %s\n", s->bound_text);
	if (s->left_out)
		fprintf(f, "  left out: %s\n", s->left_out);
}

static int stat_text(FILE *f, const void *result)
{
	const struct stat_report *rep = result;
	const struct stat_end *e = rep->end;
	char cpus[256];

	cpus[0] = '\0';
	for (int i = 0, start = -1; i < rep->ncpus; i++) {
		size_t u = strlen(cpus);
		bool run_on = i + 1 < rep->ncpus && rep->cpus[i + 1] == rep->cpus[i] + 1;

		if (start < 0)
			start = (int)rep->cpus[i];
		if (run_on)
			continue;
		if (u + 24 < sizeof(cpus))
			snprintf(cpus + u, sizeof(cpus) - u, start == (int)rep->cpus[i] ? "%s%u" :
				 "%s%d-%u", u ? "," : "", start == (int)rep->cpus[i] ?
				 rep->cpus[i] : (unsigned)start, rep->cpus[i]);
		start = -1;
	}
	if (!rep->interval_ms) {
		fprintf(f, "\n Top-down (perf's tma_* metrics) of CPU%s %s",
			rep->ncpus == 1 ? "" : "s", cpus);
		if (rep->argv) {
			fprintf(f, " while");
			for (int i = 0; rep->argv[i]; i++)
				esc_fprintf(f, strpbrk(rep->argv[i], " \t;&|'") ? " '%s'" : " %s",
					    rep->argv[i]);
			fprintf(f, " ran");
		}
		fprintf(f, ":\n # %s\n", STAT_NOTE);
		for (unsigned i = 0; i < rep->n; i++)
			sample_print(f, &rep->s[i]);
	}
	fprintf(f, "\n %12.6f seconds counted, %u interval%s read", e->seconds, e->intervals,
		e->intervals == 1 ? "" : "s");
	if (e->timed)
		fprintf(f, " (timer drift median %.1f us, max %.1f us)",
			(double)e->drift_median_ns / 1e3, (double)e->drift_max_ns / 1e3);
	fputc('\n', f);
	if (e->signal)
		fprintf(f, " %s (signal %d)%s\n", strsignal(e->signal), e->signal,
			e->child ? " forwarded to the command" : " ended the count");
	if (e->child && WIFEXITED(e->status))
		fprintf(f, " the command exited %d\n", WEXITSTATUS(e->status));
	else if (e->child && WIFSIGNALED(e->status))
		fprintf(f, " the command died of signal %d (%s)\n", WTERMSIG(e->status),
			strsignal(WTERMSIG(e->status)));
	return ferror(f) ? -EIO : 0;
}

/* ------------------------------------------------------------ JSON */

static json_t *sample_json(const struct stat_sample *s)
{
	json_t *nodes = json_array();
	json_t *o = json_pack("{s:f,s:f,s:o,s:I,s:s,s:s,s:s,s:s?,s:s,s:i,s:b,s:f,s:f,s:s?,s:s?,"
			      "s:I,s:i,s:o}",
		"time", s->time, "length", s->length,
		"cpu", s->cpu >= 0 ? json_integer(s->cpu) : json_string("all"),
		"ncpus", (json_int_t)s->ncpus, "kind", s->kind, "uarch", s->uarch,
		"recipe", s->recipe, "variant", s->variant, "backend", s->backend,
		"level", s->level, "valid", s->valid, "slots", s->slots,
		"bound_pp", 100 * s->bound, "bound_text", s->bound_text, "left_out", s->left_out,
		"passes", (json_int_t)(s->passes ? s->passes : 1), "level_asked",
		s->level_asked ? s->level_asked : s->level, "flags", bench_flags_json(s->flags));

	for (unsigned i = 0; nodes && i < s->nnodes; i++) {
		const struct stat_node *nd = &s->node[i];

		json_array_append_new(nodes, json_pack("{s:s,s:s?,s:i,s:o,s:o}", "metric",
			nd->metric, "parent", nd->parent, "level", nd->level,
			"percent", isnan(nd->frac) ? json_null() : json_real(100 * nd->frac),
			"slots", isnan(nd->slots) ? json_null() : json_real(nd->slots)));
	}
	if (o && nodes)
		json_object_set_new(o, "nodes", nodes);
	else
		json_decref(nodes);
	return o;
}

static json_t *samples_json(const struct stat_sample *s, unsigned n)
{
	json_t *a = json_array();

	for (unsigned i = 0; a && i < n; i++)
		json_array_append_new(a, sample_json(&s[i]));
	return a;
}

static json_t *stat_json(const void *result)
{
	const struct stat_report *rep = result;
	const struct stat_end *e = rep->end;
	json_t *cpus = json_array(), *cmd = rep->argv ? json_array() : json_null();
	json_t *doc;

	for (int i = 0; cpus && i < rep->ncpus; i++)
		json_array_append_new(cpus, json_integer(rep->cpus[i]));
	for (int i = 0; rep->argv && cmd && rep->argv[i]; i++)
		json_array_append_new(cmd, bench_json_text(rep->argv[i]));
	doc = json_pack("{s:s,s:s,s:o,s:o,s:b,s:i,s:f,s:I,s:{s:f,s:f},s:I,s:i,s:o}",
		"schema", "baretma-stat/1", "type", "end", "cpus", cpus, "command", cmd,
		"per_cpu", rep->per_cpu, "interval_ms", (int)rep->interval_ms,
		"seconds", e->seconds, "intervals", (json_int_t)e->intervals,
		"drift_us", "median", (double)e->drift_median_ns / 1e3,
		"max", (double)e->drift_max_ns / 1e3, "skipped", (json_int_t)e->skipped,
		"exit_status", rep->exit_status, "note", json_string(STAT_NOTE));
	if (doc)
		json_object_set_new(doc, "signal", e->signal ? json_integer(e->signal) : json_null());
	if (doc && !rep->interval_ms)
		json_object_set_new(doc, "samples", samples_json(rep->s, rep->n));
	return doc;
}

/* ------------------------------------------------------------ rows */

static const char *const stat_columns[] = { "time", "kind", "recipe", "backend", NULL };

static void sample_rows(const struct stat_sample *s, output_row_fn row, void *arg)
{
	char t[32], cpu[16];
	const char *cols[] = { t, s->kind, s->recipe, s->backend, NULL };
	struct bench_stats st = { .n = 1 };
	struct output_row r = { .subject = cpu_text(s, cpu, sizeof(cpu)), .stats = &st,
				.columns = cols };

	snprintf(t, sizeof(t), "%.6f", s->time);
	st.median = st.min = st.max = st.q1 = st.q3 = st.mean = s->slots;
	r.quantity = "slots";
	r.unit = "slots";
	r.bound = NAN;
	row(arg, &r);
	for (unsigned i = 0; s->valid && i < s->nnodes; i++) {
		const struct stat_node *nd = &s->node[i];

		st.median = st.min = st.max = st.q1 = st.q3 = st.mean = 100 * nd->frac;
		r.quantity = nd->metric;
		r.unit = "percent";
		r.bound = 100 * s->bound;
		row(arg, &r);
		st.median = st.min = st.max = st.q1 = st.q3 = st.mean = nd->slots;
		r.unit = "slots";
		r.bound = NAN;
		row(arg, &r);
	}
}

static void stat_rows(const void *result, output_row_fn row, void *arg)
{
	const struct stat_report *rep = result;

	for (unsigned i = 0; i < rep->n; i++)
		sample_rows(&rep->s[i], row, arg);
}

/* -x SEP: one record per node of each sample (and its SLOTS), the CPU,
 * kind, recipe and backend first (output.h). */
static const char *const stat_sv_columns[] = { "cpu", "kind", "recipe", "backend", "time",
	"level", "node", "percent", "bound_pp", "slots", NULL };

static void sample_records(const struct stat_sample *s, output_record_fn record, void *arg)
{
	char cpu[16], recipe[96], t[32], level[4], pct[32], bound[32], slots[32];
	const char *cells[] = { cpu, s->kind, recipe, s->backend, t, "", "SLOTS", "", "", slots,
				NULL };

	cpu_text(s, cpu, sizeof(cpu));
	snprintf(recipe, sizeof(recipe), "%s%s%s", s->recipe, s->variant ? ":" : "",
		 s->variant ? s->variant : "");
	snprintf(t, sizeof(t), "%.6f", s->time);
	snprintf(slots, sizeof(slots), "%.0f", s->slots);
	record(arg, cells);
	for (unsigned i = 0; s->valid && i < s->nnodes; i++) {
		const struct stat_node *nd = &s->node[i];

		snprintf(level, sizeof(level), "%d", nd->level);
		snprintf(pct, sizeof(pct), "%.4f", 100 * nd->frac);
		snprintf(bound, sizeof(bound), "%.4f", 100 * s->bound);
		snprintf(slots, sizeof(slots), "%.0f", nd->slots);
		cells[5] = level;
		cells[6] = nd->metric;
		cells[7] = pct;
		cells[8] = bound;
		record(arg, cells);
	}
}

static void stat_records(const void *result, output_record_fn record, void *arg)
{
	const struct stat_report *rep = result;

	for (unsigned i = 0; i < rep->n; i++)
		sample_records(&rep->s[i], record, arg);
}

/* --openmetrics: the families every view shares (output.h): each sample's
 * slots and bound, each node's share (no kernel label: doc/openmetrics.md). */
static void sample_samples(const struct stat_sample *s, output_sample_fn sample, void *arg)
{
	char cpu[16], recipe[96], level[4];
	const char *l[] = { "cpu", cpu, "kind", s->kind, "recipe", recipe, "backend", s->backend,
			    NULL, NULL, NULL, NULL, NULL };
	struct output_sample o = { .name = "slots", .labels = l, .value = s->slots,
		.help = "TOPDOWN.SLOTS (the recipe's SLOTS) counted over the latest interval" };

	if (!s->valid)
		return; /* nothing counted: no numbers, never zeros */
	cpu_text(s, cpu, sizeof(cpu));
	snprintf(recipe, sizeof(recipe), "%s%s%s", s->recipe, s->variant ? ":" : "",
		 s->variant ? s->variant : "");
	sample(arg, &o);
	o = (struct output_sample){ .name = "tma_bound_ratio", .labels = l, .value = s->bound,
		.help = "+/- bound of each tma_ratio, a fraction of slots" };
	sample(arg, &o);
	o = (struct output_sample){ .name = "tma_ratio", .labels = l,
		.help = "Top-down node's share of TOPDOWN.SLOTS, a fraction" };
	l[8] = "level";
	l[9] = level;
	l[10] = "node";
	for (unsigned i = 0; i < s->nnodes; i++) {
		if (isnan(s->node[i].frac))
			continue;
		snprintf(level, sizeof(level), "%d", s->node[i].level);
		l[11] = s->node[i].metric;
		o.value = s->node[i].frac;
		sample(arg, &o);
	}
}

static void stat_samples(const void *result, output_sample_fn sample, void *arg)
{
	const struct stat_report *rep = result;

	for (unsigned i = 0; i < rep->n; i++)
		sample_samples(&rep->s[i], sample, arg);
}

const struct output_view output_view_stat = {
	.text = stat_text, .json = stat_json, .rows = stat_rows, .rows_subject = "cpu",
	.rows_columns = stat_columns, .columns = stat_sv_columns, .records = stat_records,
	.samples = stat_samples,
};

/* ------------------------------------------------------------ intervals */

static void interval_text(FILE *f, const struct stat_sample *s, unsigned n,
			  struct output_stat_state *st)
{
	char cpu[16];

	if (!st->header) {
		fprintf(f, "# %s\n#           time  cpus  kind          recipe              "
			"   +/-            slots  nodes: %% of slots (slots)\n", STAT_NOTE);
		st->header = true;
	}
	for (unsigned g = 0; g < n; g++) {
		fprintf(f, "%16.9f  %4s  %-12s  %-18s  %5.2f  %15.0f", s[g].time,
			s[g].cpu >= 0 ? cpu_text(&s[g], cpu, sizeof(cpu)) :
			(snprintf(cpu, sizeof(cpu), "%u", s[g].ncpus), cpu), s[g].kind,
			s[g].recipe, 100 * s[g].bound, s[g].slots);
		for (unsigned i = 0; s[g].valid && i < s[g].nnodes; i++)
			fprintf(f, "  %s %.2f%% (%.0f)", short_name(s[g].node[i].metric),
				100 * s[g].node[i].frac, s[g].node[i].slots);
		if (!s[g].valid)
			fprintf(f, "  not counted");
		fputc('\n', f);
	}
}

/* @o (taken) as one compact line of JSON Lines: 0, -ENOMEM (@o NULL), -EIO. */
static int json_line(FILE *f, json_t *o)
{
	int rc;

	if (!o)
		return -ENOMEM;
	rc = json_dumpf(o, f, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(10)) ? -EIO : 0;
	if (!rc)
		fputc('\n', f);
	json_decref(o);
	return rc;
}

int output_stat_interval(FILE *f, const struct output_format *fmt,
			 const struct output_params *p, const struct stat_sample *s, unsigned n,
			 int64_t drift_ns, struct output_stat_state *state)
{
	int rc = 0;

	if (fmt && !strcmp(fmt->name, "json")) {
		json_t *o = json_pack("{s:s,s:s,s:f,s:f,s:o}", "schema", "baretma-stat/1",
				      "type", "interval", "time", n ? s[0].time : 0.0,
				      "drift_us", (double)drift_ns / 1e3, "samples",
				      samples_json(s, n));

		rc = json_line(f, o);
	} else if (fmt && (!strcmp(fmt->name, "csv") || fmt == &output_format_sv)) {
		/* one interval as the whole report of its samples */
		struct stat_report ir = { .s = s, .n = n };
		struct output_view v = output_view_stat;
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);


		/* the format's own lines; its header only before the first interval */
		if (!m)
			return -ENOMEM;
		rc = output_write_params(m, fmt, &v, &ir, p);
		if (fclose(m) || !buf)
			rc = rc ? rc : -ENOMEM;
		if (!rc) {
			const char *body = state->header ? strchr(buf, '\n') : buf;

			fputs(body ? body + (state->header ? 1 : 0) : "", f);
			state->header = true;
		}
		free(buf);
	} else {
		interval_text(f, s, n, state);
	}
	fflush(f);
	return rc ? rc : ferror(f) ? -EIO : 0;
}

int output_stat_end(FILE *f, const struct output_format *fmt, const struct stat_report *rep)
{
	int rc = 0;

	if (fmt && !strcmp(fmt->name, "json")) {
		json_t *o = stat_json(rep);

		rc = json_line(f, o);
	} else if (!fmt || (strcmp(fmt->name, "csv") && fmt != &output_format_sv)) {
		rc = stat_text(f, rep);
	}
	fflush(f);
	return rc ? rc : ferror(f) ? -EIO : 0;
}
