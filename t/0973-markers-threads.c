/*
 * t/0973-markers-threads - the markers in a threaded harness, as LIKWID's
 * marker API: BARETMA_MARKER_INIT on the main thread, BARETMA_MARKER_
 * THREADINIT in each worker, each thread its own session on its own CPU
 * (BARETMA_CPUS=0,1,2,3: the Nth session the Nth CPU, as likwid-perfctr
 * -C), on the simulated PMU of one Ice Lake machine (the real dump,
 * $SHARED_CPUID; the profile and state file of t/0453).  Then a thread
 * that never called THREADINIT brackets the same region: refused and
 * counted in the session it reached, never merged (before, every thread's
 * markers went into the one session: its count was the sum, 1 + 4 x 25).
 *
 * What must hold, from outside the code: the JSON document at CLOSE has 4
 * threads on CPUs 0-3, each with PAIRS pairs of "r" and tma_retiring the
 * profile's 102/256 = 39.84375 % (t/0453 works it by hand), a combined row
 * of 4 x PAIRS pairs with the same share, and the foreign thread's begin
 * and end (2) in thread 0's refused_thread; the state file byte for byte
 * as found.  The library itself: a begin from another thread than the
 * session's is refused (baretma_misuse foreign_thread 1, the pair not
 * counted, baretma_last_error says why); on this machine, a TSC session
 * whose thread the harness re-binds to another CPU refuses a begin there
 * (foreign_cpu 1; needs two CPUs).  And a region that has no pair (an end
 * never begun) says so in the table and is null in the JSON, never zeros.
 */
#define BARETMA_PERFMON 1
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "include/baretma.h"
#include "t/fixture.h"

#define NWORKERS 3
#define PAIRS 25

static char dir[PATH_MAX], state[PATH_MAX], run[PATH_MAX], profile[PATH_MAX];
static char spec[PATH_MAX + 8], out[PATH_MAX], orig[16384];

static void regs(char *buf, size_t n, unsigned cpu)
{
	size_t o = strlen(buf);

	/* the eight counters with their full-width aliases (IA32_A_PMCx, as
	 * IA32_PERF_CAPABILITIES 0xa000's bit 13 says): Ice Lake's recipe
	 * counts two events beside PERF_METRICS (msr/recipe/recipes_intel_pm.c) */
	for (unsigned i = 0; i < 8; i++)
		o += (size_t)snprintf(buf + o, n - o, "%u 0x%x 0x0\n%u 0x%x 0x0\n%u 0x%x 0x0\n",
				      cpu, 0x186 + i, cpu, 0xc1 + i, cpu, 0x4c1 + i);
	snprintf(buf + o, n - o,
		 "%u 0x309 0x0\n%u 0x30a 0x0\n%u 0x30b 0x0\n%u 0x30c 0x0\n%u 0x329 0x0\n"
		 "%u 0x345 0xa000\n%u 0x38d 0x0\n%u 0x38e 0x0\n%u 0x38f 0x7000000ff\n"
		 "%u 0x390 0x0\n%u 0x391 0x0\n%u 0x392 0x0\n", cpu, cpu, cpu, cpu, cpu, cpu,
		 cpu, cpu, cpu, cpu, cpu, cpu);
}

static pthread_barrier_t inited;

static void pairs(void)
{
	for (int i = 0; i < PAIRS; i++) {
		BARETMA_MARKER_START("r");
		BARETMA_MARKER_STOP("r");
	}
}

static void *worker(void *arg)
{
	BARETMA_MARKER_THREADINIT;
	pthread_barrier_wait(&inited); /* all open before any measures */
	pairs();
	return arg;
}

static void *stranger(void *arg)
{
	BARETMA_MARKER_START("r");
	BARETMA_MARKER_STOP("r");
	return arg;
}

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The region "r" of @regions, or NULL. */
static json_t *region_r(json_t *regions)
{
	size_t i;
	json_t *r;

	json_array_foreach(regions, i, r)
		if (!strcmp(json_string_value(json_object_get(r, "name")) ?: "", "r"))
			return r;
	return NULL;
}

