/*
 * t/0645-guard-host.c - the guarded run as a library in a host process
 * (issue 10, "What a host process expects from a library"): a program
 * that installs its own SIGSEGV handler, opens two guarded sessions
 * (msr/guard/guard.h) on two threads, each on its own CPU of an Ice Lake state
 * file, and reaps its children itself.
 *
 *   - no opt-in: the host's handlers and stack stay as they were;
 *   - each session has its own journal ("run-PID.journal",
 *     "run-PID-1.journal"), listed, alive, and restored independently;
 *   - errors are per thread (msr_last_error, journal_last_error);
 *   - opt-in (guard_signals_install(0)): a real fault restores both
 *     sessions, then reaches the host's SA_SIGINFO handler with its
 *     siginfo (chaining), and a signal at its default still kills;
 *   - SIGKILL leaves both journals, which `baretma pmu restore` puts back;
 *   - a fork()ed child that closes its parent's session restores nothing,
 *     removes no journal and leaves the locks held.
 *
 * Expected values are the fixture's bytes and the programming of
 * the kernel's order worked by hand (as t/guard-fixture.sh): IA32_FIXED_
 * CTR_CTRL (0x333 & ~0xf000) | 0x3 << 12 = 0x3333, IA32_PERF_GLOBAL_CTRL
 * 0x70000000f | 1<<35 | 1<<48 = 0x1000f0000000f; the journal lines in
 * pmu_program's save order (msr/pmu/pmu.h step 1).  The CPU is the Ice Lake
 * client of $SHARED_CPUID (leaf 0xA EAX 0x08300805: perfmon v5, 8 GP
 * counters, whose PERFEVTSEL0-7 and GLOBAL_INUSE the fixture lists).
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "msr/guard/guard.h"
#include "msr/journal/guard_signals.h"
#include "msr/journal/journal.h"
#include "msr/access/msr.h"
#include "msr/open/msr_open.h"
#include "msr/pmu/pmu.h"
#include "t/tap.h"

#define ICL_DUMP "libcpuid/v0.6.2/intel/core_10th_gen/ice-lake-i7.test"

static char base[PATH_MAX], state[PATH_MAX], statedir[PATH_MAX], root[PATH_MAX];
static char spec[PATH_MAX + 8], orig[8192];
static struct cpu_info *ci;

/* One CPU as firmware leaves it (t/guard-fixture.sh regs): PERFEVTSEL0-7
 * 0, FC3 0x100N, PERF_METRICS 0x1f3a5c47, FC0-2 on, GLOBAL_CTRL 0x70000000f. */
