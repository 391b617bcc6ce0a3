/*
 * msr/journal_restore.c - restoring what a run journal saved, and the
 * signal guard that restores it when a signal ends the run (order and
 * rules: msr/journal.h).  The restore path and the handler are
 * async-signal-safe: they only read the arrays journal_begin() allocated
 * (msr/journal.c), no malloc, no stdio.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>

#include "msr/intel_regs.h"
#include "msr/journal.h"
#include "msr/journal_int.h"
#include "msr/settings.h"

/* ------------------------------------------------------------ restoring */

static void keep_first(int *rc, int r)
{
	if (!*rc)
		*rc = r;
}

static bool has_reg(const struct journal_data *d, unsigned cpu, uint32_t msr)
{
	for (int i = 0; i < d->nregs; i++)
		if (d->regs[i].cpu == cpu && d->regs[i].msr == msr)
			return true;
	return false;
}

/* The GLOBAL_STATUS overflow bits a run that programmed fixed counter 3
 * (it saved IA32_FIXED_CTR_CTRL and IA32_FIXED_CTR3: msr/pmu.h) may have
 * caused: bit 35, and bit 48 when it saved IA32_PERF_METRICS (writing bit
 * 48 elsewhere could #GP, pmu-reference §1.3).  0 for other journals. */
static uint64_t overflow_bits(const struct journal_data *d, unsigned cpu)
{
	if ((d->kind != JOURNAL_RUN && d->kind != JOURNAL_ENABLE) ||
	    !has_reg(d, cpu, IA32_FIXED_CTR_CTRL) || !has_reg(d, cpu, IA32_FIXED_CTR3))
		return 0;
	return GLOBAL_STATUS_OVF_FIXED3 |
	       (has_reg(d, cpu, IA32_PERF_METRICS) ? GLOBAL_STATUS_OVF_PERF_METRICS : 0);
}

/* One CPU: GLOBAL_CTRL = 0 first (when saved with other registers: the
 * freeze guards them; alone it is written once, its saved value), the
 * rest in saved order, the overflow bits the run caused cleared
 * (pmu-reference §5.4 "Restore", as pmu_restore does), GLOBAL_CTRL's saved
 * value last.  Async-signal-safe. */
static int restore_cpu(const struct journal_data *d, struct msr_dev *dev, unsigned cpu)
{
	uint64_t ovf = overflow_bits(d, cpu);
	int rc = 0, gc = -1, others = 0;

	for (int i = 0; i < d->nregs; i++) {
		if (d->regs[i].cpu != cpu)
			continue;
		if (d->regs[i].msr == IA32_PERF_GLOBAL_CTRL)
			gc = i;
		else
			others++;
	}
	if (gc >= 0 && others)
		keep_first(&rc, msr_write(dev, cpu, IA32_PERF_GLOBAL_CTRL, 0));
	for (int i = 0; i < d->nregs; i++)
		if (d->regs[i].cpu == cpu && i != gc)
			keep_first(&rc, msr_write(dev, cpu, d->regs[i].msr, d->regs[i].saved));
	if (ovf) /* best effort, as pmu_restore: no saved register */
		(void)msr_write(dev, cpu, IA32_PERF_GLOBAL_STATUS_RESET, ovf);
	if (gc >= 0)
		keep_first(&rc, msr_write(dev, cpu, IA32_PERF_GLOBAL_CTRL, d->regs[gc].saved));
	return rc;
}

int journal_restore_data(const struct journal_data *d, struct msr_dev *dev)
{
	int rc = 0, ncpus = d->ncpus, nsettings = d->nsettings;

	for (int c = 0; c < ncpus; c++)
		keep_first(&rc, restore_cpu(d, dev, d->cpus[c]));
	for (int i = 0; i < nsettings; i++)
		keep_first(&rc, setting_write_path(d->settings[i].full, d->settings[i].value));
	return rc;
}

int journal_data_unsafe(const struct journal_data *d)
{
	int n = 0;

	for (int i = 0; i < d->nregs; i++)
		n += d->regs[i].unsafe;
	return n;
}

int journal_restore(struct journal *j, struct msr_dev *dev)
{
	int rc = journal_restore_data(&j->d, dev);

	j->restored = rc == 0;
	return rc;
}

/* ---------------------------------------------------------------- guard */

#define GUARD_STACK_BYTES (128u << 10)

/* When a signal is taken over (msr/journal.h). */
enum guard_policy {
	GUARD_ALWAYS,     /* faults of the code under test */
	GUARD_UNLESS_IGN, /* terminal: an ignored one (nohup) stays ignored */
	GUARD_IF_DFL,     /* other deadly ones: only while nobody handles them */
};

static const struct {
	int sig;
	enum guard_policy policy;
} guard_signals[] = {
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
#define GUARD_NSIG (sizeof(guard_signals) / sizeof(guard_signals[0]))

static struct {
	struct journal *volatile j;
	struct msr_dev *volatile dev;
	struct sigaction old[GUARD_NSIG];
	bool changed[GUARD_NSIG];
	stack_t old_stack;
	bool stack_set;
} guard;
static volatile sig_atomic_t guard_fired;
static char guard_stack[GUARD_STACK_BYTES] __attribute__((aligned(64)));

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

static void guard_handler(int sig)
{
	struct journal *j = guard.j;

	/* Only the journal's owner restores (not a fork()ed child), once. */
	if (j && !guard_fired && getpid() == j->d.pid) {
		guard_fired = 1;
		if (journal_restore_data(&j->d, guard.dev) == 0)
			journal_unlink_file(j);
	}
	die_of(sig);
}

static int guard_stack_set(void)
{
	stack_t ss = { .ss_sp = guard_stack, .ss_size = sizeof(guard_stack) };

	if (guard.stack_set)
		return 0;
	if (sigaltstack(&ss, &guard.old_stack) < 0)
		return -errno;
	guard.stack_set = true;
	return 0;
}

int journal_guard_install(struct journal *j, struct msr_dev *dev)
{
	struct sigaction sa = { .sa_handler = guard_handler, .sa_flags = SA_ONSTACK }, old;
	int rc;

	if (!j || !journal_is_current(j) || j->d.pid != getpid())
		return -EINVAL;
	guard.dev = dev;
	fence();
	guard.j = j;
	rc = guard_stack_set();
	if (rc)
		return rc;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < GUARD_NSIG; i++)
		sigaddset(&sa.sa_mask, guard_signals[i].sig);
	for (size_t i = 0; i < GUARD_NSIG; i++) {
		int sig = guard_signals[i].sig;
		enum guard_policy policy = guard_signals[i].policy;

		if (guard.changed[i])
			continue;
		if (sigaction(sig, NULL, &old) < 0)
			return -errno;
		if ((policy == GUARD_UNLESS_IGN && old.sa_handler == SIG_IGN) ||
		    (policy == GUARD_IF_DFL && ((old.sa_flags & SA_SIGINFO) ||
						old.sa_handler != SIG_DFL)))
			continue;
		if (sigaction(sig, &sa, &guard.old[i]) < 0)
			return -errno;
		guard.changed[i] = true;
	}
	return 0;
}

/* Handlers and stack back as they were before journal_guard_install. */
void journal_guard_remove(void)
{
	guard.j = NULL;
	fence();
	for (size_t i = 0; i < GUARD_NSIG; i++) {
		if (guard.changed[i])
			sigaction(guard_signals[i].sig, &guard.old[i], NULL);
		guard.changed[i] = false;
	}
	if (guard.stack_set)
		sigaltstack(&guard.old_stack, NULL);
	guard.stack_set = false;
	guard.dev = NULL;
}