static void markers(void)
{
	pthread_t t[NWORKERS], s;
	json_error_t jerr;
	json_t *doc, *threads, *th, *comb;
	size_t i;
	unsigned cpus = 0, good = 0;

	put_file(state, orig);
	setenv("BARETMA_CPUS", "0,1,2,3", 1);
	setenv("BARETMA_BACKEND", "msr", 1);
	setenv("BARETMA_OUTPUT", out, 1);
	pthread_barrier_init(&inited, NULL, NWORKERS + 1);
	BARETMA_MARKER_INIT;
	for (int k = 0; k < NWORKERS; k++)
		pthread_create(&t[k], NULL, worker, NULL);
	pthread_barrier_wait(&inited);
	pairs();
	for (int k = 0; k < NWORKERS; k++)
		pthread_join(t[k], NULL);
	pthread_create(&s, NULL, stranger, NULL);
	pthread_join(s, NULL);
	BARETMA_MARKER_CLOSE;
	pthread_barrier_destroy(&inited);

	doc = json_load_file(out, 0, &jerr);
	if (!ok(doc != NULL, "CLOSE wrote the JSON document")) {
		printf("# %s\n", jerr.text);
		skip(7, "no document");
		return;
	}
	threads = json_object_get(doc, "threads");
	check_int((int)json_array_size(threads), ==, NWORKERS + 1, "4 threads, each its own result");
	json_array_foreach(threads, i, th) {
		json_t *r = region_r(json_object_get(th, "regions"));

		cpus |= 1u << (unsigned)num(th, "cpu");
		good += r && num(r, "count") == PAIRS && num(r, "invalid") == 0 &&
			fabs(num(r, "tma_retiring") - 39.84375) < 1e-9;
	}
	check_int(cpus, ==, 0xf, "on CPUs 0, 1, 2, 3 (BARETMA_CPUS)");
	check_int(good, ==, NWORKERS + 1, "each: 25 pairs, none invalid, tma_retiring 39.84375 %");
	comb = region_r(json_object_get(doc, "combined"));
	ok(comb && num(comb, "count") == 4 * PAIRS, "combined: 4 x 25 = 100 pairs, the stranger's "
	   "not among them (%g)", comb ? num(comb, "count") : NAN);
	ok(comb && fabs(num(comb, "tma_retiring") - 39.84375) < 1e-9,
	   "combined: tma_retiring 39.84375 %%");
	check_dbl(num(json_array_get(threads, 0), "refused_thread"), 2, 0,
		  "the stranger's begin and end: refused, counted in thread 0's session");
	check_str(get_file(state), orig, "the state file byte for byte as found");
	json_decref(doc);
	unsetenv("BARETMA_OUTPUT");
	unsetenv("BARETMA_CPUS");
}

/* ----------------------------------------- a region with no pair (TSC) */

/* An end of a name never begun: its row says so, never "0 0 0" (before:
 * "never-started 0 0 0"); its JSON tsc_ticks is null, not 0. */
static void never_started(void)
{
	char err[PATH_MAX + 8];
	json_t *doc, *regions;
	const char *text;
	int saved, fd;

	setenv("BARETMA_BACKEND", "tsc", 1);
	t_path(err, "%s/stderr", dir);
	fflush(stderr);
	saved = dup(2);
	fd = open(err, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0600);
	dup2(fd, 2);
	close(fd);
	BARETMA_MARKER_INIT;
	BARETMA_MARKER_START("ran");
	BARETMA_MARKER_STOP("ran");
	BARETMA_MARKER_STOP("never-started");
	BARETMA_MARKER_CLOSE;
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	text = get_file(err);
	ok(strstr(text, "\nnever-started        no pair measured: 1 begin/end out of order (an end "
		  "without its begin)\n") != NULL, "the table: a region with no pair says so");
	ok(strstr(text, "\nran                         1        0 ") != NULL,
	   "... beside a region with its pair");
	setenv("BARETMA_OUTPUT", out, 1);
	unlink(out);
	BARETMA_MARKER_INIT;
	BARETMA_MARKER_STOP("never-started");
	BARETMA_MARKER_CLOSE;
	unsetenv("BARETMA_OUTPUT");
	doc = json_load_file(out, 0, NULL);
	regions = json_object_get(doc, "regions");
	ok(json_array_size(regions) == 1 &&
	   json_is_null(json_object_get(json_array_get(regions, 0), "tsc_ticks")) &&
	   num(json_array_get(regions, 0), "count") == 0,
	   "the JSON: count 0, tsc_ticks null (never 0)");
	json_decref(doc);
	unlink(out);
	/* a bad BARETMA_CPUS: said, the markers off, the program runs on */
	setenv("BARETMA_CPUS", "0,x", 1);
	fflush(stderr);
	saved = dup(2);
	fd = open(err, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0600);
	dup2(fd, 2);
	close(fd);
	BARETMA_MARKER_INIT;
	BARETMA_MARKER_START("r");
	BARETMA_MARKER_STOP("r");
	BARETMA_MARKER_CLOSE;
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	unsetenv("BARETMA_CPUS");
	check_str(get_file(err), "baretma: markers: BARETMA_CPUS '0,x': expected OS CPU numbers "
		  "separated by commas; markers off\n", "a bad BARETMA_CPUS: one line, markers off");
}

