/*
 * t/0711-api - the public API (include/baretma.h) as a host program uses
 * it: options refused with a message, a TSC-only session on this machine
 * (counts and TSC ticks per region, nesting, misuse), a dry run with the
 * msr backend on the state file of the real Ice Lake dump (the guarded
 * sequence of `baretma bench`: journal while open, the state file byte for
 * byte as found after close), the same killed with SIGKILL mid-region and
 * put back by `baretma pmu restore`, a fork()ed child that closes the
 * parent's session and touches nothing, and per-thread errors.
 * Expected register values are hand-worked from the kernel's order as in
 * t/guard-fixture.sh: IA32_FIXED_CTR_CTRL 0x333 -> 0x3333, GLOBAL_CTRL
 * 0x70000000f -> 0x1000f0000000f.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "include/baretma.h"
#include "msr/access/msr.h"
#include "t/tap.h"
#include "t/fixture.h"

static char dir[PATH_MAX], state[PATH_MAX], run[PATH_MAX], spec[PATH_MAX + 8];
static const char *icl;
static char orig[4096];

/* cpu 1 of an Ice Lake client as firmware leaves it (t/guard-fixture.sh). */
static void fixture(void)
{
	static const char regs[] =
		"1 0x186 0x0\n1 0x187 0x0\n1 0x188 0x0\n1 0x189 0x0\n"
		"1 0x18a 0x0\n1 0x18b 0x0\n1 0x18c 0x0\n1 0x18d 0x0\n"
		/* IA32_PMCx, IA32_A_PMCx: Ice Lake's recipe's events */
		"1 0xc1 0x0\n1 0xc2 0x0\n1 0xc3 0x0\n1 0xc4 0x0\n"
		"1 0xc5 0x0\n1 0xc6 0x0\n1 0xc7 0x0\n1 0xc8 0x0\n"
		"1 0x4c1 0x0\n1 0x4c2 0x0\n1 0x4c3 0x0\n1 0x4c4 0x0\n"
		"1 0x4c5 0x0\n1 0x4c6 0x0\n1 0x4c7 0x0\n1 0x4c8 0x0\n"
		"1 0x30c 0x1001\n1 0x329 0x1f3a5c47\n1 0x345 0xf4c5\n1 0x38d 0x333\n"
		"1 0x38e 0x0\n1 0x38f 0x70000000f\n1 0x390 0x0\n1 0x391 0x0\n1 0x392 0x0\n";

	put_file(state, regs);
	snprintf(orig, sizeof(orig), "%s", regs);
}

static bool programmed(void)
{
	const char *t = get_file(state);

	return strstr(t, "1 0x38d 0x3333\n") && strstr(t, "1 0x38f 0x1000f0000000f\n");
}

/* the journals in the test's state directory */
static int journals(void)
{
	return t_journals(run);
}

static void bad_options(void)
{
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	struct baretma *bm = (struct baretma *)1;

	o.backend = "quantum";
	check_int(baretma_open(&bm, &o), ==, -EINVAL, "backend 'quantum': -EINVAL");
	ok(bm == NULL, "no session on failure");
	check_str(baretma_last_error(), "baretma_open: backend 'quantum': expected auto, rdpmc, "
		  "msr, perf, perf-rdpmc or tsc", "the message names the option and what it takes");
	o = (struct baretma_options)BARETMA_OPTIONS_INIT;
	o.level = 3;
	check_int(baretma_open(&bm, &o), ==, -EINVAL, "level 3: -EINVAL");
	ok(strstr(baretma_last_error(), "level 3") != NULL, "... naming it");
	o = (struct baretma_options)BARETMA_OPTIONS_INIT;
	o.cpuid_dump = "/nonexistent/dump";
	check_int(baretma_open(&bm, &o), ==, -ENOENT, "a dump that does not exist: -ENOENT");
	ok(strstr(baretma_last_error(), "cannot load CPUID dump '/nonexistent/dump'") != NULL,
	   "... naming it");
	check_str(baretma_tma_name(BARETMA_TMA_CORE_BOUND), "tma_core_bound", "perf's name");
	ok(baretma_tma_name(BARETMA_TMA_N) == NULL, "no name past the last node");
	check_int(baretma_close(NULL), ==, 0, "closing NULL is fine");
}

