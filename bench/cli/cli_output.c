/*
 * bench/cli/cli_output.c - the output options every command that prints a
 * result shares (bench/cli/cli.h "the output format, chosen once"): the
 * format (--json, --csv, -x SEP), where it goes (stdout, -o FILE) and the
 * metrics file (--openmetrics FILE), parsed, checked and written in one
 * place for bench, compare, validate and calibrate.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cli/cli.h"
#include "bench/output/output.h"
#include "bench/study/bundle.h"
#include "cpu/userfile.h"

void cli_output_opt(struct cli_output *o, const char *option)
{
	const struct output_format *f = output_format_by_option(option);

	if (!o->fmt)
		o->fmt = f;
	else if (f != o->fmt)
		o->other = f;
}

/* The message and status for output_write's @rc (not 0). */
static int write_fail(const char *cmd, int rc)
{
	if (rc == -EIO) {
		cli_err("%s: cannot write the result to standard output", cmd);
		return EX_IOERR;
	}
	if (rc == -ENOMEM)
		cli_err("%s: cannot build the JSON document (out of memory)", cmd);
	else
		cli_err("%s: cannot write the result: %s", cmd, strerror(-rc));
	return EX_SOFTWARE;
}

/* Is @err a write's failure (the file was made, its text did not fit)? */
static bool write_errno(int err)
{
	return err == -ENOSPC || err == -EDQUOT || err == -EFBIG || err == -EIO;
}

int cli_output_file_fail(const char *cmd, const char *path, int err, const char *why)
{
	char remedy[512];

	if (err == -ELOOP)
		cli_err("%s: cannot write '%s': a symbolic link: refused, nothing written through "
			"it (give the path of a regular file or a new one)", cmd, path);
	else if (err == -EISDIR || err == -EINVAL)
		cli_err("%s: cannot write '%s': %s: refused, left as it is (give the path of a "
			"regular file or a new one)", cmd, path, why ? why : strerror(-err));
	else if (err == -EPERM && why) {
		userfile_remedy(remedy, sizeof(remedy));
		cli_err("%s: cannot write '%s': %s: refused (%s)", cmd, path, why, remedy);
	} else if (write_errno(err)) {
		cli_err("%s: cannot write '%s': %s (nothing written: a file already there is as "
			"it was%s)", cmd, path, strerror(-err), err == -EFBIG ? "; the file size "
			"limit, ulimit -f, is too small" : err == -EIO ? "" : "; free some space "
			"or give a path on another file system");
		return EX_IOERR;
	} else if (err == -ENOENT || err == -ENOTDIR) {
		const char *slash = strrchr(path, '/');

		cli_err("%s: cannot write '%s': %s (does the directory '%.*s' exist?)", cmd, path,
			strerror(-err), slash ? (int)(slash == path ? 1 : slash - path) : 1,
			slash ? path : ".");
	} else
		cli_err("%s: cannot write '%s': %s", cmd, path, why ? why : strerror(-err));
	return EX_CANTCREAT;
}

const char *cli_output_file_why(const char *path)
{
	const char *why = NULL;

	output_file_check(path, &why);
	return why;
}

int cli_output_file_end(const char *cmd, const char *path, struct output_file *of, int rc)
{
	const char *why = NULL;

	if (rc == -EIO) /* the stream failed: the write's own errno says why */
		rc = output_file_error(of) ? output_file_error(of) : rc;
	if (rc) {
		output_file_abort(of);
		return write_errno(rc) ? cli_output_file_fail(cmd, path, rc, NULL) : write_fail(cmd, rc);
	}
	rc = output_file_commit(of, &why);
	return rc ? cli_output_file_fail(cmd, path, rc, why) : 0;
}

int cli_output_file_check(const char *cmd, const char *path)
{
	const char *why;
	int err;

	if (!*path)
		return cli_usage_err(cmd, "an empty file name");
	err = output_file_check(path, &why);
	return err ? cli_output_file_fail(cmd, path, err, why) : 0;
}

