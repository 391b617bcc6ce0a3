/*
 * msr/journal/guard_signals.h - the signal guard, opt-in: on a deadly signal,
 * restore every open journal of the process (msr/journal/journal.h) from memory,
 * then let the signal go where it went before.
 *
 * A process that never calls guard_signals_install() gets no handler: its
 * dispositions, masks and alternate stacks are never touched; the journal
 * on disk and `baretma pmu restore` are the net when it dies.  The CLI
 * opts in for each run; libbaretma's baretma_guard_signals() wraps
 * guard_signals_install(0).
 *
 * Every journal begun in the process is in a registry (a fixed array of
 * JOURNAL_MAX_OPEN atomic pointers, msr/journal/journal.h, no lock: the handler reads it), from
 * journal_begin to journal_end/journal_detach, whether or not the guard
 * is installed; the handler restores those of them that were given the
 * device of their registers (journal_set_dev), each once.
 *
 * Signals (the same policy as before the guard became opt-in):
 *   - SIGINT, SIGTERM, SIGHUP, SIGQUIT, unless ignored (nohup): an ignored
 *     one stays ignored;
 *   - SIGSEGV, SIGBUS, SIGFPE, SIGILL (a kernel under test faulting),
 *     SIGABRT, SIGTRAP, SIGSYS: always;
 *   - SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ, SIGVTALRM,
 *     SIGPROF: only while at their default action (a handler or SIG_IGN of
 *     the host stays).
 * The handler also removes the temporary files of the process's writes in
 * progress (cpu/tmpfile.h tmpfile_unlink_all): a file is written whole or
 * not at all, and a dying process leaves none behind.
 * After the restore, the signal goes on (chaining): to the previous
 * handler as it was installed (SA_SIGINFO or plain, with its own mask
 * added, SA_RESETHAND honoured), and when there was none (SIG_DFL, or a
 * fault signal that was ignored) the default action is restored and the
 * signal raised again, so the process dies of it (exit status 128+N in a
 * shell).  With GUARD_SIGNALS_DIE the process dies of the signal whatever
 * handler was there (the CLI: a process that is baretma, whose exit status
 * must tell the signal; a sanitizer runtime's handler is not chained).
 * A host that takes SIGSEGV on purpose (a JVM, Go) must not opt in: its
 * sessions would be restored at its first such signal.
 *
 * The handlers run with SA_ONSTACK: on the thread's alternate signal stack
 * when it has one.  Stacks are per thread: guard_signals_install() gives
 * one to the calling thread (when it has none), and every other thread
 * that wants a stack overflow restored calls guard_signals_thread_stack().
 * Without one, an overflow's SIGSEGV cannot run the handler and the
 * process dies with the journal left on disk.
 *
 * fork(): a child's registry still names the parent's journals, with the
 * parent's PID: the handler restores only journals whose PID is the
 * process's own, so a forked child never restores its parent's session
 * (its inherited handlers find nothing of its own and chain).
 */
#ifndef BARETMA_GUARD_SIGNALS_H
#define BARETMA_GUARD_SIGNALS_H

/* Bytes of the alternate signal stack given to a thread. */
#define GUARD_STACK_BYTES (128u << 10)

/* guard_signals_install flags. */
#define GUARD_SIGNALS_DIE 0x1u /* die of the signal after restoring, never
				* chain to the previous handler */

/*
 * guard_signals_install - opt in: install the handlers (the first call in
 * the process; later calls count) and give the calling thread an
 * alternate signal stack when it has none (guard_signals_thread_stack).
 * @flags: 0 or GUARD_SIGNALS_DIE (while any install with it is in force,
 * the handler dies of the signal instead of chaining).
 * Thread-safe.  Returns 0, -EINVAL (unknown flag), -ENOMEM, or -errno
 * from sigaction/sigaltstack (then nothing is installed by this call).
 */
int guard_signals_install(unsigned flags);

/*
 * guard_signals_remove - undo one guard_signals_install(@flags): the last
 * one puts every previous action back, and the calling thread's stack
 * (guard_signals_thread_stack_free).  Thread-safe; a call without an
 * install in force does nothing.
 */
void guard_signals_remove(unsigned flags);

/*
 * guard_signals_thread_stack - give the calling thread an alternate signal
 * stack of GUARD_STACK_BYTES (malloc'd), unless it has one (the host's
 * stays).  Returns 0, -ENOMEM or -errno from sigaltstack.
 */
int guard_signals_thread_stack(void);

/* guard_signals_thread_stack_free - the calling thread's stack given by
 * guard_signals_thread_stack() taken down (the previous one back) and
 * freed; call it before the thread ends, or the stack's memory leaks. */
void guard_signals_thread_stack_free(void);

#endif
