/*
 * msr/journal/guard_signals.c - the registry of open journals and the opt-in
 * signal guard (msr/journal/guard_signals.h).
 *
 * The registry is JOURNAL_MAX_OPEN slots of (atomic journal pointer,
 * atomic PID): claimed with a compare-and-swap, read by the handler with
 * plain atomic loads, no lock.  The PID tells a slot a fork()ed child
 * inherited (its parent's) from one of its own, without reading the
 * journal.  A handler counts itself in `readers` while it uses journals;
 * journal_registry_release() waits for zero before the journal may be
 * freed, and the handler leaves the count before it chains, so a previous
 * handler that never returns (siglongjmp) blocks nobody.
 * Installing and removing the handlers is serialised by a mutex (never
 * taken in the handler).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "cpu/tmpfile.h"
#include "msr/journal/guard_signals.h"
#include "msr/journal/journal.h"
#include "msr/journal/journal_int.h"

/* ------------------------------------------------------------ registry */

static struct {
	_Atomic(struct journal *) j;
	atomic_int pid;
} registry[JOURNAL_MAX_OPEN];
static atomic_int readers;
static pthread_mutex_t install_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

/* A fork()ed child has one thread: no handler of another thread reads its
 * registry, and no other thread holds the install lock. */
static void atfork_child(void)
{
	atomic_store(&readers, 0);
	pthread_mutex_init(&install_lock, NULL);
}

static void atfork_register(void)
{
	pthread_atfork(NULL, NULL, atfork_child);
}

/* Slot @i is free for this process: empty, or its parent's (fork). */
static bool slot_free(int i, struct journal **cur)
{
	*cur = atomic_load(&registry[i].j);
	return !*cur || atomic_load(&registry[i].pid) != (int)getpid();
}

int journal_registry_claim(struct journal *j, bool first_only)
{
	int n = first_only ? 1 : JOURNAL_MAX_OPEN;

	pthread_once(&atfork_once, atfork_register);
	for (int i = 0; i < n; i++) {
		struct journal *cur;

		if (!slot_free(i, &cur))
			continue;
		if (atomic_compare_exchange_strong(&registry[i].j, &cur, j)) {
			atomic_store(&registry[i].pid, (int)getpid());
			return i;
		}
		i--; /* lost a race: look at the same slot again */
	}
	return first_only ? -EBUSY : -EMFILE;
}

void journal_registry_release(struct journal *j)
{
	struct journal *cur = j;

	if (j->seq < 0 || j->seq >= JOURNAL_MAX_OPEN)
		return;
	if (atomic_load(&registry[j->seq].pid) != (int)getpid() ||
	    !atomic_compare_exchange_strong(&registry[j->seq].j, &cur, NULL))
		return; /* not ours: a handler never reads it */
	while (atomic_load(&readers) > 0)
		sched_yield();
}

/* Every journal of this process, each once (journal_restore_fired). */
static void restore_all(void)
{
	int self = (int)getpid();

	atomic_fetch_add(&readers, 1);
	for (int i = 0; i < JOURNAL_MAX_OPEN; i++) {
		struct journal *j = atomic_load(&registry[i].j);

		if (j && atomic_load(&registry[i].pid) == self)
			journal_restore_fired(j);
	}
	atomic_fetch_sub(&readers, 1);
}

/* -------------------------------------------------------------- signals */

/* When a signal is taken over (msr/journal/guard_signals.h). */
enum guard_policy {
	GUARD_ALWAYS,     /* faults of the code under test */
	GUARD_UNLESS_IGN, /* terminal: an ignored one (nohup) stays ignored */
	GUARD_IF_DFL,     /* other deadly ones: only while nobody handles them */
};

static const struct {
	int sig;
	enum guard_policy policy;
} guarded[] = {
	{ SIGINT, GUARD_UNLESS_IGN }, { SIGTERM, GUARD_UNLESS_IGN },
	{ SIGHUP, GUARD_UNLESS_IGN }, { SIGQUIT, GUARD_UNLESS_IGN },
	{ SIGSEGV, GUARD_ALWAYS }, { SIGBUS, GUARD_ALWAYS },
	{ SIGFPE, GUARD_ALWAYS }, { SIGILL, GUARD_ALWAYS },
	{ SIGABRT, GUARD_ALWAYS }, { SIGTRAP, GUARD_ALWAYS }, { SIGSYS, GUARD_ALWAYS },
	/* "baretma bench | head", timeout -s, ulimit -t / -f, kill -USR1 */
	{ SIGPIPE, GUARD_IF_DFL }, { SIGALRM, GUARD_IF_DFL }, { SIGUSR1, GUARD_IF_DFL },
	{ SIGUSR2, GUARD_IF_DFL }, { SIGXCPU, GUARD_IF_DFL }, { SIGXFSZ, GUARD_IF_DFL },
	{ SIGVTALRM, GUARD_IF_DFL }, { SIGPROF, GUARD_IF_DFL },
};
#define NGUARDED (sizeof(guarded) / sizeof(guarded[0]))

static int installs;                 /* guard_signals_install calls in force */
static atomic_int die_installs;      /* ... of them with GUARD_SIGNALS_DIE */
static struct sigaction previous[NGUARDED];
static bool changed[NGUARDED];

/* Die of @sig with its default action (the exit status tells it). */
static void die_of(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t set;

	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig); /* not reached: every guarded signal terminates */
}

