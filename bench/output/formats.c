/*
 * bench/output/formats.c - the table of output formats and the entry
 * points every command writes through (bench/output/output.h): a whole
 * result (output_write) or a stream of records (output_stream_*), each
 * in the format the command line chose, by the format's own hooks.  A
 * format is one file (fmt_NAME.c) and one entry here.
 */
#include <errno.h>
#include <string.h>

#include "bench/output/output.h"

const struct output_format *const output_formats[] = {
	&output_format_text, /* the default: first */
	&output_format_json,
	&output_format_csv,
	&output_format_sv,
	&output_format_openmetrics,
	NULL,
};

const struct output_format *output_format_by_option(const char *option)
{
	for (const struct output_format *const *f = output_formats; option && *f; f++)
		if ((*f)->option && !strcmp((*f)->option, option))
			return *f;
	return NULL;
}

bool output_can_write(const struct output_format *fmt, const struct output_view *view)
{
	return fmt && view && fmt->can_write(view);
}

int output_write(FILE *f, const struct output_format *fmt, const struct output_view *view,
		 const void *result, json_t *environment)
{
	struct output_params p = { .environment = environment };

	return output_write_params(f, fmt, view, result, &p);
}

int output_write_params(FILE *f, const struct output_format *fmt,
			const struct output_view *view, const void *result,
			const struct output_params *p)
{
	struct output_params none = { 0 };

	if (!fmt)
		fmt = &output_format_text;
	if (!output_can_write(fmt, view))
		return -EOPNOTSUPP;
	return fmt->write(f, view, result, p ? p : &none);
}

/* ------------------------------------------------------------ streams */

bool output_stream_can(const struct output_format *fmt, const struct output_view *view)
{
	if (!fmt)
		fmt = &output_format_text;
	return fmt->record && output_can_write(fmt, view);
}

int output_stream_open(struct output_stream *st, FILE *f, const struct output_format *fmt,
		       const struct output_view *view, const struct output_params *p)
{
	if (!fmt)
		fmt = &output_format_text;
	*st = (struct output_stream){ .f = f, .fmt = fmt, .view = view };
	if (p)
		st->p = *p;
	return output_stream_can(fmt, view) ? 0 : -EOPNOTSUPP;
}

/* The format's begin, once, before the first record @first. */
static int stream_begin(struct output_stream *st, const void *first)
{
	if (st->begun)
		return 0;
	st->begun = true;
	return st->fmt->begin ? st->fmt->begin(st->f, st->view, first, &st->p) : 0;
}

/* @rc, or -EIO when the stream refused what was written; flushed, so
 * that a reader of a pipe or a terminal has each record as it ends. */
static int stream_flushed(struct output_stream *st, int rc)
{
	if (fflush(st->f) && !rc)
		rc = -EIO;
	return rc ? rc : ferror(st->f) ? -EIO : 0;
}

int output_stream_record(struct output_stream *st, const void *record)
{
	int rc;

	if (!st->fmt || !output_stream_can(st->fmt, st->view))
		return -EOPNOTSUPP;
	rc = stream_begin(st, record);
	if (!rc)
		rc = st->fmt->record(st->f, st->view, record, &st->p);
	return stream_flushed(st, rc);
}

int output_stream_end(struct output_stream *st, const struct output_view *view,
		      const void *result)
{
	int rc = 0;

	if (!st->fmt || !output_stream_can(st->fmt, st->view))
		return -EOPNOTSUPP;
	if (st->fmt->end) /* no record came: no heading above the end either */
		rc = output_can_write(st->fmt, view) ? st->fmt->end(st->f, view, result, &st->p)
						     : -EOPNOTSUPP;
	return stream_flushed(st, rc);
}

bool output_stream_has_end(const struct output_format *fmt)
{
	return (fmt ? fmt : &output_format_text)->end != NULL;
}