static void regs(char *buf, size_t n, unsigned cpu)
{
	size_t o = strlen(buf);

	for (unsigned x = 0; x < 8; x++)
		o += (size_t)snprintf(buf + o, n - o, "%u 0x%x 0x0\n", cpu, 0x186 + x);
	snprintf(buf + o, n - o,
		 "%u 0x30c 0x%x\n%u 0x329 0x1f3a5c47\n%u 0x345 0xf4c5\n%u 0x38d 0x333\n"
		 "%u 0x38e 0x0\n%u 0x38f 0x70000000f\n%u 0x390 0x0\n%u 0x391 0x0\n"
		 "%u 0x392 0x0\n", cpu, 0x1000 + cpu, cpu, cpu, cpu, cpu, cpu, cpu, cpu, cpu);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

/* Fresh state file (CPUs 0 and 1), empty state directory. */
static void fixture(void)
{
	orig[0] = '\0';
	regs(orig, sizeof(orig), 0);
	regs(orig, sizeof(orig), 1);
	put_file(state, orig);
	nftw(statedir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	mkdir(statedir, 0700);
}

static const char *journal_file(pid_t pid, int seq)
{
	static char buf[2][PATH_MAX];
	static int i;

	i ^= 1;
	if (seq)
		t_path(buf[i], "%s/run-%ld-%d.journal", statedir, (long)pid, seq);
	else
		t_path(buf[i], "%s/run-%ld.journal", statedir, (long)pid);
	return buf[i];
}

static bool exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* The lines of @cpu in the state file's text @text (static buffer). */
static const char *cpu_lines(const char *text, unsigned cpu)
{
	static char out[4096];
	char pre[16];
	size_t o = 0;

	snprintf(pre, sizeof(pre), "%u ", cpu);
	out[0] = '\0';
	for (const char *t = text; *t;) {
		const char *nl = strchr(t, '\n');
		size_t len = nl ? (size_t)(nl - t) + 1 : strlen(t);

		if (!strncmp(t, pre, strlen(pre)) && o + len < sizeof(out)) {
			memcpy(out + o, t, len);
			o += len;
		}
		t += len;
	}
	out[o] = '\0';
	return out;
}

/* The reg lines of a journal file. */
static const char *reg_lines(const char *path)
{
	static char out[1024];
	const char *t = get_file(path), *r;
	size_t o = 0;

	out[0] = '\0';
	while ((r = strstr(t, "\nreg ")) != NULL) {
		const char *nl = strchr(r + 1, '\n');
		size_t len = nl ? (size_t)(nl - r) : strlen(r + 1);

		if (o + len < sizeof(out)) {
			memcpy(out + o, r + 1, len);
			o += len;
		}
		t = r + 1;
	}
	out[o] = '\0';
	return out;
}

/* Is "<statedir>/cpu<N>.lock" free (a new descriptor can lock it)? */
static bool lock_free(unsigned cpu)
{
	char path[PATH_MAX];
	int fd, r;

	t_path(path, "%s/cpu%u.lock", statedir, cpu);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return true;
	r = flock(fd, LOCK_EX | LOCK_NB);
	close(fd);
	return r == 0;
}

/* ------------------------------------------------------------ sessions */

/* One session as a host thread opens it: its own device, guard, journal. */
struct session {
	unsigned cpu;
	struct msr_dev *dev;
	struct guard *g;
	int rc;                 /* the first failing step's -errno */
	char why[1024];         /* its message */
	bool owner_note;        /* the ownership step noted FC0-2 in use */
	sem_t opened, go, closed;
	int close_rc;
	bool park;              /* after opening, wait forever (signal tests) */
};

static int session_open(struct session *s)
{
	struct pmu_config cfg = { .perf_metrics = true, .fixed_ctr3 = true };
	struct guard_opts o = { .kind = JOURNAL_RUN, .cmd = "t0645 host", .backend = spec };
	struct guard_hit hit;
	struct pmu_saved saved;
	enum guard_line_kind kind;
	const char *line;
	int rc;

	if (msr_open(spec, &s->dev))
		return -EIO;
	rc = guard_new(&s->g, &o);
	if (!rc)
		rc = guard_lock(s->g, &s->cpu, 1, true);
	if (!rc)
		rc = guard_check_journals(s->g, &s->cpu, 1, &hit);
	if (!rc)
		rc = guard_check_owners(s->g, s->dev, ci, &s->cpu, 1, &hit);
	for (int i = 0; s->g && (line = guard_line(s->g, i, &kind)); i++)
		s->owner_note |= kind == GUARD_LINE_NOTE && strstr(line, "other counters in use");
	if (!rc)
		rc = guard_check_writes(s->g, s->dev);
	if (!rc)
		rc = guard_begin(s->g, s->dev, JOURNAL_RUN, false);
	if (!rc) {
		cfg.journal = guard_journal(s->g);
		rc = pmu_program(s->dev, s->cpu, &cfg, &saved, NULL, 0);
	}
	if (rc && s->g)
		snprintf(s->why, sizeof(s->why), "%s", guard_message(s->g));
	return rc;
}

static void *session_thread(void *arg)
{
	struct session *s = arg;

	s->rc = session_open(s);
	sem_post(&s->opened);
	while (sem_wait(&s->go) < 0 && errno == EINTR)
		;
	s->close_rc = s->g ? guard_finish(s->g, false) : 0;
	guard_free(s->g);
	msr_close(s->dev);
	sem_post(&s->closed);
	return NULL;
}

static void session_start(struct session *s, unsigned cpu, pthread_t *t)
{
	memset(s, 0, sizeof(*s));
	s->cpu = cpu;
	sem_init(&s->opened, 0, 0);
	sem_init(&s->go, 0, 0);
	sem_init(&s->closed, 0, 0);
	if (pthread_create(t, NULL, session_thread, s)) {
		printf("Bail out! pthread_create\n");
		exit(1);
	}
	while (sem_wait(&s->opened) < 0 && errno == EINTR)
		;
}

static void session_close(struct session *s, pthread_t t)
{
	sem_post(&s->go);
	pthread_join(t, NULL);
}

/* ------------------------------------------------------- host handler */

static void host_segv(int sig, siginfo_t *info, void *ctx)
{
	(void)ctx;
	/* 42: reached with the fault's own siginfo (a NULL write) */
	_exit(sig == SIGSEGV && info && info->si_signo == SIGSEGV && info->si_addr == NULL ? 42 : 43);
}

static void install_host_handler(void)
{
	struct sigaction sa = { .sa_sigaction = host_segv, .sa_flags = SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
}

/* A real fault (not raise()): in asm, so the compiler cannot drop it. */
__attribute__((noinline)) static void null_write(void)
{
#if defined(__x86_64__)
	volatile int zero = 0;

	__asm__ volatile("movl $1, (%0)" : : "r"((int *)(uintptr_t)zero) : "memory");
#else
	raise(SIGSEGV);
#endif
}

/* -------------------------------------------------------------- tests */

static const char want0[] =
	"reg 0 0x38f 0x70000000f\nreg 0 0x38d 0x333\nreg 0 0x30c 0x1000\nreg 0 0x329 0x1f3a5c47\n";
static const char want1[] =
	"reg 1 0x38f 0x70000000f\nreg 1 0x38d 0x333\nreg 1 0x30c 0x1001\nreg 1 0x329 0x1f3a5c47\n";

static bool programmed(const char *text, unsigned cpu)
{
	char fcc[32], gc[32];

	snprintf(fcc, sizeof(fcc), "%u 0x38d 0x3333\n", cpu);
	snprintf(gc, sizeof(gc), "%u 0x38f 0x1000f0000000f\n", cpu);
	return strstr(text, fcc) && strstr(text, gc);
}

/* Two sessions on two threads, no opt-in: the host's handlers stay, each
 * session its journal, each restores its own CPU. */
static void test_two_sessions(void)
{
	struct session s[2];
	struct journal_info info[4], who;
	struct sigaction sa;
	struct journal *j = NULL, *j2 = NULL;
	stack_t before, after;
	pthread_t t[2];
	char want[PATH_MAX];
	int n;

	fixture();
	install_host_handler();
	sigaltstack(NULL, &before);
	session_start(&s[0], 0, &t[0]);
	session_start(&s[1], 1, &t[1]);
	check_int(s[0].rc, ==, 0, "session on cpu 0 (thread 1) opens");
	if (s[0].rc)
		printf("#   %s\n", s[0].why);
	check_int(s[1].rc, ==, 0, "session on cpu 1 (thread 2) opens");
	if (s[1].rc)
		printf("#   %s\n", s[1].why);
	ok(s[0].owner_note && s[1].owner_note,
	   "each session's ownership step noted FC0-2 in use (a note, not a refusal)");

	sigaction(SIGSEGV, NULL, &sa);
	ok((sa.sa_flags & SA_SIGINFO) && sa.sa_sigaction == host_segv,
	   "no opt-in: the host's SIGSEGV handler is still installed");
	sigaction(SIGTERM, NULL, &sa);
	ok(!(sa.sa_flags & SA_SIGINFO) && sa.sa_handler == SIG_DFL, "no opt-in: SIGTERM still at its default");
	sigaction(SIGUSR2, NULL, &sa);
	ok(!(sa.sa_flags & SA_SIGINFO) && sa.sa_handler == SIG_DFL, "no opt-in: SIGUSR2 still at its default");
	sigaltstack(NULL, &after);
	ok(after.ss_flags == before.ss_flags && after.ss_sp == before.ss_sp,
	   "no opt-in: the thread's alternate stack untouched");

	/* one journal per session, each its own file, each its own CPU */
	check_str(journal_path(guard_journal(s[0].g)), journal_file(getpid(), 0),
		  "first session: <state dir>/run-<pid>.journal");
	check_str(journal_path(guard_journal(s[1].g)), journal_file(getpid(), 1),
		  "second session: <state dir>/run-<pid>-1.journal");
	check_str(reg_lines(journal_file(getpid(), 0)), want0, "journal 0 holds cpu 0's saved registers only");
	check_str(reg_lines(journal_file(getpid(), 1)), want1, "journal 1 holds cpu 1's saved registers only");
	ok(programmed(get_file(state), 0) && programmed(get_file(state), 1), "both CPUs programmed");

	n = journal_list(info, 4);
	check_int(n, ==, 2, "journal_list: both journals");
	if (n == 2) {
		ok(info[0].pid == getpid() && info[0].seq == 0 && info[1].pid == getpid() &&
		   info[1].seq == 1, "listed by pid, then N: run-<pid>, run-<pid>-1");
		ok(info[0].error == 0 && info[1].error == 0 && info[0].alive && info[1].alive,
		   "both load, both alive (this process runs)");
		ok(info[1].data.ncpus == 1 && info[1].data.cpus[0] == 1, "the second holds cpu 1");
	}
	journal_info_free(info, n > 0 ? n : 0);
	check_int(journal_find_cpu(1, &who), ==, 0, "journal_find_cpu: this process's journals do not count");
	journal_info_free(&who, 1);

	/* the legacy one-per-process begin and the any-slot create */
	check_int(journal_begin(&j, "x", spec, JOURNAL_RUN, false), ==, -EBUSY,
		  "journal_begin while run-<pid>.journal is open: -EBUSY");
	check_int(journal_create(&j2, "x", spec, JOURNAL_RUN, false), ==, 0, "journal_create: a third");
	if (j2) {
		check_str(journal_path(j2), journal_file(getpid(), 2), "the third: run-<pid>-2.journal");
		check_int(journal_end(j2), ==, 0, "the empty third ends, its file removed");
	}

	/* the sessions restore independently */
	session_close(&s[0], t[0]);
	check_int(s[0].close_rc, ==, 0, "session 0 closes");
	check_str(cpu_lines(get_file(state), 0), cpu_lines(orig, 0), "cpu 0 back as found");
	ok(programmed(get_file(state), 1), "cpu 1 still programmed by the other session");
	ok(!exists(journal_file(getpid(), 0)) && exists(journal_file(getpid(), 1)),
	   "session 0's journal removed, session 1's kept");
	ok(lock_free(0) && !lock_free(1), "cpu 0's lock released, cpu 1's held");
	session_close(&s[1], t[1]);
	check_int(s[1].close_rc, ==, 0, "session 1 closes");
	check_str(get_file(state), orig, "state file back byte for byte");
	ok(!exists(journal_file(getpid(), 1)), "session 1's journal removed");
	ok(lock_free(0) && lock_free(1), "both locks released");
	check_int(journal_create(&j2, "x", spec, JOURNAL_RUN, false), ==, 0, "a new journal");
	if (j2) {
		t_path(want, "%s", journal_file(getpid(), 0));
		check_str(journal_path(j2), want, "slot 0 is free again: run-<pid>.journal");
		journal_end(j2);
	}
	signal(SIGSEGV, SIG_DFL);
}

/* Per-thread error details: each thread reads its own after both failed. */
struct errcase {
	pthread_barrier_t *bar;
	const char *state_path, *journal_path;
	char msr_err[PATH_MAX + 1024], journal_err[1024];
};

static void *err_thread(void *arg)
{
	struct errcase *e = arg;
	struct msr_dev *dev = NULL;
	struct journal_data d;
	char sp[PATH_MAX + 8];

	t_path(sp, "state:%s", e->state_path);
	msr_open(sp, &dev);
	journal_load(e->journal_path, &d);
	pthread_barrier_wait(e->bar); /* both have failed */
	pthread_barrier_wait(e->bar);
	snprintf(e->msr_err, sizeof(e->msr_err), "%s", msr_last_error());
	snprintf(e->journal_err, sizeof(e->journal_err), "%s", journal_last_error());
	return NULL;
}

static void test_thread_errors(void)
{
	pthread_barrier_t bar;
	struct errcase e[2];
	pthread_t t[2];
	char sa[PATH_MAX], sb[PATH_MAX], ja[PATH_MAX], jb[PATH_MAX], want[PATH_MAX + 64];

	t_path(sa, "%s/missing-a", base);
	t_path(sb, "%s/missing-b", base);
	t_path(ja, "%s/bad-a.journal", base);
	t_path(jb, "%s/bad-b.journal", base);
	put_file(ja, "# baretma journal v2\npid x\n");                /* line 2 */
	put_file(jb, "# baretma journal v2\npid 7\nstarttime y\n");   /* line 3 */
	chmod(ja, 0600);
	chmod(jb, 0600);
	pthread_barrier_init(&bar, NULL, 2);
	e[0] = (struct errcase){ .bar = &bar, .state_path = sa, .journal_path = ja };
	e[1] = (struct errcase){ .bar = &bar, .state_path = sb, .journal_path = jb };
	pthread_create(&t[0], NULL, err_thread, &e[0]);
	pthread_create(&t[1], NULL, err_thread, &e[1]);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	pthread_barrier_destroy(&bar);
	t_path(want, "state file '%s': ", sa);
	ok(!strncmp(e[0].msr_err, want, strlen(want)), "thread 1: msr_last_error names its own file (%s)", e[0].msr_err);
	t_path(want, "state file '%s': ", sb);
	ok(!strncmp(e[1].msr_err, want, strlen(want)), "thread 2: msr_last_error names its own file (%s)", e[1].msr_err);
	ok(!strncmp(e[0].journal_err, "line 2: ", 8), "thread 1: journal_last_error is its line 2 (%s)", e[0].journal_err);
	ok(!strncmp(e[1].journal_err, "line 3: ", 8), "thread 2: journal_last_error is its line 3 (%s)", e[1].journal_err);
}

/*
 * In a child: the host handler, two sessions on two parked threads, the
 * opt-in guard, then @sig (a real NULL write for SIGSEGV).  Returns the
 * child's wait status and pid.
 */
static int child_with_sessions(int sig, bool opt_in, pid_t *pidp)
{
	int status = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct session s[2];
		pthread_t t[2];

		setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 });
		signal(SIGTERM, SIG_DFL);
		install_host_handler();
		session_start(&s[0], 0, &t[0]);
		session_start(&s[1], 1, &t[1]);
		if (s[0].rc || s[1].rc)
			_exit(90);
		if (opt_in && guard_signals_install(0))
			_exit(91);
		if (sig == SIGSEGV)
			null_write();
		else
			raise(sig);
		_exit(92);
	}
	waitpid(pid, &status, 0);
	*pidp = pid;
	return status;
}