/* ------------------------------------------------ the library's refusal */

struct foreign {
	struct baretma *bm;
	char err[512];
};

static void *foreign_begin(void *arg)
{
	struct foreign *f = arg;

	baretma_region_begin(f->bm, "x");
	baretma_region_end(f->bm, "x");
	snprintf(f->err, sizeof(f->err), "%s", baretma_last_error());
	return NULL;
}

static void library(void)
{
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	struct baretma_misuse m;
	struct baretma_result r;
	struct foreign f = { 0 };
	pthread_t t;
	cpu_set_t set, other;
	int cpu;

	o.backend = "tsc";
	unsetenv("BARETMA_MSR");
	unsetenv("BARETMA_CPUID_DUMP");
	if (baretma_open(&f.bm, &o)) {
		skip(6, "no TSC session here");
		return;
	}
	baretma_region_begin(f.bm, "x");
	baretma_region_end(f.bm, "x");
	pthread_create(&t, NULL, foreign_begin, &f);
	pthread_join(t, NULL);
	check_int(baretma_misuse(f.bm, &m), ==, 0, "baretma_misuse");
	check_u64(m.foreign_thread, ==, 2, "another thread's begin and end: refused, counted");
	baretma_region_get(f.bm, "x", &r);
	check_u64(r.count, ==, 1, "... and not merged: the session's one pair");
	ok(strstr(f.err, "refused: this thread did not open the session") != NULL,
	   "... said in that thread's baretma_last_error: %s", f.err);
	/* the harness moves the session's thread to another CPU */
	cpu = sched_getcpu();
	CPU_ZERO(&set);
	sched_getaffinity(0, sizeof(set), &set);
	CPU_ZERO(&other);
	for (int c = 0; c < CPU_SETSIZE && sysconf(_SC_NPROCESSORS_ONLN) > 1; c++)
		if (c != cpu) {
			CPU_SET(c, &other);
			if (!sched_setaffinity(0, sizeof(other), &other))
				break;
			CPU_CLR(c, &other);
		}
	if (CPU_COUNT(&other) != 1 || sched_getcpu() == cpu) {
		skip(2, "one CPU: cannot move the thread");
	} else {
		baretma_region_begin(f.bm, "x");
		baretma_misuse(f.bm, &m);
		check_u64(m.foreign_cpu, ==, 1, "a begin on another CPU than the session's: refused");
		ok(strstr(baretma_last_error(), "the session measures cpu") != NULL,
		   "... said: %s", baretma_last_error());
	}
	baretma_close(f.bm);
}

int main(void)
{
	const char *shared = getenv("SHARED_CPUID");
	static char dump[PATH_MAX];
	char *text;

	t_scratch(dir, "0973");
	t_path(out, "%s/markers.json", dir);
	library();
	never_started();
	t_path(dump, "%s/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test",
	       shared && *shared ? shared : "../shared/cpuid");
	if (access(dump, R_OK)) {
		skip(8, "no Ice Lake dump (../shared/cpuid)");
		t_rm_rf(dir);
		return done_testing();
	}
	t_path(state, "%s/state", dir);
	t_path(run, "%s/run", dir);
	t_path(profile, "%s/profile", dir);
	for (unsigned cpu = 0; cpu < NWORKERS + 1; cpu++)
		regs(orig, sizeof(orig), cpu);
	text = t_strf("ghz 0\naccess_cycles 1000\nretiring 40\nbad_speculation 10\n"
		      "frontend_bound 20\nbackend_bound 30\nstate %s\n", state);
	put_file(profile, text);
	free(text);
	snprintf(spec, sizeof(spec), "sim:%s", profile);
	setenv("BARETMA_MSR", spec, 1);
	setenv("BARETMA_CPUID_DUMP", dump, 1);
	setenv("BARETMA_STATE_DIR", run, 1);
	unsetenv("BARETMA_MSR_TRACE");
	markers();
	t_rm_rf(dir);
	return done_testing();
}
