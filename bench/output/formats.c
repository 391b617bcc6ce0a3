/*
 * bench/output/formats.c - the table of output formats and the one entry
 * point every command writes its result through (bench/output/output.h).
 * A format is one file (fmt_NAME.c) and one entry here.
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
