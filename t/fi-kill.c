/*
 * t/fi-kill.c - the fault injector of t/0388: run a command and send it a
 * signal at a chosen point of its work, then say how it ended.
 *
 *   fi-kill TRACE LINE SIGNAL DELAY_US -- COMMAND [ARG...]
 *
 * The point is the command's own progress, not the clock: the signal goes
 * when its $BARETMA_MSR_TRACE file TRACE (msr/access/msr.h: one line per MSR
 * access and per saved register) has LINE lines; with LINE 0, DELAY_US
 * microseconds after the start instead (the work before its first access:
 * parsing, identification, locks, the journal's creation).  A command that
 * ends before its point is not signalled.  Prints one line:
 *   "signal N at line L"   or   "exit S (not signalled)"
 * and then the wait status: "status exit S" or "status signal N".
 * The child starts with every signal at its default action and none
 * blocked, whatever this process inherited (a background job, nohup):
 * the test relies on SIGINT and SIGTERM reaching the command's handlers.
 * Its standard output goes to /dev/null (its standard error is kept).
 * Exits 0, or 2 on a usage or system error.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Lines of @path so far, counted from where the last call stopped. */
static unsigned long lines_now(const char *path, off_t *at, unsigned long *count)
{
	char buf[65536];
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return *count;
	if (lseek(fd, *at, SEEK_SET) == *at) {
		while ((r = read(fd, buf, sizeof(buf))) > 0) {
			for (ssize_t i = 0; i < r; i++)
				*count += buf[i] == '\n';
			*at += r;
		}
	}
	close(fd);
	return *count;
}

static void child_exec(char **argv)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t none;

	for (int s = 1; s < NSIG; s++)
		sigaction(s, &dfl, NULL); /* SIGKILL, SIGSTOP and 32-33 refuse: fine */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
		_exit(126);
	execvp(argv[0], argv);
	perror(argv[0]);
	_exit(127);
}

static void pause_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int main(int argc, char **argv)
{
	unsigned long line, count = 0;
	long delay;
	off_t at = 0;
	int sig, st;
	pid_t pid, w;
	bool sent = false;

	if (argc < 7 || strcmp(argv[5], "--")) {
		fprintf(stderr, "usage: fi-kill TRACE LINE SIGNAL DELAY_US -- COMMAND [ARG...]\n");
		return 2;
	}
	line = strtoul(argv[2], NULL, 10);
	sig = atoi(argv[3]);
	delay = atol(argv[4]);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 2;
	}
	if (pid == 0)
		child_exec(argv + 6);
	if (line == 0)
		pause_us(delay);
	for (;;) {
		w = waitpid(pid, &st, WNOHANG);
		if (w == pid)
			break;
		if (line == 0 || lines_now(argv[1], &at, &count) >= line) {
			kill(pid, sig);
			sent = true;
			while ((w = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
				;
			break;
		}
		pause_us(100); /* a poll of the command's progress, not a timing */
	}
	lines_now(argv[1], &at, &count);
	if (sent)
		printf("signal %d at line %lu\n", sig, line ? line : count);
	else
		printf("exit %d (not signalled)\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	if (WIFSIGNALED(st))
		printf("status signal %d\n", WTERMSIG(st));
	else
		printf("status exit %d\n", WEXITSTATUS(st));
	return 0;
}
