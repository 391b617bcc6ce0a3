/*
 * t/sig-default.c - run a command with every signal at its default action
 * and none blocked: `t/sig-default CMD ARGS...` (what coreutils' `env
 * --default-signal` does, for systems whose env lacks it).  The shell
 * tests need it because a signal ignored when a shell starts (a background
 * job, nohup, a parent's `trap '' INT`) stays ignored in every command the
 * shell runs, and the shell cannot reset it (POSIX, XCU 2.14 trap:
 * "Signals that were ignored on entry to a non-interactive shell cannot
 * be trapped or reset").  t/tap.sh runs each shell test through it.
 */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t none;

	if (argc < 2) {
		fprintf(stderr, "usage: sig-default CMD [ARG...]\n");
		return 64;
	}
	for (int sig = 1; sig < NSIG; sig++)
		sigaction(sig, &dfl, NULL); /* SIGKILL, SIGSTOP and unused numbers: EINVAL */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execvp(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