static int check_files(const char *cmd, const struct cli_output *o,
		       const struct output_view *view)
{
	int rc = 0;

	if (o->separator && output_sv_sep_check(o->separator))
		return cli_usage_err(cmd, "bad -x '%s': a separator of 1 to %d bytes, without a "
				     "double quote or a line break", o->separator,
				     OUTPUT_SV_SEP_MAX);
	if (o->openmetrics && !output_can_write(&output_format_openmetrics, view))
		return cli_usage_err(cmd, "--openmetrics: no metrics of this command's results");
	if (o->file && o->openmetrics && !strcmp(o->file, o->openmetrics))
		return cli_usage_err(cmd, "-o and --openmetrics name the same file '%s': give two",
				     o->file);
	if (o->file)
		rc = cli_output_file_check(cmd, o->file);
	if (!rc && o->openmetrics)
		rc = cli_output_file_check(cmd, o->openmetrics);
	return rc;
}

int cli_output_check(const char *cmd, struct cli_output *o, const struct output_view *view)
{
	char a[32], b[32];

	if (o->other) {
		const struct output_format *const *f = output_formats;

		while (*f != o->fmt && *f != o->other)
			f++;
		snprintf(a, sizeof(a), "--%s", (*f)->option);
		snprintf(b, sizeof(b), "--%s", (*f == o->fmt ? o->other : o->fmt)->option);
		return cli_refuse_together(cmd, a, b);
	}
	if (!o->fmt)
		o->fmt = &output_format_text;
	if (!output_can_write(o->fmt, view))
		return cli_usage_err(cmd, "--%s: no %s of this command's results", o->fmt->option,
				     o->fmt->name);
	return check_files(cmd, o, view);
}

const struct output_format *cli_output_format(const struct cli_output *o)
{
	return o->fmt ? o->fmt : &output_format_text;
}

int cli_output_write_file(const char *cmd, const char *path, const struct output_format *fmt,
			  const struct output_view *view, const void *result,
			  const struct output_params *p)
{
	struct output_file *of;
	const char *why;
	FILE *f;
	int rc = output_file_open_atomic(path, &of, &why);

	if (rc)
		return cli_output_file_fail(cmd, path, rc, why);
	f = output_file_stream(of);
	rc = f ? output_write_params(f, fmt, view, result, p) : -ENOMEM;
	return cli_output_file_end(cmd, path, of, rc);
}

int cli_output(const char *cmd, const struct cli_output *o, const struct output_view *view,
	       const void *result, json_t *env)
{
	struct output_params p = { .environment = env, .separator = o->separator };
	int rc;

	if (o->file)
		rc = cli_output_write_file(cmd, o->file, cli_output_format(o), view, result, &p);
	else if ((rc = output_write_params(stdout, cli_output_format(o), view, result, &p)))
		rc = write_fail(cmd, rc);
	if (!rc && o->openmetrics)
		rc = cli_output_write_file(cmd, o->openmetrics, &output_format_openmetrics, view,
					   result, &p);
	return rc;
}

int cli_output_json_file(const char *cmd, const char *path, const json_t *doc)
{
	struct output_file *of;
	const char *why;
	size_t len = 0;
	char *text = bench_json_dumps(doc, &len);
	FILE *f;
	int rc;

	if (!text) {
		cli_err("%s: cannot build the JSON document (out of memory)", cmd);
		return EX_SOFTWARE;
	}
	rc = output_file_open_atomic(path, &of, &why);
	if (rc) {
		free(text);
		return cli_output_file_fail(cmd, path, rc, why);
	}
	f = output_file_stream(of);
	rc = !f ? -ENOMEM : fwrite(text, 1, len, f) != len ? -EIO : 0;
	free(text);
	return cli_output_file_end(cmd, path, of, rc);
}