static void test_opt_in_chains(void)
{
	int status;
	pid_t pid;

	fixture();
	status = child_with_sessions(SIGSEGV, true, &pid);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 42,
	   "opt-in, a real fault: the host's SA_SIGINFO handler ran with the fault's siginfo (exit 42)");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 42)
		printf("#   status 0x%x\n", status);
	check_str(get_file(state), orig, "... after both sessions were restored, byte for byte");
	ok(!exists(journal_file(pid, 0)) && !exists(journal_file(pid, 1)), "... and both journals removed");

	fixture();
	status = child_with_sessions(SIGTERM, true, &pid);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM,
	   "opt-in, SIGTERM at its default: restored, then the child dies of SIGTERM");
	check_str(get_file(state), orig, "SIGTERM: state file back byte for byte");
	ok(!exists(journal_file(pid, 0)) && !exists(journal_file(pid, 1)), "SIGTERM: both journals removed");
}

/* No opt-in: the fault goes straight to the host; the journals stay, and
 * SIGKILL too leaves them for `baretma pmu restore`. */
static void test_no_opt_in_net(void)
{
	const char *tool = getenv("BARETMA");
	int status, rc = 0;
	pid_t pid, killed;

	fixture();
	status = child_with_sessions(SIGSEGV, false, &pid);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 42, "no opt-in: the fault reaches the host's handler");
	ok(programmed(get_file(state), 0) && programmed(get_file(state), 1),
	   "no opt-in: nothing restored by a handler");
	ok(exists(journal_file(pid, 0)) && exists(journal_file(pid, 1)), "no opt-in: both journals stay");

	fixture();
	status = child_with_sessions(SIGKILL, true, &killed);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "SIGKILL kills the child");
	check_str(reg_lines(journal_file(killed, 1)), want1, "SIGKILL: run-<pid>-1.journal stays with cpu 1's values");
	if (!tool || !*tool) {
		skip(3, "no $BARETMA: the tool's restore not run");
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) { /* no shell: the paths are passed as they are */
		if (!freopen("/dev/null", "w", stdout))
			_exit(126);
		setenv("BARETMA_MSR", spec, 1);
		execl(tool, tool, "pmu", "restore", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &rc, 0);
	ok(WIFEXITED(rc) && WEXITSTATUS(rc) == 0, "baretma pmu restore puts both journals back");
	check_str(get_file(state), orig, "state file back byte for byte");
	ok(!exists(journal_file(killed, 0)) && !exists(journal_file(killed, 1)), "both journals removed");
}

