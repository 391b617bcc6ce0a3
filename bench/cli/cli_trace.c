/*
 * bench/cli/cli_trace.c - $BARETMA_MSR_TRACE is an audit log: a line lost
 * (a full disk) is said at once and makes the command fail (msr/access/msr.h
 * msr_trace_on_loss, msr_trace_lost; man baretma "EXIT STATUS").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/cli/cli.h"
#include "cpu/escape.h"
#include "msr/access/msr.h"

/* The warning's two halves, made before any access: the hook runs where
 * only write(2) may (a signal handler's restore traces too). */
static char head[4352];
static size_t head_len;

static void put(const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(STDERR_FILENO, s, n);

		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void on_loss(int err)
{
	static const char tail[] = "): the trace is incomplete from this access on "
				   "(baretma exits 74 at the end)\n";
	const char *name = msr_errno_name(err);

	put(head, head_len);
	put(name ? name : "an error", strlen(name ? name : "an error"));
	put(tail, sizeof(tail) - 1);
}

void cli_trace_watch(void)
{
	const char *path = getenv("BARETMA_MSR_TRACE");
	char *shown;
	int n;

	if (!path || !*path || head_len || !(shown = esc_strdup(path)))
		return;
	n = snprintf(head, sizeof(head), "baretma: warning: trace file '%.4096s' "
		     "($BARETMA_MSR_TRACE): a line could not be written (", shown);
	free(shown);
	head_len = n > 0 && (size_t)n < sizeof(head) ? (size_t)n : sizeof(head) - 1;
	msr_trace_on_loss(on_loss);
}

int cli_trace_end(int status)
{
	unsigned long lost, first;
	int err = msr_trace_lost(&lost, &first);

	if (!err)
		return status;
	cli_err("trace file '%s' ($BARETMA_MSR_TRACE): %lu line%s lost from line %lu on: %s "
		"(the trace does not show every access: free some space, or name a file on "
		"another file system)", getenv("BARETMA_MSR_TRACE"), lost, lost == 1 ? "" : "s",
		first, strerror(-err));
	return status ? status : EX_IOERR;
}
