/*
 * t/0995-markers-region-method - the markers' BARETMA_REGION_METHOD (the
 * option region_method, include/baretma.h) and nested marker regions in
 * RDPMC metrics-clear mode, on the simulated PMU of the Lunar Lake dump
 * (CPU 0 a Lion Cove P-core, width W = 8, level 2, IA32_PERF_CAPABILITIES
 * bit 19: $SHARED_CPUID/INDEX.tsv; linux commit 0e45818ec189).
 *
 * Unset (auto): the markers' session says "metrics-clear regions" on
 * stderr, and the nested regions outer { inner1 { 4N work } inner2 { N
 * work } } read as t/0993 works them by hand: outer 10.W.N = 80000 slots
 * and tma_retiring 36 %, inner1 5.W.N = 40000 and 46.667 %, inner2 2.W.N
 * = 16000 and 33.333 % (t/0993's profile and segment table).
 * "delta": the stderr note says the delta method and why.
 * "bogus": one line naming the variable and the values accepted, markers
 * off (no document written at CLOSE).
 */
#define BARETMA_PERFMON 1
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "include/baretma.h"
#include "msr/access/msr.h"
#include "msr/open/msr_open.h"
#include "msr/sim/msr_sim.h"
#include "t/fixture.h"

#define N 1000u

static struct msr_dev *dev;
static char errf[PATH_MAX], out[PATH_MAX];

/* BARETMA_MARKER_INIT with stderr into errf; the text it printed. */
static char *init_captured(void)
{
	int saved = dup(2), fd = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	static char buf[8192];
	ssize_t n;

	fflush(stderr);
	dup2(fd, 2);
	close(fd);
	BARETMA_MARKER_INIT;
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	fd = open(errf, O_RDONLY);
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	buf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
	return buf;
}

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static json_t *region(json_t *doc, const char *name)
{
	json_t *regions = json_object_get(doc, "regions"), *r; /* one thread: at the top */
	size_t i;

	json_array_foreach(regions, i, r)
		if (!strcmp(json_string_value(json_object_get(r, "name")) ?: "", name))
			return r;
	return NULL;
}

int main(void)
{
	char *ptext;
	const char *shared = t_shared_dumps();
	static char dir[PATH_MAX], run[PATH_MAX], prof[PATH_MAX], spec[PATH_MAX + 8];
	static char lnl[PATH_MAX], state[PATH_MAX];
	json_error_t jerr;
	json_t *doc, *r;
	char *text;

	t_path(lnl, "%s/libcpuid/master-history/intel/x86-64/lion-cove/"
	       "intel-core-ultra-9-288v.test", shared);
	t_scratch(dir, "0995");
	t_path(run, "%s/run", dir);
	t_path(prof, "%s/profile", dir);
	t_path(errf, "%s/stderr", dir);
	t_path(out, "%s/markers.json", dir);
	t_path(state, "%s/state", dir);
	t_put_lnl_state(state, 0);
	ptext = t_lnl_two_workloads(state);
	t_put_tree(prof, ptext);
	free(ptext);
	t_path(spec, "sim:%s", prof);
	setenv("BARETMA_STATE_DIR", run, 1);
	setenv("BARETMA_MSR", spec, 1);
	setenv("BARETMA_CPUID_DUMP", lnl, 1);
	setenv("BARETMA_CPU", "0", 1);
	setenv("BARETMA_BACKEND", "rdpmc", 1);
	setenv("BARETMA_LEVEL", "2", 1);
	setenv("BARETMA_OUTPUT", out, 1);
	unsetenv("BARETMA_REGION_METHOD");
	unsetenv("BARETMA_CPUS");
	unsetenv("BARETMA_MSR_TRACE");
	unsetenv("BARETMA_PERF");
	if (msr_open_on(spec, lnl, &dev)) {
		printf("# %s\n", msr_last_error());
		skip_all("cannot open the simulated Lunar Lake machine");
	}
	plan(9);

	/* unset: auto, metrics-clear; nested regions summed by segment */
	text = init_captured();
	ok(strstr(text, "baretma: note: regions: RDPMC metrics-clear regions") != NULL,
	   "unset: the markers say metrics-clear regions");
	if (!strstr(text, "metrics-clear"))
		printf("# stderr: %s\n", text);
	BARETMA_MARKER_START("outer");
	BARETMA_MARKER_START("inner1");
	msr_sim_work(dev, 0, 4 * N);
	BARETMA_MARKER_STOP("inner1");
	BARETMA_MARKER_START("inner2");
	msr_sim_work(dev, 0, N);
	BARETMA_MARKER_STOP("inner2");
	BARETMA_MARKER_STOP("outer");
	BARETMA_MARKER_CLOSE;
	doc = json_load_file(out, 0, &jerr);
	r = doc ? region(doc, "outer") : NULL;
	ok(r && num(r, "slots") == 80000 && fabs(num(r, "tma_retiring") - 36) < 1e-6,
	   "outer: 10.W.N = 80000 slots, tma_retiring 36 %% (%g, %g)", r ? num(r, "slots") : NAN,
	   r ? num(r, "tma_retiring") : NAN);
	r = doc ? region(doc, "inner1") : NULL;
	ok(r && num(r, "slots") == 40000 && fabs(num(r, "tma_retiring") - 140.0 / 3) < 1e-6,
	   "inner1: 40000 slots, tma_retiring 46.667 %%");
	r = doc ? region(doc, "inner2") : NULL;
	ok(r && num(r, "slots") == 16000 && fabs(num(r, "tma_retiring") - 100.0 / 3) < 1e-6,
	   "inner2: 16000 slots, tma_retiring 33.333 %%");
	json_decref(doc);
	unlink(out);

	/* "delta" */
	setenv("BARETMA_REGION_METHOD", "delta", 1);
	text = init_captured();
	ok(strstr(text, "baretma: note: regions: the delta method (slot-weighted differences "
		  "of IA32_PERF_METRICS readings): region_method \"delta\"") != NULL,
	   "delta: the markers say the delta method and why");
	BARETMA_MARKER_START("r");
	BARETMA_MARKER_STOP("r");
	BARETMA_MARKER_CLOSE;
	ok(access(out, F_OK) == 0, "delta: measured, the document written");
	unlink(out);

	/* a bad value: markers off, one line naming it */
	setenv("BARETMA_REGION_METHOD", "bogus", 1);
	text = init_captured();
	check_str(text, "baretma: markers: BARETMA_REGION_METHOD 'bogus': expected auto, delta "
		  "or metrics-clear; markers off\n", "bogus: the variable, its value, the values "
		  "accepted");
	BARETMA_MARKER_START("r");
	BARETMA_MARKER_STOP("r");
	BARETMA_MARKER_CLOSE;
	ok(access(out, F_OK) != 0, "bogus: markers off, no document");
	ok(t_journals(run) == 0, "no journal left in the state directory");
	msr_close(dev);
	t_rm_rf(dir);
	return done_testing();
}
