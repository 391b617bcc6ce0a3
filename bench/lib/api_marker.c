/*
 * bench/lib/api_marker.c - LIKWID-style markers (include/baretma.h
 * BARETMA_MARKER_*): a session per thread, as LIKWID's marker API has -
 * baretma_marker_init opens the calling thread's with options from the
 * environment, baretma_marker_thread_init each other thread's on its own
 * CPU - kept in a registry; a START/STOP goes to the calling thread's
 * session (a thread without one: to the first, which refuses and counts
 * it: never merged).  At close, a table (or JSON) per thread, and the
 * regions combined over the threads.  Errors
 * are printed and never fatal: a marker that cannot measure turns itself
 * off and the program runs on.  Unlike the rest of the library, this part
 * prints: that is what markers are for.
 *
 * Environment: BARETMA_CPU (an OS CPU, decimal; default: choose),
 * BARETMA_CPUS (a comma-separated list of OS CPUs: the Nth session opened,
 * INIT's first, measures the Nth; as likwid-perfctr -C pins its threads),
 * BARETMA_BACKEND (auto, rdpmc, msr, tsc), BARETMA_LEVEL (1 or 2),
 * BARETMA_CPUID_DUMP (the machine described: the option cpuid_dump),
 * BARETMA_REGION_METHOD (auto, delta, metrics-clear: the option
 * region_method),
 * BARETMA_OUTPUT (append the JSON document, schema "baretma-markers/1",
 * to this file instead of printing the table; a file of the real user,
 * cpu/userfile.h).
 */
/* the marker functions are declared only under BARETMA_PERFMON */
#define BARETMA_PERFMON 1
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
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

/* The registry: every session the markers opened, INIT's first. */
struct marker_session {
	struct baretma *bm;
	unsigned thread;              /* its index: the order the sessions opened */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct marker_session *sessions;
static unsigned nsessions, capacity, assigned;
static bool on;                        /* INIT opened its session */
static struct baretma *first;          /* INIT's session (read without the lock:
					* set before any other thread's START) */
static int first_cpu = -1;             /* its CPU */
static cpu_set_t allowed;              /* INIT's thread's CPUs before it was pinned */
static unsigned generation;            /* + 1 at each CLOSE: older sessions are gone */
static struct baretma_options opts;    /* INIT's, from the environment */
static _Thread_local struct baretma *mine;
static _Thread_local unsigned mine_generation;

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

/* The @idx-th CPU of $BARETMA_CPUS: 0 and *cpu, 1 when unset, -1 when
 * the list is bad (all of it is checked) or shorter (said). */
static int env_cpus(unsigned idx, int *cpu)
{
	const char *v = getenv("BARETMA_CPUS"), *p = v;
	unsigned i = 0;
	int found = -1;

	if (!v || !*v)
		return 1;
	for (;;) {
		char *end;
		long n = strtol(p, &end, 10);

		if (end == p || *p == '-' || *p == '+' || n > 8191 || (*end && *end != ',')) {
			esc_fprintf(stderr, "baretma: markers: BARETMA_CPUS '%s': expected OS CPU "
				    "numbers separated by commas; markers off\n", v);
			return -1;
		}
		if (i++ == idx)
			found = (int)n;
		if (!*end)
			break;
		p = end + 1;
	}
	if (found >= 0) {
		*cpu = found;
		return 0;
	}
	esc_fprintf(stderr, "baretma: markers: BARETMA_CPUS '%s' names %u CPUs: no CPU for "
		    "thread %u; markers off in that thread\n", v, i, idx);
	return -1;
}

/* Thread @idx's CPU without $BARETMA_CPUS: the one CPU the calling
 * thread is bound to, unless that is only INIT's session's, inherited
 * (a thread created while INIT's thread was pinned); else, of the n CPUs
 * INIT's thread had before it was pinned, INIT's first and the others in
 * order, the (@idx mod n)-th: the threads spread as LIKWID's pinning
 * does; -1 (choose) when unknown. */
static int thread_cpu(unsigned idx)
{
	cpu_set_t set;
	int n = CPU_COUNT(&allowed);
	unsigned k = 1, want = n ? idx % (unsigned)n : 0;

	CPU_ZERO(&set);
	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) == 1)
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set) && c != first_cpu)
				return c;
	if (!n || first_cpu < 0 || !CPU_ISSET(first_cpu, &allowed))
		return -1;
	if (!want)
		return first_cpu;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &allowed) && c != first_cpu && k++ == want)
			return c;
	return -1;
}

