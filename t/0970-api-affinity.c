/*
 * t/0970-api-affinity - the library leaves the harness's thread bound as
 * it found it: baretma_open pins the calling thread to the measured CPU
 * (one CPU while the session is open) and baretma_close puts back the
 * CPUs it was allowed before (sched_getaffinity(2) before open equals
 * after close), so a thread created after close inherits them (the
 * binding is inherited at pthread_create: sched_setaffinity(2)).  It
 * failed before: after close the thread, and every thread it created
 * later, stayed on the one CPU.  Also when the harness had narrowed the
 * thread itself to a set of its own (two CPUs): that set comes back, not
 * "every CPU".  A session that fails to open leaves the thread as found.
 * Needs two CPUs here to tell one from many (skipped otherwise; with two,
 * the harness's set of two is every CPU again).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "include/baretma.h"
#include "t/tap.h"
#include "t/fixture.h"

static cpu_set_t now(void)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	sched_getaffinity(0, sizeof(s), &s);
	return s;
}

static void *child(void *arg)
{
	*(cpu_set_t *)arg = now();
	return NULL;
}

/* open a TSC session (pins), check it pinned one CPU, close */
static void session(const char *what, const cpu_set_t *before)
{
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	struct baretma *bm;
	cpu_set_t during, after, inherited;
	pthread_t t;

	o.backend = "tsc";
	if (!ok(baretma_open(&bm, &o) == 0, "%s: a TSC session opens", what)) {
		printf("# %s\n", baretma_last_error());
		skip(3, "no session");
		return;
	}
	during = now();
	ok(CPU_COUNT(&during) == 1, "%s: pinned to one CPU while open (%d)", what,
	   CPU_COUNT(&during));
	baretma_close(bm);
	after = now();
	ok(CPU_EQUAL(&after, before), "%s: after close the thread's CPUs are those before open "
	   "(%d of them, %d after)", what, CPU_COUNT(before), CPU_COUNT(&after));
	CPU_ZERO(&inherited);
	pthread_create(&t, NULL, child, &inherited);
	pthread_join(t, NULL);
	ok(CPU_EQUAL(&inherited, before), "%s: a thread created after close inherits them too",
	   what);
}

int main(void)
{
	static char dir[PATH_MAX], run[PATH_MAX];
	cpu_set_t all = now(), two;
	int n = 0;

	plan(10);
	if (CPU_COUNT(&all) < 2) {
		skip(10, "this thread may run on one CPU: pinned and not pinned look alike");
		return done_testing();
	}
	t_scratch(dir, "0970");
	t_path(run, "%s/run", dir);
	setenv("BARETMA_STATE_DIR", run, 1);
	setenv("BARETMA_MSR", "/nonexistent/baretma-test/cpu/%u/msr", 1);
	unsetenv("BARETMA_CPUID_DUMP");
	unsetenv("BARETMA_MSR_TRACE");

	session("every allowed CPU", &all);

	/* the harness's own narrower set: two of its CPUs */
	CPU_ZERO(&two);
	for (int c = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &all)) {
			CPU_SET(c, &two);
			n++;
		}
	sched_setaffinity(0, sizeof(two), &two);
	session("a set of two the harness chose", &two);

	/* a session that cannot open (no such CPU) binds nothing */
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	struct baretma *bm = NULL;
	cpu_set_t after;

	o.backend = "tsc";
	o.cpu = 100000;
	ok(baretma_open(&bm, &o) < 0, "cpu 100000: refused");
	after = now();
	ok(CPU_EQUAL(&after, &two), "  and the thread is as it was");
	sched_setaffinity(0, sizeof(all), &all);
	t_rm_rf(dir);
	return done_testing();
}
