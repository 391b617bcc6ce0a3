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

/* "0-7,12" from the ascending list @cpus into @buf; a list longer than
 * @n - 1 is cut at a comma and ends in "...". */
static const char *list_text(char *buf, size_t n, const unsigned *cpus, unsigned ncpus)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0, j; i < ncpus; i = j + 1) {
		char piece[32];
		int w;

		for (j = i; j + 1 < ncpus && cpus[j + 1] == cpus[j] + 1; j++)
			;
		w = j == i ? snprintf(piece, sizeof(piece), "%s%u", used ? "," : "", cpus[i])
			   : snprintf(piece, sizeof(piece), "%s%u-%u", used ? "," : "", cpus[i],
				      cpus[j]);
		/* room for the piece, and for ",..." while more follow */
		if (used + (size_t)w + (j + 1 < ncpus ? 4 : 0) >= n) {
			snprintf(buf + used, n - used, "%s...", used ? "," : "");
			break;
		}
		memcpy(buf + used, piece, (size_t)w + 1);
		used += (size_t)w;
	}
	return buf;
}

/* The CPUs of @s's row: the one CPU (--per-cpu), else its group's list. */
static const char *row_cpus(const struct stat_sample *s, char *buf, size_t n)
{
	if (s->cpu >= 0 || !s->cpus)
		return cpu_text(s, buf, n);
	return list_text(buf, n, s->cpus, s->ngroup_cpus);
}

/*
 * What @s is, by its CPUs' numbers and how many were counted: "cpus 0-15
 * (16 CPUs): performance cores (Golden Cove)", "cpus 0-15 (15 of 16 CPUs
 * counted): ..." when a CPU's counters overflowed, "cpu 3: general core
 * (Sunny Cove)" for one CPU of --per-cpu.
 */
static void group_text(char *buf, size_t n, const struct stat_sample *s)
{
	char list[256];
	unsigned all = s->cpus ? s->ngroup_cpus : s->ncpus;

	row_cpus(s, list, sizeof(list));
	if (s->cpu >= 0)
		snprintf(buf, n, "cpu %s: %s core (%s)", list, s->kind, s->uarch);
	else if (s->ncpus == all)
		snprintf(buf, n, "cpu%s %s (%u CPU%s): %s core%s (%s)", all == 1 ? "" : "s", list,
			 all, all == 1 ? "" : "s", s->kind, all == 1 ? "" : "s", s->uarch);
	else
		snprintf(buf, n, "cpu%s %s (%u of %u CPU%s counted): %s core%s (%s)",
			 all == 1 ? "" : "s", list, s->ncpus, all, all == 1 ? "" : "s", s->kind,
			 all == 1 ? "" : "s", s->uarch);
}

/* ------------------------------------------------------------ text */

/* @s's recipe, level and backend: ", recipe intel-perf-metrics, level 2,
 * backend msr" (in passes, a level not counted in each, said). */
static void recipe_text(char *buf, size_t n, const struct stat_sample *s)
{
	size_t u;

	snprintf(buf, n, ", recipe %s%s%s, level %d", s->recipe, s->variant ? ":" : "",
		 s->variant ? s->variant : "", s->level);
	u = strlen(buf);
	if (s->level_asked > s->level)
		snprintf(buf + u, n - u, " (level %d not counted: the count ended before each "
			 "of its %u passes had its turn)", s->level_asked, s->passes);
	else if (s->passes > 1)
		snprintf(buf + u, n - u, " in %u passes (each in turn, its part of the time)",
			 s->passes);
	u = strlen(buf);
	snprintf(buf + u, n - u, ", backend %s", s->backend);
}