/* Open the calling thread's session as thread @idx on @cpu; register it. */
static struct baretma *open_mine(unsigned idx, int cpu)
{
	struct baretma_options o = opts;
	struct baretma *bm;

	o.cpu = cpu;
	if (baretma_open(&bm, &o) < 0) {
		esc_fprintf(stderr, "baretma: markers off%s: %s\n", idx ? " in this thread" : "",
			    baretma_last_error());
		return NULL;
	}
	for (const char *l = baretma_notes(bm), *nl; *l; l = nl + 1) {
		nl = strchr(l, '\n');
		esc_fprintf(stderr, "baretma: %.*s\n", (int)(nl - l), l);
	}
	pthread_mutex_lock(&lock);
	if (nsessions == capacity) {
		unsigned want = capacity ? 2 * capacity : 16;
		struct marker_session *grown = realloc(sessions, want * sizeof(*grown));

		if (!grown) {
			pthread_mutex_unlock(&lock);
			fprintf(stderr, "baretma: markers off in this thread: %s\n", strerror(ENOMEM));
			baretma_close(bm);
			return NULL;
		}
		sessions = grown;
		capacity = want;
	}
	sessions[nsessions++] = (struct marker_session){ bm, idx };
	pthread_mutex_unlock(&lock);
	mine = bm;
	mine_generation = generation;
	return bm;
}

void baretma_marker_init(void)
{
	const char *backend = getenv("BARETMA_BACKEND");
	const char *method = getenv("BARETMA_REGION_METHOD");
	enum region_method m;
	bool bad = false;
	int cpu, rc;

	if (on)
		return;
	opts = (struct baretma_options)BARETMA_OPTIONS_INIT;
	cpu = env_int("BARETMA_CPU", 0, 8191, -1, &bad);
	opts.level = env_int("BARETMA_LEVEL", 1, 2, 0, &bad);
	if (backend && *backend)
		opts.backend = backend;
	if (method && *method) {
		opts.region_method = method;
		if (api_region_method_parse(method, &m)) {
			esc_fprintf(stderr, "baretma: markers: BARETMA_REGION_METHOD '%s': expected "
				    "auto, delta or metrics-clear; markers off\n", method);
			bad = true;
		}
	}
	/* a dry run: the dump is the machine the simulator models */
	if (getenv("BARETMA_CPUID_DUMP") && *getenv("BARETMA_CPUID_DUMP"))
		opts.cpuid_dump = getenv("BARETMA_CPUID_DUMP");
	rc = env_cpus(0, &cpu);
	if (bad || rc < 0)
		return;
	assigned = 1;
	CPU_ZERO(&allowed);
	sched_getaffinity(0, sizeof(allowed), &allowed);
	first = open_mine(0, cpu);
	on = first != NULL;
	first_cpu = on ? (int)api_info(first)->cpu_used : -1;
}

void baretma_marker_thread_init(void)
{
	unsigned idx;
	int cpu = -1;

	if (!on || (mine && mine_generation == generation))
		return;
	pthread_mutex_lock(&lock);
	idx = assigned++;
	pthread_mutex_unlock(&lock);
	if (env_cpus(idx, &cpu) < 0)
		return;
	if (!getenv("BARETMA_CPUS") || !*getenv("BARETMA_CPUS"))
		cpu = thread_cpu(idx);
	open_mine(idx, cpu);
}

/* The calling thread's session; a thread without one gets the first, which
 * refuses it and counts (include/baretma.h Threads). */
static struct baretma *session_for_me(void)
{
	if (!on)
		return NULL;
	if (mine && mine_generation == generation)
		return mine;
	return first;
}

