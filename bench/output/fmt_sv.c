/*
 * bench/output/fmt_sv.c - separated values with the separator the user
 * chose (-x SEP, as `perf stat -x SEP`; --csv is -x , : fmt_csv.c): a
 * header line naming the view's columns (the CPU, core kind, recipe and
 * backend first; bench's and stat's the long layout, output.h), then one
 * line per record; a stream (stat -I) the header once, then each
 * record's lines.  Shaped as RFC 4180 with SEP for the comma: a field that
 * holds SEP or a double quote is put in double quotes, a quote in it
 * doubled; a field never holds a line break (strings from CPUID, files
 * or the environment are escaped first, cpu/escape.h: \x0a).  Python's
 * csv.reader(f, delimiter=SEP) reads it back.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/output/output.h"
#include "cpu/escape.h"

struct sv {
	FILE *f;
	const char *sep;
	size_t ncols;
	int err;
};

int output_sv_sep_check(const char *sep)
{
	size_t n = sep ? strlen(sep) : 0;

	if (!n || n > OUTPUT_SV_SEP_MAX || strpbrk(sep, "\"\r\n"))
		return -EINVAL;
	return 0;
}

static bool sv_can_write(const struct output_view *view)
{
	return view->columns && view->records;
}

static void sv_field(struct sv *sv, const char *cell)
{
	size_t n = esc_str(NULL, 0, cell);
	char *e = malloc(n + 1);

	if (!e) {
		sv->err = -ENOMEM;
		return;
	}
	esc_str(e, n + 1, cell);
	if (!strstr(e, sv->sep) && !strchr(e, '"')) {
		fputs(e, sv->f);
	} else {
		fputc('"', sv->f);
		for (const char *p = e; *p; p++) {
			if (*p == '"')
				fputc('"', sv->f);
			fputc(*p, sv->f);
		}
		fputc('"', sv->f);
	}
	free(e);
}

static void sv_line(struct sv *sv, const char *const *cells)
{
	for (size_t i = 0; i < sv->ncols; i++) {
		if (i)
			fputs(sv->sep, sv->f);
		sv_field(sv, cells[i] ? cells[i] : "");
	}
	fputc('\n', sv->f);
}

static void sv_record(void *arg, const char *const *cells)
{
	sv_line(arg, cells);
}

/* @sv for @view's columns with @p's separator; -EINVAL: a bad one. */
static int sv_init(struct sv *sv, FILE *f, const struct output_view *view,
		   const struct output_params *p)
{
	*sv = (struct sv){ .f = f, .sep = p->separator ? p->separator : "," };
	if (output_sv_sep_check(sv->sep))
		return -EINVAL;
	while (view->columns[sv->ncols])
		sv->ncols++;
	return 0;
}

static int sv_done(struct sv *sv)
{
	if (!sv->err && ferror(sv->f))
		sv->err = -EIO;
	return sv->err;
}

/* The header line: the columns' names (whatever the first record). */
static int sv_begin(FILE *f, const struct output_view *view, const void *first,
		    const struct output_params *p)
{
	struct sv sv;
	int rc = sv_init(&sv, f, view, p);

	(void)first;
	if (rc)
		return rc;
	sv_line(&sv, view->columns);
	return sv_done(&sv);
}

/* One stream record's lines (stat -I: an interval's), no header. */
static int sv_records(FILE *f, const struct output_view *view, const void *result,
		      const struct output_params *p)
{
	struct sv sv;
	int rc = sv_init(&sv, f, view, p);

	if (rc)
		return rc;
	view->records(result, sv_record, &sv);
	return sv_done(&sv);
}

static int sv_write(FILE *f, const struct output_view *view, const void *result,
		    const struct output_params *p)
{
	int rc = sv_begin(f, view, result, p);

	return rc ? rc : sv_records(f, view, result, p);
}

const struct output_format output_format_sv = {
	.name = "separated values", .option = "field-separator", .can_write = sv_can_write,
	.write = sv_write, .begin = sv_begin, .record = sv_records,
};