/* This machine, backend tsc: counts and TSC ticks, nesting, misuse. */
static void tsc_session(void)
{
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	struct baretma_result r;
	struct baretma *bm;
	volatile unsigned long x = 0;

	o.backend = "tsc";
	if (!ok(baretma_open(&bm, &o) == 0, "a TSC session opens here")) {
		printf("# %s\n", baretma_last_error());
		return;
	}
	for (int i = 0; i < 10; i++) {
		baretma_region_begin(bm, "outer");
		for (int k = 0; k < 1000; k++)
			x += (unsigned long)k;
		baretma_region_begin(bm, "inner");
		for (int k = 0; k < 1000; k++)
			x += (unsigned long)k;
		baretma_region_end(bm, "inner");
		baretma_region_end(bm, "outer");
	}
	check_int(baretma_region_get(bm, "outer", &r), ==, 0, "outer: got");
	ok(r.count == 10 && r.invalid == 0 && r.level == 0, "outer: 10 pairs, level 0 (TSC only)");
	ok(r.tsc > 0 && r.slots == 0, "outer: TSC ticks, no slots (never zeros as numbers: level 0)");
	baretma_region_get(bm, "inner", &r);
	ok(r.count == 10, "inner: 10 pairs");
	struct baretma_result o2;
	baretma_region_get(bm, "outer", &o2);
	ok(o2.tsc > r.tsc, "the outer region's ticks exceed the inner's, which it holds");
	check_int(baretma_region_get(bm, "never", &r), ==, -ENOENT, "an unknown region: -ENOENT");
	ok(strstr(baretma_last_error(), "'never'") != NULL, "... naming it");
	baretma_region_end(bm, "lonely");
	check_int(baretma_region_get(bm, "lonely", &r), ==, -EINVAL,
		  "an end without its begin: -EINVAL");
	ok(r.count == 0 && strstr(baretma_last_error(), "1 begin/end out of order"),
	   "... counted, said, no pair");
	check_int(baretma_close(bm), ==, 0, "close");
}

/* One thread's error is not another's. */
static void *other_thread(void *arg)
{
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	struct baretma *bm;

	o.level = 7;
	baretma_open(&bm, &o);
	snprintf(arg, 256, "%s", baretma_last_error());
	return NULL;
}

static void per_thread_errors(void)
{
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	struct baretma *bm;
	char theirs[256] = "";
	pthread_t t;

	o.backend = "nope";
	baretma_open(&bm, &o);
	pthread_create(&t, NULL, other_thread, theirs);
	pthread_join(t, NULL);
	ok(strstr(theirs, "level 7") != NULL, "the other thread's error: its level 7");
	ok(strstr(baretma_last_error(), "backend 'nope'") != NULL,
	   "this thread's error unchanged by the other's");
}

/* The dry run: msr backend, cpu 1 of the Ice Lake dump, a state file. */
static void dry_run(void)
{
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	struct baretma_result r;
	struct baretma *bm;

	fixture();
	o.backend = "msr";
	o.cpu = 1;
	o.cpuid_dump = icl;
	if (!ok(baretma_open(&bm, &o) == 0, "msr session on cpu 1 of the Ice Lake dump opens")) {
		printf("# %s\n", baretma_last_error());
		return;
	}
	ok(programmed(), "fixed counter 3 and PERF_METRICS programmed (0x3333, 0x1000f0000000f)");
	ok(strstr(baretma_notes(bm), "note: not pinned: cpu 1 is a CPU of the CPUID dump") != NULL,
	   "notes: the dump's CPU is not pinned to");
	check_int(journals(), ==, 1, "one journal while open");
	for (int i = 0; i < 5; i++) {
		baretma_region_begin(bm, "r");
		baretma_region_end(bm, "r");
	}
	baretma_region_get(bm, "r", &r);
	/* the state file's counters do not count: every pair has zero slots */
	ok(r.count == 5 && r.invalid == 5 && r.invalid_why.zero_slots == 5 && r.level == 0,
	   "5 pairs, all invalid for zero slots: no numbers, never zeros");
	check_int(baretma_close(bm), ==, 0, "close");
	check_str(get_file(state), orig, "the state file byte for byte as found");
	check_int(journals(), ==, 0, "no journal after close");
	/* a second session finds the CPU free again */
	ok(baretma_open(&bm, &o) == 0 && baretma_close(bm) == 0, "open and close again");
	/* force is needed when a journal holds the CPU: the guard's words */
	check_str(get_file(state), orig, "still as found");
}