void baretma_marker_start(const char *name)
{
	struct baretma *bm = session_for_me();

	if (bm)
		baretma_region_begin(bm, name);
}

void baretma_marker_stop(const char *name)
{
	struct baretma *bm = session_for_me();

	if (bm)
		baretma_region_end(bm, name);
}

/* ------------------------------------------------------------ the table */

static void print_head(FILE *f, const char *who, const struct session_info *in, int level)
{
	fprintf(f, "baretma: %scpu %u, backend %s, %s\n", who, in->cpu_used,
		bench_backend_name(in->backend),
		level ? (level == 2 ? "Top-down level 2 (percent of slots)" :
			 "Top-down level 1 (percent of slots)") : "TSC only");
	fprintf(f, "%-20s %8s %8s %14s %12s %12s %7s", "region", "count", "invalid",
		"sum TSC ticks", "median TSC", "slots", "+/-pp");
	for (int m = 0; level && m < TMA_NMETRICS; m++)
		if (td_metric_level((enum td_metric)m) <= level)
			fprintf(f, " %22s", td_metric_name((enum td_metric)m));
	fputc('\n', f);
}

/* One row; @median NAN when not known (the combined rows). */
static void print_row(FILE *f, const char *name, const struct baretma_result *r, double median,
		      uint64_t misuse, int level)
{
	if (!r->count) {
		/* never zeros for what was not measured: what happened instead */
		fprintf(f, "%-20s no pair measured", name);
		if (misuse)
			fprintf(f, ": %llu begin/end out of order (an end without its begin)",
				(unsigned long long)misuse);
		fputc('\n', f);
		return;
	}
	fprintf(f, "%-20s %8llu %8llu %14.0f", name, (unsigned long long)r->count,
		(unsigned long long)r->invalid, r->tsc);
	if (isnan(median))
		fprintf(f, " %12s", "-");
	else
		fprintf(f, " %12.0f", median);
	if (r->level) {
		fprintf(f, " %12.0f %7.2f", r->slots, r->bound_pp);
		for (int m = 0; m < TMA_NMETRICS; m++)
			if (td_metric_level((enum td_metric)m) <= level)
				fprintf(f, " %22.2f", r->tma[m]);
	} else if (level) {
		fprintf(f, " %12s %7s  no valid pair", "-", "-");
	}
	if (misuse)
		fprintf(f, "  (%llu begin/end out of order)", (unsigned long long)misuse);
	fputc('\n', f);
}

/* What @bm's begins and ends refused, when any (@who: "thread N: "). */
static void print_refused(FILE *f, const char *who, struct baretma *bm)
{
	const struct region_table *t = api_regions(bm);
	struct baretma_misuse m;

	baretma_misuse(bm, &m);
	if (m.foreign_thread)
		fprintf(f, "baretma: %s%llu begins/ends from threads without a session of their own "
			"refused (call BARETMA_MARKER_THREADINIT in each thread)\n", who,
			(unsigned long long)m.foreign_thread);
	if (m.foreign_cpu)
		fprintf(f, "baretma: %s%llu begins/ends on another CPU than the session's refused "
			"(the thread was bound elsewhere)\n", who, (unsigned long long)m.foreign_cpu);
	if (t->lost)
		fprintf(f, "baretma: %s%llu begins lost (more than %d names, or a name longer than "
			"%d bytes)\n", who, (unsigned long long)t->lost, REGION_MAX,
			REGION_NAME_MAX - 1);
}

static void print_session(FILE *f, const char *who, const char *whose, struct baretma *bm)
{
	const struct region_table *t = api_regions(bm);
	int level = api_level(bm);

	print_head(f, who, api_info(bm), level);
	for (unsigned i = 0; i < t->n; i++) {
		struct baretma_region_stats st;

		region_stats(t, &t->r[i], level, &st);
		print_row(f, t->r[i].name, &st.total, st.tsc.median, t->r[i].misuse, level);
	}
	print_refused(f, whose, bm);
}

/* The tables of the sessions (@n of them): the region names in the order
 * they first appear. */