/* Hand @sig to the action that was there before the guard. */
static void chain(size_t i, int sig, siginfo_t *info, void *ctx)
{
	const struct sigaction *old = &previous[i];
	bool siginfo = (old->sa_flags & SA_SIGINFO) != 0;
	void (*plain)(int) = old->sa_handler;

	if (atomic_load(&die_installs) > 0 || (siginfo ? !old->sa_sigaction :
	    plain == SIG_DFL || plain == SIG_IGN))
		die_of(sig);
	if (old->sa_flags & SA_RESETHAND) {
		struct sigaction dfl = { .sa_handler = SIG_DFL };

		sigemptyset(&dfl.sa_mask);
		sigaction(sig, &dfl, NULL);
	}
	sigprocmask(SIG_BLOCK, &old->sa_mask, NULL); /* undone when we return */
	if (siginfo)
		old->sa_sigaction(sig, info, ctx);
	else
		plain(sig);
}

static void handler(int sig, siginfo_t *info, void *ctx)
{
	int saved_errno = errno;

	restore_all();
	tmpfile_unlink_all(); /* no write of a dying process is left half done */
	for (size_t i = 0; i < NGUARDED; i++)
		if (guarded[i].sig == sig) {
			chain(i, sig, info, ctx);
			break;
		}
	errno = saved_errno;
}

/* Does the policy take @sig over, given its action @old? */
static bool takes(enum guard_policy policy, const struct sigaction *old)
{
	bool dfl = !(old->sa_flags & SA_SIGINFO) && old->sa_handler == SIG_DFL;

	if (policy == GUARD_UNLESS_IGN)
		return (old->sa_flags & SA_SIGINFO) || old->sa_handler != SIG_IGN;
	return policy == GUARD_ALWAYS || dfl;
}

static void put_back(void)
{
	for (size_t i = 0; i < NGUARDED; i++) {
		if (changed[i])
			sigaction(guarded[i].sig, &previous[i], NULL);
		changed[i] = false;
	}
}

static int install_handlers(void)
{
	struct sigaction sa = { .sa_sigaction = handler, .sa_flags = SA_SIGINFO | SA_ONSTACK };
	struct sigaction old;

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NGUARDED; i++)
		sigaddset(&sa.sa_mask, guarded[i].sig);
	for (size_t i = 0; i < NGUARDED; i++) {
		if (sigaction(guarded[i].sig, NULL, &old) < 0)
			goto fail;
		if (!takes(guarded[i].policy, &old))
			continue;
		previous[i] = old; /* before the handler can run */
		if (sigaction(guarded[i].sig, &sa, NULL) < 0)
			goto fail;
		changed[i] = true;
	}
	return 0;
fail:
	{
		int rc = -errno;

		put_back();
		return rc;
	}
}

int guard_signals_install(unsigned flags)
{
	int rc = 0;

	if (flags & ~GUARD_SIGNALS_DIE)
		return -EINVAL;
	pthread_once(&atfork_once, atfork_register);
	pthread_mutex_lock(&install_lock);
	if (flags & GUARD_SIGNALS_DIE)
		atomic_fetch_add(&die_installs, 1);
	if (installs == 0)
		rc = install_handlers();
	if (!rc)
		rc = guard_signals_thread_stack();
	if (!rc)
		installs++;
	else if (flags & GUARD_SIGNALS_DIE)
		atomic_fetch_sub(&die_installs, 1);
	if (rc && installs == 0)
		put_back();
	pthread_mutex_unlock(&install_lock);
	return rc;
}

void guard_signals_remove(unsigned flags)
{
	pthread_mutex_lock(&install_lock);
	if (installs > 0) {
		if ((flags & GUARD_SIGNALS_DIE) && atomic_load(&die_installs) > 0)
			atomic_fetch_sub(&die_installs, 1);
		if (--installs == 0) {
			put_back();
			guard_signals_thread_stack_free();
		}
	}
	pthread_mutex_unlock(&install_lock);
}

/* --------------------------------------------------------------- stacks */

static _Thread_local struct {
	void *mem;
	stack_t old;
} thread_stack;

int guard_signals_thread_stack(void)
{
	stack_t cur, ss = { .ss_size = GUARD_STACK_BYTES };

	if (thread_stack.mem)
		return 0;
	if (sigaltstack(NULL, &cur) < 0)
		return -errno;
	if (!(cur.ss_flags & SS_DISABLE))
		return 0; /* the thread has one (the host's): it stays */
	ss.ss_sp = malloc(GUARD_STACK_BYTES);
	if (!ss.ss_sp)
		return -ENOMEM;
	if (sigaltstack(&ss, &thread_stack.old) < 0) {
		int rc = -errno;

		free(ss.ss_sp);
		return rc;
	}
	thread_stack.mem = ss.ss_sp;
	return 0;
}

void guard_signals_thread_stack_free(void)
{
	stack_t cur;

	if (!thread_stack.mem)
		return;
	/* Never while running on it (a handler that ends the thread's use). */
	if (sigaltstack(NULL, &cur) == 0 && (cur.ss_flags & SS_ONSTACK))
		return;
	if (sigaltstack(&thread_stack.old, NULL) < 0) {
		stack_t off = { .ss_flags = SS_DISABLE };

		sigaltstack(&off, NULL);
	}
	free(thread_stack.mem);
	thread_stack.mem = NULL;
}