/* A fork()ed child that closes its parent's session touches nothing. */
static void test_fork_child(void)
{
	struct session s;
	char lockline[64], lockpath[PATH_MAX];
	const char *programmed_text;
	char *keep;
	int status = 0;
	pid_t pid;

	fixture();
	memset(&s, 0, sizeof(s));
	s.cpu = 0;
	check_int(session_open(&s), ==, 0, "the parent opens a session on cpu 0");
	keep = t_strf("%s", get_file(journal_file(getpid(), 0)));
	programmed_text = t_strf("%s", get_file(state));
	t_path(lockpath, "%s/cpu0.lock", statedir);
	snprintf(lockline, sizeof(lockline), "pid %ld cmd ", (long)getpid());
	ok(!strncmp(get_file(lockpath), lockline, strlen(lockline)), "cpu0.lock names the parent");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		/* what a careless child does: close the session it inherited */
		int rc = guard_finish(s.g, false);

		guard_free(s.g);
		msr_close(s.dev);
		_exit(rc == 0 ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child closed its copy (0)");
	check_str(get_file(state), programmed_text, "the child restored nothing");
	check_str(get_file(journal_file(getpid(), 0)), keep, "the parent's journal is there, unchanged");
	ok(!strncmp(get_file(lockpath), lockline, strlen(lockline)), "cpu0.lock still names the parent (not emptied)");
	ok(!lock_free(0), "cpu 0 still locked after the child exited");
	check_int(guard_finish(s.g, false), ==, 0, "the parent closes its session");
	guard_free(s.g);
	msr_close(s.dev);
	check_str(get_file(state), orig, "restored by the parent, byte for byte");
	ok(!exists(journal_file(getpid(), 0)) && lock_free(0), "journal removed, lock released");
	free(keep);
	free((char *)programmed_text);
}

int main(void)
{
	const char *shared = getenv("SHARED_CPUID"), *tmp = getenv("TMPDIR");
	struct cpu_source *src;
	char dump[PATH_MAX], tmpl[PATH_MAX];

	t_signals_default(); /* "SIGTERM at its default" is this test's, not inherited */
	if (!shared || !*shared)
		skip_all("no $SHARED_CPUID");
	t_path(dump, "%s/%s", shared, ICL_DUMP);
	if (access(dump, R_OK))
		skip_all("no Ice Lake dump");
	t_path(tmpl, "%s/baretma-0645.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(tmpl)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	if (!realpath(tmpl, base)) {
		printf("Bail out! realpath\n");
		return 1;
	}
	t_path(state, "%s/state", base);
	t_path(statedir, "%s/run", base);
	t_path(root, "%s/root", base);
	t_path(spec, "state:%s", state);
	mkdir(root, 0755);
	/* before any thread: the library never writes the environment */
	setenv("BARETMA_STATE_DIR", statedir, 1);
	setenv("BARETMA_SYSROOT", root, 1);
	unsetenv("BARETMA_MSR_TRACE");
	src = cpu_source_dump(dump);
	ci = calloc(1, sizeof(*ci));
	if (!src || !ci || cpu_info_identify(src, NULL, ci)) {
		printf("Bail out! cannot identify %s\n", dump);
		return 1;
	}
	cpu_source_free(src);

	test_two_sessions();
	test_thread_errors();
	test_opt_in_chains();
	test_no_opt_in_net();
	test_fork_child();

	free(ci);
	nftw(base, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return done_testing();
}
