/*
 * t/0996-api-long-messages - the library's messages are never cut or
 * dropped, however long the names in them: baretma_last_error once sat in
 * 2048 bytes (vsnprintf cut it, the cause at its end first) and
 * baretma_notes in 2048 bytes (a line that did not fit was left out
 * whole).  A path may be PATH_MAX, 4096 bytes, long (linux
 * include/uapi/linux/limits.h); here a directory 12 levels of 200
 * characters deep, over 2400 characters:
 *  1. cpuid_dump names a missing file there: the error names the whole
 *     path and ends with its cause (cpu_machine_open's, after the path);
 *  2. the Ice Lake-L dump ($SHARED_CPUID) copied there, a session on its
 *     CPU 7 (backend msr on the simulated PMU, as t/0986): the note that a
 *     dump's CPU is not pinned names the whole path and the words after it
 *     ("not of this machine (dry run)", bench/session.c);
 *  3. the same from a thread that then exits: its message is whole too,
 *     and (under ASan) freed with the thread.
 */
#include <errno.h>
#include <stdint.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/baretma.h"
#include "t/tap.h"
#include "t/fixture.h"

static char deep[PATH_MAX], missing[PATH_MAX];

/* Open a session on the missing dump; whether the error names it whole. */
static void *open_missing(void *arg)
{
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	struct baretma *bm;
	char want[PATH_MAX + 64];
	const char *e;
	int rc;

	(void)arg;
	o.cpuid_dump = missing;
	rc = baretma_open(&bm, &o);
	snprintf(want, sizeof(want), "cannot load CPUID dump '%s': ", missing);
	e = baretma_last_error();
	return (void *)(intptr_t)(rc < 0 && !strncmp(e, want, strlen(want)) &&
				  strlen(e) > strlen(want) + 5);
}

int main(void)
{
	const char *shared = t_shared_dumps();
	static char dir[PATH_MAX], run[PATH_MAX], prof[PATH_MAX], spec[PATH_MAX + 8];
	static char icl[PATH_MAX], copy[PATH_MAX], seg[201];
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	struct baretma *bm;
	const char *e, *notes;
	char want[PATH_MAX + 128];
	pthread_t t;
	void *res;
	int rc;

	plan(6);
	t_path(icl, "%s/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test", shared);
	t_scratch(dir, "0996");
	memset(seg, 'd', 200);
	t_path(deep, "%s", dir);
	for (int i = 0; i < 12; i++) {
		static char up[PATH_MAX];

		t_path(up, "%s", deep);
		t_path(deep, "%s/%s", up, seg);
	}
	t_mkdir_p(deep);
	ok(strlen(deep) > 2400, "the directory path is %zu characters long (> 2048)", strlen(deep));
	t_path(missing, "%s/missing.test", deep);

	/* 1. the error, whole */
	o.cpuid_dump = missing;
	rc = baretma_open(&bm, &o);
	e = baretma_last_error();
	snprintf(want, sizeof(want), "cannot load CPUID dump '%s': ", missing);
	ok(rc < 0 && !strncmp(e, want, strlen(want)) && strlen(e) > strlen(want) + 5,
	   "the error names the whole %zu-character path, then its cause (rc %d, %zu bytes)",
	   strlen(missing), rc, strlen(e));
	printf("# ...%s\n", strlen(e) > 80 ? e + strlen(e) - 80 : e);

	/* 3. from a thread that exits */
	pthread_create(&t, NULL, open_missing, NULL);
	pthread_join(t, &res);
	ok(res != NULL, "from another thread: the same error whole, in that thread's message");

	/* 2. the note, whole */
	t_path(copy, "%s/icl.test", deep);
	{
		FILE *in = fopen(icl, "r"), *out = fopen(copy, "w");
		char buf[4096];
		size_t n;

		while (in && out && (n = fread(buf, 1, sizeof(buf), in)) > 0)
			fwrite(buf, 1, n, out);
		if (in)
			fclose(in);
		if (out)
			fclose(out);
	}
	t_path(run, "%s/run", dir);
	t_path(prof, "%s/profile", dir);
	t_put_tree(prof, "retiring 40\nbad_speculation 10\nfrontend_bound 20\nbackend_bound 30\n");
	t_path(spec, "sim:%s", prof);
	setenv("BARETMA_STATE_DIR", run, 1);
	setenv("BARETMA_MSR", spec, 1);
	unsetenv("BARETMA_CPUID_DUMP");
	unsetenv("BARETMA_MSR_TRACE");
	unsetenv("BARETMA_PERF");
	o.cpuid_dump = copy;
	o.backend = "msr";
	o.cpu = 7;
	rc = baretma_open(&bm, &o);
	if (!ok(rc == 0, "a session on cpu 7 of the copied dump opens")) {
		printf("# %s\n", baretma_last_error());
		skip(2, "no session");
	} else {
		notes = baretma_notes(bm);
		snprintf(want, sizeof(want), "note: not pinned: cpu 7 is a CPU of the CPUID dump "
			 "'%s', not of this machine (dry run)\n", copy);
		ok(strstr(notes, want) != NULL, "the note names the whole %zu-character path and "
		   "the words after it", strlen(copy));
		ok(strlen(notes) > 2048, "the notes are %zu bytes, past the old 2048",
		   strlen(notes));
		baretma_close(bm);
	}
	t_rm_rf(dir);
	return done_testing();
}