static unsigned combined_names(const char **names, unsigned max)
{
	unsigned n = 0;

	for (unsigned s = 0; s < nsessions; s++) {
		const struct region_table *t = api_regions(sessions[s].bm);

		for (unsigned i = 0; i < t->n; i++) {
			unsigned k = 0;

			while (k < n && strcmp(names[k], t->r[i].name))
				k++;
			if (k == n && n < max)
				names[n++] = t->r[i].name;
		}
	}
	return n;
}

/* The combined result of @name over every session, as the first's kind. */
static unsigned combined(const char *name, struct baretma_result *r, uint64_t *misuse,
			 unsigned *skipped)
{
	const struct region_table **ts = calloc(nsessions, sizeof(*ts));
	struct region sum;
	unsigned had;

	if (!ts)
		return 0;
	for (unsigned s = 0; s < nsessions; s++)
		ts[s] = api_regions(sessions[s].bm);
	had = region_combine(ts, nsessions, name, &sum, skipped);
	region_result(ts[0], &sum, api_level(sessions[0].bm), r);
	*misuse = sum.misuse;
	free(ts);
	return had;
}

static void print_tables(FILE *f)
{
	const char *names[REGION_MAX * 4];
	unsigned n;

	if (nsessions == 1) {
		print_session(f, "", "", sessions[0].bm);
		return;
	}
	for (unsigned s = 0; s < nsessions; s++) {
		char who[32], whose[32];

		snprintf(who, sizeof(who), "thread %u, ", sessions[s].thread);
		snprintf(whose, sizeof(whose), "thread %u: ", sessions[s].thread);
		print_session(f, who, whose, sessions[s].bm);
	}
	fprintf(f, "baretma: %u threads combined: pairs and slots summed, shares slot-weighted\n",
		nsessions);
	n = combined_names(names, sizeof(names) / sizeof(names[0]));
	for (unsigned i = 0; i < n; i++) {
		struct baretma_result r;
		uint64_t misuse;
		unsigned skipped, had = combined(names[i], &r, &misuse, &skipped);

		print_row(f, names[i], &r, NAN, misuse, api_level(sessions[0].bm));
		if (skipped)
			fprintf(f, "baretma: '%s': %u of %u threads left out of the combined row (another "
				"core kind: other events)\n", names[i], skipped, had + skipped);
	}
}

/* ------------------------------------------------------------- the JSON */

static json_t *result_json(const char *name, const struct baretma_result *r, double median,
			   uint64_t misuse)
{
	json_t *o = json_pack("{s:s,s:I,s:I,s:{s:I,s:I,s:I,s:I,s:I},s:i,s:I,s:o}",
			      "name", name, "count", (json_int_t)r->count,
			      "invalid", (json_int_t)r->invalid, "invalid_reasons",
			      "tampered", (json_int_t)r->invalid_why.tampered,
			      "overflow", (json_int_t)r->invalid_why.overflow,
			      "slots_back", (json_int_t)r->invalid_why.slots_back,
			      "zero_slots", (json_int_t)r->invalid_why.zero_slots,
			      "l1_sum", (json_int_t)r->invalid_why.l1_sum,
			      "level", r->level, "misuse", (json_int_t)misuse,
			      "flags", bench_flags_json(r->flags));

	if (!o)
		return NULL;
	/* never zeros for what was not measured: null */
	json_object_set_new(o, "tsc_ticks", r->count ? json_real(r->tsc) : json_null());
	json_object_set_new(o, "tsc_median", isnan(median) ? json_null() : json_real(median));
	if (!r->level)
		return o;
	json_object_set_new(o, "slots", json_real(r->slots));
	json_object_set_new(o, "bound_pp", json_real(r->bound_pp));
	for (int m = 0; m < TMA_NMETRICS; m++)
		if (td_metric_level((enum td_metric)m) <= r->level)
			json_object_set_new(o, td_metric_name((enum td_metric)m),
					    json_real(r->tma[m]));
	return o;
}

static json_t *regions_json(struct baretma *bm)
{
	const struct region_table *t = api_regions(bm);
	json_t *a = json_array();

	for (unsigned i = 0; a && i < t->n; i++) {
		struct baretma_region_stats st;

		region_stats(t, &t->r[i], api_level(bm), &st);
		json_array_append_new(a, result_json(t->r[i].name, &st.total, st.tsc.median,
						     t->r[i].misuse));
	}
	return a;
}

