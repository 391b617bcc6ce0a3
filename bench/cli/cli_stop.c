/*
 * bench/cli/cli_stop.c - SIGINT, SIGTERM and SIGHUP held from main's first
 * instruction (bench/cli/cli.h cli_stop_hold), for a command that ends its
 * work on them (stat: CLI_STOP_SIGNALS); every other command gets them
 * back at once (cli_stop_release), as they were.  And the named points of
 * a command's work that the test build's seam acts at (cli_point).
 *
 * Why blocked and not caught: a handler would have to be put back over
 * the guard's (msr/journal/guard_signals.h installs its own for them when the
 * run's journal begins) with no gap between the two, and a wait would
 * have to test its flag with no gap before it blocks.  A blocked signal
 * is never lost (it stays pending, POSIX XSH 2.4.1) and never acted on
 * before the command unblocks it where it can end (bench/stat.h
 * stat_options.count_mask); a wait for a lock takes it as it comes
 * (msr/guard/lock.h: sigtimedwait).  An ignored one (nohup) is left out: it
 * stays ignored.  One blocked when baretma started is left out too: it
 * stays blocked, as it was given.
 */
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "bench/cli/cli.h"

static const int stop_sigs[] = { SIGINT, SIGTERM, SIGHUP };

static sigset_t start_mask, held;
static bool holding;

void cli_stop_hold(void)
{
	struct sigaction sa;

	sigemptyset(&held);
	if (sigprocmask(SIG_SETMASK, NULL, &start_mask))
		return;
	for (size_t i = 0; i < sizeof(stop_sigs) / sizeof(stop_sigs[0]); i++) {
		if (sigaction(stop_sigs[i], NULL, &sa) || sigismember(&start_mask, stop_sigs[i]))
			continue;
		if ((sa.sa_flags & SA_SIGINFO) || sa.sa_handler != SIG_IGN)
			sigaddset(&held, stop_sigs[i]);
	}
	holding = !sigprocmask(SIG_BLOCK, &held, NULL);
	if (!holding)
		sigemptyset(&held);
}

void cli_stop_release(void)
{
	if (holding)
		sigprocmask(SIG_SETMASK, &start_mask, NULL);
	holding = false;
	sigemptyset(&held);
}

const sigset_t *cli_stop_set(void)
{
	return holding ? &held : NULL;
}

const sigset_t *cli_stop_mask(void)
{
	return holding ? &start_mask : NULL;
}

int cli_stop_pending(void)
{
	sigset_t p;

	if (!holding || sigpending(&p))
		return 0;
	for (size_t i = 0; i < sizeof(stop_sigs) / sizeof(stop_sigs[0]); i++)
		if (sigismember(&held, stop_sigs[i]) && sigismember(&p, stop_sigs[i]))
			return stop_sigs[i];
	return 0;
}

/* The test build's seam (bench/cli/cli_hooks.c), NULL in the installed tool. */
void cli_test_point(const char *point) __attribute__((weak, visibility("hidden")));

void cli_point(const char *point)
{
	if (cli_test_point)
		cli_test_point(point);
}
