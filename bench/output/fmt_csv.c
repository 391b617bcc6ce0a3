/*
 * bench/output/fmt_csv.c - comma-separated values (RFC 4180 shape; no
 * field holds a comma or a quote: kernel and metric names are
 * identifiers): a header line, then one line per measured quantity of the
 * result (its view's rows): the view's own leading columns when it has
 * them (rows_columns: stat's time, kind, recipe, backend), the subject, the quantity, its unit, the
 * statistics in that unit (%.6g) and the +/- bound in points (%.4f; empty
 * when the quantity has none).
 */
#include <math.h>

#include "bench/output/output.h"

static bool csv_can_write(const struct output_view *view)
{
	return view->rows != NULL;
}

static void csv_row(void *arg, const struct output_row *r)
{
	FILE *f = arg;
	const struct bench_stats *s = r->stats;

	for (unsigned i = 0; r->columns && r->columns[i]; i++)
		fprintf(f, "%s,", r->columns[i]);
	fprintf(f, "%s,%s,%s,%zu,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,", r->subject, r->quantity,
		r->unit, s->n, s->median, s->min, s->max, s->q1, s->q3, s->mad, s->mean);
	if (isnan(r->bound))
		fputs("\n", f);
	else
		fprintf(f, "%.4f\n", r->bound);
}

static int csv_write(FILE *f, const struct output_view *view, const void *result,
		     const struct output_params *p)
{
	(void)p;
	for (unsigned i = 0; view->rows_columns && view->rows_columns[i]; i++)
		fprintf(f, "%s,", view->rows_columns[i]);
	fprintf(f, "%s,quantity,unit,n,median,min,max,q1,q3,mad,mean,bound_pp\n",
		view->rows_subject);
	view->rows(result, csv_row, f);
	return 0;
}

const struct output_format output_format_csv = {
	.name = "csv", .option = "csv", .can_write = csv_can_write, .write = csv_write,
};