static json_t *session_json(const struct marker_session *ms)
{
	const struct session_info *in = api_info(ms->bm);
	int level = api_level(ms->bm);
	struct baretma_misuse m;

	baretma_misuse(ms->bm, &m);
	return json_pack("{s:I,s:I,s:s,s:i,s:s?,s:I,s:I,s:I,s:o}", "thread",
			 (json_int_t)ms->thread, "cpu", (json_int_t)in->cpu_used,
			 "backend", bench_backend_name(in->backend), "level", level,
			 "reason", level ? NULL : bench_avail_reason(&in->avail),
			 "lost", (json_int_t)m.lost, "refused_thread", (json_int_t)m.foreign_thread,
			 "refused_cpu", (json_int_t)m.foreign_cpu, "regions", regions_json(ms->bm));
}

/* The document: the first session's keys at the top (as with one thread),
 * and with several threads each one's and the combined regions. */
static json_t *document(void)
{
	json_t *doc = session_json(&sessions[0]), *threads, *comb;
	const char *names[REGION_MAX * 4];
	unsigned n;

	if (!doc)
		return NULL;
	json_object_del(doc, "thread");
	json_object_set_new(doc, "schema", json_string("baretma-markers/1"));
	json_object_set_new(doc, "host", host_to_json());
	if (nsessions == 1)
		return doc;
	threads = json_array();
	comb = json_array();
	for (unsigned s = 0; s < nsessions; s++)
		json_array_append_new(threads, session_json(&sessions[s]));
	n = combined_names(names, sizeof(names) / sizeof(names[0]));
	for (unsigned i = 0; i < n; i++) {
		struct baretma_result r;
		uint64_t misuse;
		unsigned skipped;

		combined(names[i], &r, &misuse, &skipped);
		json_array_append_new(comb, result_json(names[i], &r, NAN, misuse));
	}
	json_object_set_new(doc, "threads", threads);
	json_object_set_new(doc, "combined", comb);
	return doc;
}

/* @s written to @fd whole: 0, or the -errno of the write that failed
 * (-ENOSPC also for one the file system cut short). */
static int append_all(int fd, const char *s)
{
	size_t n = strlen(s);

	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -ENOSPC;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The JSON document appended to $BARETMA_OUTPUT. */
static int write_json(const char *path)
{
	json_t *doc = document();
	const char *why;
	char *text;
	int fd, rc = 0;

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
	rc = append_all(fd, text);
	if (!rc)
		rc = append_all(fd, "\n");
	if (rc) { /* lost regions are said, as a refused file is */
		char shown[4 * PATH_MAX];

		esc_str(shown, sizeof(shown), path);
		fprintf(stderr, "baretma: markers: BARETMA_OUTPUT '%s': cannot append the regions: "
			"%s (the file may end in a part of the document)\n", shown, strerror(-rc));
	}
	close(fd);
	free(text);
	return rc;
}

static int by_thread(const void *a, const void *b)
{
	const struct marker_session *x = a, *y = b;

	return (x->thread > y->thread) - (x->thread < y->thread);
}

void baretma_marker_close(void)
{
	const char *out = getenv("BARETMA_OUTPUT");

	if (!on)
		return;
	pthread_mutex_lock(&lock);
	qsort(sessions, nsessions, sizeof(*sessions), by_thread);
	if (out && *out)
		write_json(out);
	else
		print_tables(stderr);
	/* the other threads' sessions are closed here, as LIKWID's are: their
	 * registers restored, this thread's binding kept (baretma_close) */
	for (unsigned s = 0; s < nsessions; s++)
		if (baretma_close(sessions[s].bm) < 0)
			esc_fprintf(stderr, "baretma: markers: %s\n", baretma_last_error());
	free(sessions);
	sessions = NULL;
	nsessions = capacity = assigned = 0;
	generation++;
	on = false;
	first = mine = NULL;
	pthread_mutex_unlock(&lock);
}
