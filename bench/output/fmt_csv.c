/*
 * bench/output/fmt_csv.c - comma-separated values: --csv is `-x ,`, the
 * separated values of fmt_sv.c with a comma (RFC 4180: a field that holds
 * a comma or a double quote is quoted), so that the two options give the
 * same bytes: one layout per result, bench's and stat's the long layout of
 * output.h.
 */
#include "bench/output/output.h"

/* @p with the comma for its separator. */
static struct output_params comma(const struct output_params *p)
{
	struct output_params c = *p;

	c.separator = ",";
	return c;
}

static int csv_write(FILE *f, const struct output_view *view, const void *result,
		     const struct output_params *p)
{
	struct output_params c = comma(p);

	return output_format_sv.write(f, view, result, &c);
}

static int csv_begin(FILE *f, const struct output_view *view, const void *first,
		     const struct output_params *p)
{
	struct output_params c = comma(p);

	return output_format_sv.begin(f, view, first, &c);
}

static int csv_record(FILE *f, const struct output_view *view, const void *record,
		      const struct output_params *p)
{
	struct output_params c = comma(p);

	return output_format_sv.record(f, view, record, &c);
}

static bool csv_can_write(const struct output_view *view)
{
	return output_format_sv.can_write(view);
}

const struct output_format output_format_csv = {
	.name = "csv", .option = "csv", .can_write = csv_can_write, .write = csv_write,
	.begin = csv_begin, .record = csv_record,
};