static void sample_print(FILE *f, const struct stat_sample *s)
{
	char group[512], recipe[256];

	group_text(group, sizeof(group), s);
	recipe_text(recipe, sizeof(recipe), s);
	fprintf(f, "\n# %s%s\n", group, recipe);
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

	list_text(cpus, sizeof(cpus), rep->cpus, rep->ncpus > 0 ? (unsigned)rep->ncpus : 0);
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

static json_t *cpus_json(const unsigned *cpus, unsigned n)
{
	json_t *a = json_array();

	for (unsigned i = 0; a && i < n; i++)
		json_array_append_new(a, json_integer(cpus[i]));
	return a;
}

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
	if (o && s->cpus)
		json_object_set_new(o, "cpus", cpus_json(s->cpus, s->ngroup_cpus));
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
	json_t *cpus, *cmd = rep->argv ? json_array() : json_null();
	json_t *doc;

	cpus = cpus_json(rep->cpus, rep->ncpus > 0 ? (unsigned)rep->ncpus : 0);
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

/*
 * -I's text: perf stat -I's layout, a row per node of each group and
 * interval, the time first, so that each line fits a terminal of
 * STAT_IV_WIDTH columns whatever the level (a row of every node was 450
 * columns at level 2): the time, the group's CPUs (its list, or the one
 * CPU with --per-cpu), its core kind, the node (SLOTS, then each level-1
 * node followed by its level-2 children, indented), its share, the bound
 * and its slots.  The heading says once what each group is (its CPUs,
 * core, recipe, level, backend), from the first interval.
 */
#define STAT_IV_WIDTH 100
#define IV_ROW "%16.9f  %-9s %-11s  %-24s"  /* time, cpus, kind, node */
#define IV_HEAD "#%15s  %-9s %-11s  %-24s %7s %6s %16s\n"

/* "# @text" at most STAT_IV_WIDTH - 1 columns a line, wrapped between words,
 * the next lines "#   ". */
static void comment_wrapped(FILE *f, const char *text)
{
	size_t col = (size_t)fprintf(f, "#");

	while (*text) {
		size_t n = strcspn(text, " ");

		if (n && col > 4 && col + 1 + n >= STAT_IV_WIDTH) {
			fputs("\n#  ", f);
			col = 4;
		}
		if (n)
			col += (size_t)fprintf(f, " %.*s", (int)n, text);
		text += n + (text[n] == ' ');
	}
	fputc('\n', f);
}

/* Is @b of the same group description as @a (--per-cpu: a kind's CPUs)? */
static bool same_kind(const struct stat_sample *a, const struct stat_sample *b)
{
	return !strcmp(a->kind, b->kind) && !strcmp(a->recipe, b->recipe) &&
	       !strcmp(a->variant ? a->variant : "", b->variant ? b->variant : "");
}

/* The heading's line for the samples of @s[k]'s kind (of @n): what
 * group_text says of a group, of --per-cpu's CPUs of that kind. */
static void kind_line(FILE *f, const struct stat_sample *s, unsigned n, unsigned k)
{
	char text[1024], recipe[256], list[512];
	unsigned *cpus = calloc(n, sizeof(*cpus)), m = 0;

	recipe_text(recipe, sizeof(recipe), &s[k]);
	if (s[k].cpu < 0 || !cpus) {
		group_text(text, sizeof(text), &s[k]);
	} else {
		for (unsigned i = k; i < n; i++)
			if (s[i].cpu >= 0 && same_kind(&s[k], &s[i]))
				cpus[m++] = (unsigned)s[i].cpu;
		list_text(list, sizeof(list), cpus, m);
		snprintf(text, sizeof(text), "cpu%s %s (%u CPU%s, a row each): %s core%s (%s)",
			 m == 1 ? "" : "s", list, m, m == 1 ? "" : "s", s[k].kind,
			 m == 1 ? "" : "s", s[k].uarch);
	}
	free(cpus);
	snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s", recipe);
	comment_wrapped(f, text);
}

/* The heading of -I's lines, once, given the first interval. */
static int interval_head(FILE *f, const void *first)
{
	const struct stat_interval_report *ir = first;

	fprintf(f, "# %s\n", STAT_NOTE);
	for (unsigned k = 0; ir && k < ir->n; k++) {
		bool seen = false;

		for (unsigned i = 0; i < k && !seen; i++)
			seen = ir->s[k].cpu >= 0 && ir->s[i].cpu >= 0 &&
			       same_kind(&ir->s[i], &ir->s[k]);
		if (!seen)
			kind_line(f, ir->s, ir->n, k);
	}
	fprintf(f, IV_HEAD, "time", "cpus", "kind", "node", "% slots", "+/-", "slots");
	return ferror(f) ? -EIO : 0;
}

/* One sample's rows: SLOTS (with how many CPUs were counted, when not all
 * of the group), then every node. */
static void interval_rows(FILE *f, const struct stat_sample *s)
{
	char cpus[10], slots[32];

	row_cpus(s, cpus, sizeof(cpus));
	if (s->cpu < 0 && s->cpus && s->ncpus != s->ngroup_cpus)
		snprintf(slots, sizeof(slots), "SLOTS (%u of %u CPUs)", s->ncpus, s->ngroup_cpus);
	else
		snprintf(slots, sizeof(slots), "SLOTS");
	fprintf(f, IV_ROW, s->time, cpus, s->kind, slots);
	if (!s->valid) {
		fprintf(f, " not counted\n");
		return;
	}
	fprintf(f, " %7s %6s %16.0f\n", "", "", s->slots);
	for (unsigned i = 0; i < s->nnodes; i++) {
		const struct stat_node *nd = &s->node[i];
		char node[40];

		snprintf(node, sizeof(node), "%s%s", nd->level == 2 ? "  " : "", nd->metric);
		fprintf(f, IV_ROW " %7.2f %6.2f %16.0f\n", s->time, cpus, s->kind, node,
			100 * nd->frac, 100 * s->bound, nd->slots);
	}
}

/* An interval: each sample's rows. */
static int interval_text(FILE *f, const void *record)
{
	const struct stat_interval_report *ir = record;

	for (unsigned g = 0; g < ir->n; g++)
		interval_rows(f, &ir->s[g]);
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
