/*
 * bench/output/output_stat.c - `baretma stat`'s results (bench/stat.h
 * samples): a table like perf stat's, absolute slots beside each share;
 * the long layout's records (--csv, -x SEP: the CPU, core kind, recipe,
 * backend and time in columns); the document "baretma-stat/1"
 * (baretma-stat(1)); the metrics.  -I's intervals are the records of a stream
 * (output_view_stat_interval: a line each, the records, or one compact
 * JSON object, JSON Lines), its end output_view_stat's.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
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

/* ------------------------------------------------------------ records */

/* --csv, -x SEP: the long layout (output.h), per sample its SLOTS, then
 * per node its share (percent, with the bound) and its slots; one count
 * each, so no statistics. */
static void sample_records(const struct stat_sample *s, output_record_fn record, void *arg)
{
	char cpu[16], recipe[96];
	struct output_long l = { .cpu = cpu_text(s, cpu, sizeof(cpu)), .kind = s->kind,
		.recipe = recipe, .backend = s->backend, .time = s->time, .quantity = "slots",
		.unit = "slots", .value = s->slots, .bound = NAN };

	snprintf(recipe, sizeof(recipe), "%s%s%s", s->recipe, s->variant ? ":" : "",
		 s->variant ? s->variant : "");
	output_long_record(record, arg, &l);
	for (unsigned i = 0; s->valid && i < s->nnodes; i++) {
		const struct stat_node *nd = &s->node[i];

		l.level = nd->level;
		l.quantity = nd->metric;
		l.unit = "percent";
		l.value = 100 * nd->frac;
		l.bound = 100 * s->bound;
		output_long_record(record, arg, &l);
		l.unit = "slots";
		l.value = nd->slots;
		l.bound = NAN;
		output_long_record(record, arg, &l);
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
	struct output_sample o = { .name = "slots", .unit = "slots", .labels = l,
		.value = s->slots,
		.help = OUTPUT_HELP_SLOTS };

	if (!s->valid)
		return; /* nothing counted: no numbers, never zeros */
	cpu_text(s, cpu, sizeof(cpu));
	snprintf(recipe, sizeof(recipe), "%s%s%s", s->recipe, s->variant ? ":" : "",
		 s->variant ? s->variant : "");
	sample(arg, &o);
	o = (struct output_sample){ .name = "tma_bound_ratio", .unit = "ratio", .labels = l,
		.value = s->bound,
		.help = OUTPUT_HELP_TMA_BOUND };
	sample(arg, &o);
	o = (struct output_sample){ .name = "tma_ratio", .unit = "ratio", .labels = l,
		.help = OUTPUT_HELP_TMA_RATIO };
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
	.text = stat_text, .json = stat_json, .columns = output_long_columns,
	.records = stat_records, .samples = stat_samples,
};

/* ------------------------------------------------------------ intervals */

/* The heading of -I's lines, once (perf stat -I's "#           time"). */
static int interval_head(FILE *f)
{
	fprintf(f, "# %s\n#           time  cpus  kind          recipe              "
		"   +/-            slots  nodes: %% of slots (slots)\n", STAT_NOTE);
	return ferror(f) ? -EIO : 0;
}

/* One line per sample of the interval. */
static int interval_text(FILE *f, const void *record)
{
	const struct stat_interval_report *ir = record;
	const struct stat_sample *s = ir->s;
	char cpu[16];

	for (unsigned g = 0; g < ir->n; g++) {
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
	return ferror(f) ? -EIO : 0;
}

/* One JSON Lines object: the interval's samples. */
static json_t *interval_json(const void *record)
{
	const struct stat_interval_report *ir = record;

	return json_pack("{s:s,s:s,s:f,s:f,s:o}", "schema", "baretma-stat/1", "type",
			 "interval", "time", ir->n ? ir->s[0].time : 0.0, "drift_us",
			 (double)ir->drift_ns / 1e3, "samples", samples_json(ir->s, ir->n));
}

static void interval_records(const void *record, output_record_fn rec, void *arg)
{
	const struct stat_interval_report *ir = record;

	for (unsigned i = 0; i < ir->n; i++)
		sample_records(&ir->s[i], rec, arg);
}

static void interval_samples(const void *record, output_sample_fn sample, void *arg)
{
	const struct stat_interval_report *ir = record;

	for (unsigned i = 0; i < ir->n; i++)
		sample_samples(&ir->s[i], sample, arg);
}

const struct output_view output_view_stat_interval = {
	.text = interval_text, .text_head = interval_head, .json = interval_json,
	.columns = output_long_columns, .records = interval_records,
	.samples = interval_samples,
};
