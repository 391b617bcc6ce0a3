/*
 * bench/cli/cli_hooks.c - the tests' seam at the named points of a
 * command's work (bench/cli/cli.h cli_point):
 *   $BARETMA_TEST_SIGNAL_AT=POINT:SIG  at POINT the process sends itself
 *       SIG (INT, TERM, HUP, QUIT or a number) with kill(2), as another
 *       process's kill at exactly that point would: a test of what a
 *       signal does there that no timing can miss;
 *   $BARETMA_TEST_POINTS=FILE  each point's name is appended to FILE as
 *       it is reached (a test waits for a point before it signals).
 *
 * Not in libbaretma.a: linked only into t/baretma-hooks, the test build of
 * the tool (Makefile.am), never installed: the installed baretma has no
 * cli_test_point (a weak symbol in bench/cli/cli_stop.c, NULL there).
 * Honoured only in an environment baretma trusts (cpu/trust.h).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/trust.h"

void cli_test_point(const char *point);

/* SIG of "POINT:SIG" when POINT is @point, else 0. */
static int signal_at(const char *spec, const char *point)
{
	static const struct {
		const char *name;
		int sig;
	} names[] = { { "INT", SIGINT }, { "TERM", SIGTERM }, { "HUP", SIGHUP },
		      { "QUIT", SIGQUIT } };
	const char *colon = strchr(spec, ':');
	char *end;
	long n;

	if (!colon || (size_t)(colon - spec) != strlen(point) ||
	    strncmp(spec, point, strlen(point)))
		return 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(colon + 1, names[i].name))
			return names[i].sig;
	n = strtol(colon + 1, &end, 10);
	return *end || n <= 0 || n >= NSIG ? 0 : (int)n;
}

void cli_test_point(const char *point)
{
	const char *spec = getenv("BARETMA_TEST_SIGNAL_AT");
	const char *file = getenv("BARETMA_TEST_POINTS");
	int sig;

	if ((!spec && !file) || trust_env_untrusted(NULL, 0))
		return;
	if (file && *file) {
		int fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);

		if (fd >= 0) {
			(void)!write(fd, point, strlen(point));
			(void)!write(fd, "\n", 1);
			close(fd);
		}
	}
	if (spec && (sig = signal_at(spec, point)))
		kill(getpid(), sig);
}