/*
 * The notes of a session on an AMD dump (INDEX.tsv: Ryzen 9 5950X, Zen3,
 * "AMD: no PERF_METRICS MSR"): backend auto opens TSC only and says why;
 * not pinned (a dump's CPU).  Nothing is written: no journal.
 */
static void amd_notes(const char *dump)
{
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	struct baretma *bm;
	const char *n;

	o.cpu = 0;
	o.cpuid_dump = dump;
	if (!ok(baretma_open(&bm, &o) == 0, "auto on the Zen3 dump opens (TSC only)")) {
		printf("# %s\n", baretma_last_error());
		return;
	}
	n = baretma_notes(bm);
	ok(strstr(n, "note: no Top-down (TSC only): CPU vendor is AuthenticAMD (AMD Ryzen 9 5950X")
	   != NULL, "notes: no Top-down, and why (the dump's vendor and name)");
	ok(strstr(n, "note: not pinned: cpu 0 is a CPU of the CPUID dump") != NULL,
	   "notes: not pinned");
	ok(n[strlen(n) - 1] == '\n', "notes: lines end in a newline");
	check_int(journals(), ==, 0, "a TSC session writes no journal");
	check_int(baretma_close(bm), ==, 0, "close");
	ok(*baretma_notes(NULL) == '\0', "notes of no session: empty");
}

/*
 * The backend $BARETMA_MSR names cannot be opened: a session that may
 * program through it (auto, msr) fails with msr_open's own line and error
 * (before, "auto" quietly opened a TSC session and "msr" said "no MSR
 * backend could be opened"); a TSC session needs none, but a malformed
 * profile is a wrong environment, refused for it too (as the command line
 * refuses it, exit 65); a missing device does not stop it.  The profile's error is the parser's documented text for
 * line 5 (msr/sim/msr_sim.h: width 1-16); the refusal under sudo is
 * msr/access/msr.h's (only the two standard templates then).  Nothing written.
 */
static void backend_env(void)
{
	static const char shares[] = "retiring 40\nbad_speculation 10\nfrontend_bound 20\n"
				     "backend_bound 30\n";
	static const char *const backends[] = { "auto", "msr" };
	char bad[PATH_MAX], good[PATH_MAX], env[PATH_MAX + 8], want[PATH_MAX + 128];
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	struct baretma *bm;

	fixture();
	t_path(bad, "%s/bad-profile", dir);
	t_path(good, "%s/profile", dir);
	t_path(want, "%swidth banana\n", shares);
	put_file(bad, want);
	put_file(good, shares);
	setenv("BARETMA_CPUID_DUMP", icl, 1); /* the simulator's machine */
	o.cpu = 1;
	o.cpuid_dump = icl;
	t_path(env, "sim:%s", bad);
	setenv("BARETMA_MSR", env, 1);
	t_path(want, "profile '%s': line 5: 'width' needs a number from 1 to 16, got 'banana'",
	       bad);
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++) {
		o.backend = backends[i];
		ok(baretma_open(&bm, &o) == -EINVAL, "backend %s, a malformed profile: -EINVAL",
		   backends[i]);
		check_str(baretma_last_error(), want, "... with the profile's line");
	}
	o.backend = "tsc"; /* needs no MSR backend, but the environment is wrong */
	ok(baretma_open(&bm, &o) == -EINVAL, "backend tsc, the same profile: -EINVAL too");
	check_str(baretma_last_error(), want, "... with the profile's line");
	setenv("BARETMA_MSR", "/nonexistent/baretma-test/cpu/%u/msr", 1);
	if (ok(baretma_open(&bm, &o) == 0, "backend tsc, no MSR device: opens"))
		baretma_close(bm);
	t_path(env, "sim:%s", good);
	setenv("BARETMA_MSR", env, 1);
	setenv("SUDO_USER", "t-sudo-user", 1);
	/* the invoking user is this test's own uid (root ran sudo, in CI): the
	 * dump is theirs to read (cpu/userfile.h), the simulator is refused */
	t_path(env, "%u", (unsigned)geteuid());
	setenv("SUDO_UID", env, 1);
	o.backend = "auto";
	check_int(baretma_open(&bm, &o), ==, -EPERM, "sim: under sudo: -EPERM");
	t_path(want, "MSR backend 'sim:%s' ($BARETMA_MSR): refused while running under sudo "
	       "(SUDO_USER=t-sudo-user)", good);
	ok(!strncmp(baretma_last_error(), want, strlen(want)), "... with the refusal: %s",
	   baretma_last_error());
	unsetenv("SUDO_USER");
	unsetenv("SUDO_UID");
	check_int(journals(), ==, 0, "no journal");
	check_str(get_file(state), orig, "the state file as found");
	setenv("BARETMA_MSR", spec, 1);
	unsetenv("BARETMA_CPUID_DUMP");
}

