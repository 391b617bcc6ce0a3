/*
 * bench/cli/cli_plot.c - --plot FILE: the checks and the messages
 * (bench/cli/cli_plot.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cli/cli.h"
#include "bench/cli/cli_plot.h"
#include "bench/cli/cli_run.h"
#include "bench/output/plot.h"
#include "cpu/cpu.h"
#include "cpu/text.h"
#include "msr/access/msr.h"
#include "msr/journal/state_dir.h"

/* The refusals plot_check_path gives, before or after measuring. */
static int refused(const char *cmd, const char *path, int err)
{
	switch (-err) {
	case EINVAL:
		cli_err("%s: --plot '%s': unknown picture format (name the file .svg, .png or "
			".pdf)", cmd, path);
		return EX_USAGE;
	case ENOTSUP:
		cli_err("%s: --plot '%s': this baretma was built without cairo (install it: "
			"apt-get install libcairo2-dev, then ./configure && make again)", cmd, path);
		return EX_UNAVAILABLE;
	case ELOOP:
		cli_err("%s: --plot '%s': refusing to write through a symbolic link (remove it, "
			"or give another path)", cmd, path);
		return EX_CANTCREAT;
	case EISDIR:
		cli_err("%s: --plot '%s': is a directory (give the path of a file)", cmd, path);
		return EX_CANTCREAT;
	case EEXIST:
		cli_err("%s: --plot '%s': refusing to replace a FIFO, a device or a socket (give "
			"the path of a regular file)", cmd, path);
		return EX_CANTCREAT;
	case EPERM: /* the invoking user could not have written it (output.h) */
		return cli_output_file_fail(cmd, path, err, cli_output_file_why(path));
	}
	return 0;
}

int cli_plot_check(const char *cmd, const char *path)
{
	return path ? cli_plot_done(cmd, path, plot_check_path(path)) : 0;
}

/* The directory of @path, for the message (new memory; NULL on ENOMEM). */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	return slash == path ? strdup("/") : strndup(path, (size_t)(slash - path));
}

int cli_plot_done(const char *cmd, const char *path, int err)
{
	int st = refused(cmd, path, err);
	char *dir;

	if (!err || st)
		return st;
	switch (-err) {
	case ENOMEM:
		cli_err("%s: --plot '%s': out of memory", cmd, path);
		return EX_SOFTWARE;
	case ENOSPC: case EDQUOT: case EIO: case EFBIG:
		cli_err("%s: cannot write --plot '%s': %s (nothing was left there)", cmd, path,
			strerror(-err));
		return EX_IOERR;
	case EDOM: /* nothing to draw */
		cli_err("%s: --plot '%s': nothing to draw: the run measured no Top-down", cmd, path);
		return EX_UNAVAILABLE;
	}
	dir = dir_of(path);
	cli_err("%s: cannot create --plot '%s': %s (%s '%s'%s)", cmd, path, strerror(-err),
		-err == ENOENT ? "does the directory" : "can you write in the directory",
		dir ? dir : "?", -err == ENOENT ? " exist?" : "?");
	free(dir);
	return EX_CANTCREAT;
}

/* @a as a shell word: as it is when it needs no quotes, else in single
 * quotes (a ' as '\''), appended to *@t after a space. */
static int shell_word(char **t, const char *a)
{
	static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				    "0123456789_@%+=:,./-";
	int rc;

	if (*a && strspn(a, plain) == strlen(a))
		return text_appendf(t, " ", "%s", a);
	rc = text_appendf(t, " ", "'");
	for (const char *p = a; !rc && *p; p++)
		rc = *p == '\'' ? text_appendf(t, NULL, "'\\''") : text_appendf(t, NULL, "%c", *p);
	return rc ? rc : text_appendf(t, NULL, "'");
}

/* What makes this a dry run (state_dir_dry_run's reasons), or NULL. */
static int dry_text(char **t)
{
	const char *perf = getenv("BARETMA_PERF"), *be = msr_spec_backend(cli_msr_spec());
	int rc = 0;

	if (!state_dir_dry_run())
		return 0;
	if (!strcmp(be, "sim"))
		rc = text_appendf(t, ", ", "simulated PMU");
	else if (!strcmp(be, "state"))
		rc = text_appendf(t, ", ", "MSRs from a state file");
	if (!rc && perf && !strncmp(perf, "sim:", 4))
		rc = text_appendf(t, ", ", "simulated perf_event");
	if (!rc && cpu_source_env_path(NULL))
		rc = text_appendf(t, ", ", "CPUID dump");
	return rc ? rc : text_appendf(t, ": ", "not this machine's counters");
}

const struct plot_run *cli_plot_run(void)
{
	static struct plot_run run;
	static char *cmd, *dry;
	char *const *argv;
	int argc, rc;

	free(cmd);
	free(dry);
	cmd = dry = NULL;
	argv = cli_argv(&argc);
	rc = text_setf(&cmd, "baretma");
	for (int i = 1; !rc && i < argc; i++)
		rc = shell_word(&cmd, argv[i]);
	if (rc) {
		free(cmd);
		cmd = NULL;
	}
	if (dry_text(&dry)) {
		free(dry);
		dry = NULL;
	}
	run = (struct plot_run){ cmd, dry };
	return &run;
}
