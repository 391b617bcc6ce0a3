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
#include "bench/output/plot.h"

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