/* SIGKILL in the middle of a region: the journal stays; the tool's
 * `pmu restore` puts every register back. */
static void killed(void)
{
	const char *tool = getenv("BARETMA");
	int fds[2], status, rc;
	pid_t pid;
	char c;

	fixture();
	if (pipe(fds))
		return;
	pid = fork();
	if (pid == 0) {
		struct baretma_options o = BARETMA_OPTIONS_INIT;
		struct baretma *bm;

		o.backend = "msr";
		o.cpu = 1;
		o.cpuid_dump = icl;
		if (baretma_open(&bm, &o))
			_exit(3);
		baretma_region_begin(bm, "cut");
		if (write(fds[1], "k", 1) != 1)
			_exit(4);
		pause();
		_exit(5);
	}
	close(fds[1]);
	ok(read(fds[0], &c, 1) == 1, "the child opened a session and began a region");
	close(fds[0]);
	ok(programmed(), "programmed in the child");
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "killed by SIGKILL");
	check_int(journals(), ==, 1, "its journal stays");
	ok(programmed(), "nothing restored by the dead process");
	if (!tool || !*tool) {
		skip(2, "no $BARETMA: the tool's restore not run");
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout))
			_exit(126);
		execl(tool, tool, "pmu", "restore", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &rc, 0);
	ok(WIFEXITED(rc) && WEXITSTATUS(rc) == 0, "baretma pmu restore exits 0");
	check_str(get_file(state), orig, "the state file byte for byte as found");
}

/* fork(): the child closes the parent's session and touches nothing. */
static void forked(void)
{
	struct baretma_options o = BARETMA_OPTIONS_INIT;
	struct baretma *bm;
	int status;
	pid_t pid;

	fixture();
	o.backend = "msr";
	o.cpu = 1;
	o.cpuid_dump = icl;
	if (!ok(baretma_open(&bm, &o) == 0, "parent opens"))
		return;
	pid = fork();
	if (pid == 0)
		_exit(baretma_close(bm) == 0 ? 0 : 1);
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child's close returns 0");
	ok(programmed(), "the child restored nothing");
	check_int(journals(), ==, 1, "the parent's journal is still there");
	check_int(baretma_close(bm), ==, 0, "the parent closes");
	check_str(get_file(state), orig, "and puts everything back");
}

int main(void)
{
	const char *shared = getenv("SHARED_CPUID");
	static char dump[PATH_MAX], amd[PATH_MAX];

	t_scratch(dir, "0711");
	t_path(state, "%s/state", dir);
	t_path(run, "%s/run", dir);
	snprintf(spec, sizeof(spec), "state:%s", state);
	setenv("BARETMA_MSR", spec, 1);
	setenv("BARETMA_STATE_DIR", run, 1);
	unsetenv("BARETMA_MSR_TRACE");
	unsetenv("BARETMA_CPUID_DUMP");
	bad_options();
	tsc_session();
	per_thread_errors();
	t_path(dump, "%s/libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test",
	       shared && *shared ? shared : "../shared/cpuid");
	if (access(dump, R_OK)) {
		skip(33, "no Ice Lake dump (../shared/cpuid)");
	} else {
		icl = dump;
		dry_run();
		backend_env();
		killed();
		forked();
	}
	t_path(amd, "%s/libcpuid/v0.6.2/amd/zen3/ryzen9-vermeer.test",
	       shared && *shared ? shared : "../shared/cpuid");
	if (access(amd, R_OK))
		skip(6, "no Zen3 dump (../shared/cpuid)");
	else
		amd_notes(amd);
	t_rm_rf(dir);
	return done_testing();
}
